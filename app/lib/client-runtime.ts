/**
 * Whether a page needs the client runtime (React, Remix and the route's own modules): read by the
 * root from every matched route's `handle` (decision 049). A route that draws nothing interactive
 * says `export const handle = { hydrate: false }`; one whose loader data decides (a payment link
 * that has been paid, expired or cancelled has nothing to do) gives a function of that data. The
 * default is to hydrate, so a route that says nothing keeps today's enhancement.
 */
export type HydrateHandle = {
  hydrate?: boolean | ((data: unknown) => boolean);
  /**
   * A page that ships no React may still want the small conveniences of `public/enhance.js` (the
   * Menu's Escape, Copy buttons, the session across tabs; decision 084): one deferred file of its own.
   * A function decides from the route's loader data (a schedule's proposal takes it while open; once
   * closed it only shows, with no script at all).
   */
  enhance?: boolean | ((data: unknown) => boolean);
};

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

/**
 * A page whose only scripts are conveniences (decision 084): no React, no route modules; the one
 * small shared file `public/enhance.js` gives the Menu's Escape, the Copy buttons and the session
 * across tabs. Its forms post and its links navigate as HTML does.
 */
export const ENHANCED_PAGE: HydrateHandle = { hydrate: false, enhance: true };

/**
 * Whether a page with no client runtime loads `public/enhance.js`: when one of its matched routes
 * below the root asks for it. A page with the runtime never does (React gives the same itself).
 */
export function pageEnhanced(matches: readonly MatchLike[]): boolean {
  if (!pageIsStatic(matches)) return false;
  return matches.some((match) => {
    if ((match as { id?: string }).id === "root") return false;
    const enhance = (match.handle as HydrateHandle | undefined)?.enhance;
    return typeof enhance === "function" ? enhance(match.data) : enhance === true;
  });
}

function kindOf(data: unknown): unknown {
  return typeof data === "object" && data !== null ? (data as { kind?: unknown }).kind : undefined;
}

/**
 * For a page whose loader data says what it is in `kind`: only a page of one of these kinds has
 * something to do with script (a link's "open" page, with its form). Anything else only shows.
 */
export function hydrateOnlyWhen(...kinds: string[]): HydrateHandle {
  return { hydrate: (data) => kinds.includes(kindOf(data) as string) };
}

/**
 * The other way round: a page of one of these kinds only shows (a closed link says so and who to
 * ask); every other kind, and a page with no data (its error boundary), keeps the runtime.
 */
export function staticWhen(...kinds: string[]): HydrateHandle {
  return { hydrate: (data) => !kinds.includes(kindOf(data) as string) };
}
