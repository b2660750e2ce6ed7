/**
 * Whether a page needs the client runtime (React, Remix and the route's own modules): read by the
 * root from every matched route's `handle` (decision 049). A route that draws nothing interactive
 * says `export const handle = { hydrate: false }`; one whose loader data decides (a payment link
 * that has been paid, expired or cancelled has nothing to do) gives a function of that data. The
 * default is to hydrate, so a route that says nothing keeps today's enhancement.
 */
export type HydrateHandle = { hydrate?: boolean | ((data: unknown) => boolean) };

type MatchLike = { handle?: unknown; data?: unknown };

function routeHydrates(match: MatchLike): boolean {
  const hydrate = (match.handle as HydrateHandle | undefined)?.hydrate;
  if (typeof hydrate === "function") return hydrate(match.data);
  return hydrate !== false;
}

/** True when every matched route can do without script: then the document ships none at all. */
export function pageIsStatic(matches: readonly MatchLike[]): boolean {
  // Only the matched routes below the root decide (the root is every page's parent).
  const own = matches.filter((match) => (match as { id?: string }).id !== "root");
  return own.length > 0 && own.every((match) => !routeHydrates(match));
}

/** A read-only route's handle: no client runtime. */
export const STATIC_PAGE: HydrateHandle = { hydrate: false };
