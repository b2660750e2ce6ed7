import { createContext, useContext } from "react";

/**
 * The stylesheet every page needs, sent inside the document (decision 049) so that the first paint
 * waits for no second request. entry.server provides the built CSS bundle's text; in the browser,
 * entry.client provides the text the document already holds, so hydration renders the same element.
 * Null when the text is not available (a development build, or CSS_DELIVERY=link): the root then
 * links the bundle instead.
 */
const InlineStylesContext = createContext<string | null>(null);

export const InlineStylesProvider = InlineStylesContext.Provider;

export function useInlineStyles() {
  return useContext(InlineStylesContext);
}

/** The `<style>` element's id, by which the browser finds the text again. */
export const INLINE_STYLES_ID = "portal-styles";
