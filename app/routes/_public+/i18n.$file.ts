import type { LoaderFunctionArgs } from "@remix-run/node";
import { messagesFileNamed } from "./public.server";

/**
 * One language's dictionary for the browser, as JSON (decision 086): `/i18n/en-AU.json?v=<hash>`,
 * asked for by pages that hydrate, before they do. The same for every host, so no host or session
 * is read. At its current version it is kept for a year; under any other version (a page from
 * before a deploy) it is the current text, which no cache keeps. Anything else is a 404.
 */
export function loader({ params, request }: LoaderFunctionArgs) {
  const file = messagesFileNamed(params.file);
  if (!file) {
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const current = new URL(request.url).searchParams.get("v") === file.version;
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "no-cache",
      "Content-Language": file.language,
    },
  });
}
