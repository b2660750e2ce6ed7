import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { INLINE_STYLES_ID, InlineStylesProvider } from "~/components/InlineStyles";
import { DEFAULT_LANGUAGE, LANGUAGES } from "~/lib/i18n";
import { loadMessages, provideMessages } from "~/lib/i18n/runtime";

/**
 * Remix 2.17's single fetch logs to the console when a request it is still reading is aborted
 * on purpose: the contact submits a form while the page's data is being read again after the
 * last one, and the router cancels that read (decision 042). Nothing failed: the router drops
 * the cancelled answer. Only that one case is kept out of the console — a lone AbortError —
 * so every other console error still shows (and still fails the end-to-end checks).
 */
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const [only] = args;
  if (args.length === 1 && only instanceof DOMException && only.name === "AbortError") return;
  consoleError(...args);
};

// The page's language, as the server rendered it: its dictionary is loaded (a cached chunk) before
// hydration, so the first render in the browser says exactly what the document says (decision 050).
const htmlLang = document.documentElement.lang;
const language = LANGUAGES.find((entry) => entry.htmlLang === htmlLang)?.code ?? DEFAULT_LANGUAGE;

void loadMessages(language).then((messages) => {
  provideMessages(language, messages);
  startTransition(hydrate);
});

function hydrate() {
  hydrateRoot(
    document,
    <StrictMode>
      {/* The stylesheet the document carries inline (decision 049): the same text, so the same element. */}
      <InlineStylesProvider value={document.getElementById(INLINE_STYLES_ID)?.textContent ?? null}>
        <RemixBrowser />
      </InlineStylesProvider>
    </StrictMode>,
  );
}
