import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isLanguageCode } from "~/lib/i18n";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import {
  readForm,
  serializeLanguageCookie,
  requestOrigin,
  requireSameOrigin,
  requireHostBranding,
} from "./public.server";

/** Choose the language (a plain form in the footer, so it works without JavaScript). */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  await requireHostBranding(request);
  const form = await readForm(request);
  const language = form.get("language");
  const back = safeSameOriginPath(String(form.get("redirectTo") ?? "/"), requestOrigin(request), "/");
  if (!isLanguageCode(language)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": await serializeLanguageCookie(request, language) } });
}

export function loader() {
  return redirect("/");
}
