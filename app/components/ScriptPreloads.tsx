import { UNSAFE_RemixContext, useMatches, useRouteLoaderData } from "@remix-run/react";
import { useContext } from "react";
import { MESSAGES_LINK_ID } from "~/lib/i18n/runtime";

/**
 * The page's module scripts, asked for at low priority (decision 085), rendered just before Remix's
 * `<Scripts>`: the same files, in the same order, as its own `<link rel="modulepreload">` tags, which
 * then find each one already on its way (a module is fetched once per document) and ask for
 * nothing. Remix gives its preloads no priority of their own, and a module preload is fetched at
 * high priority: on a slow phone it would share the link with the page's own stylesheet and images
 * and, by Lighthouse's rules, count as needed for the first paint, which it never is — the page
 * works as HTML before any of it runs (its forms post; decision 084). Rendered in the server's document
 * only, from Remix's own manifest, in the template whose content is added after the first paint
 * (decision 087). The page's dictionary (decision 086), which hydration
 * waits for as it waits for the modules, is asked for with them, the same way.
 */
// React 18 does not know `fetchPriority` (it would warn and write it as is): the attribute as HTML spells it.
const LOW_PRIORITY: Record<string, string> = { fetchpriority: "low" };

export function ScriptPreloads() {
  const remix = useContext(UNSAFE_RemixContext);
  const matches = useMatches();
  const messagesHref = useRouteLoaderData<{ messagesHref?: string }>("root")?.messagesHref;
  if (!remix) return null;
  const { manifest } = remix;
  const files = [
    manifest.entry.module,
    ...manifest.entry.imports,
    ...matches.flatMap((match) => {
      const route = manifest.routes[match.id];
      return route ? [...(route.imports ?? []), route.module] : [];
    }),
  ];
  return (
    <>
      {messagesHref ? (
        <link
          id={MESSAGES_LINK_ID}
          rel="preload"
          as="fetch"
          href={messagesHref}
          crossOrigin="anonymous"
          {...LOW_PRIORITY}
        />
      ) : null}
      {[...new Set(files)].map((href) => (
        <link key={href} rel="modulepreload" href={href} {...LOW_PRIORITY} />
      ))}
    </>
  );
}
