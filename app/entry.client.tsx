import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { INLINE_STYLES_ID, InlineStylesProvider } from "~/components/InlineStyles";
import { DEFAULT_LANGUAGE, LANGUAGES } from "~/lib/i18n";
import { fetchMessages, MESSAGES_LINK_ID, messagesPath, provideMessages } from "~/lib/i18n/runtime";

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

/**
 * The same cancelled read, a second way (decision 042): when the abort lands after the answer's
 * first line was decoded, turbo-stream (2.4, under Remix's single fetch) rejects the promise for the
 * rest of the stream, `done`, which Remix never awaits, so the browser reports an unhandled
 * rejection (twice: the stream and its reader). Our own code aborts nothing; an unhandled
 * rejection of any other kind is still reported.
 */
window.addEventListener("unhandledrejection", (event) => {
  const reason: unknown = event.reason;
  if (reason instanceof DOMException && reason.name === "AbortError") event.preventDefault();
});

// The page's language, as the server rendered it: its dictionary (JSON, decision 086; the document
// asked for it with the page's modules) is loaded before hydration, so the first render in the browser
// says exactly what the document says (decision 050).
const htmlLang = document.documentElement.lang;
const language = LANGUAGES.find((entry) => entry.htmlLang === htmlLang)?.code ?? DEFAULT_LANGUAGE;
const messagesLink = document.getElementById(MESSAGES_LINK_ID);
const messagesHref = messagesLink instanceof HTMLLinkElement ? messagesLink.href : messagesPath(language);

// Each step in a task of its own (a phone at 6× CPU makes each a few tens of milliseconds): the
// data's decoding waits for this module's evaluation to end, hydration for the decoding's.
void Promise.all([fetchMessages(messagesHref), nextTask().then(remixStateDecoded)]).then(([messages]) => {
  provideMessages(language, messages);
  return nextTask().then(() => startTransition(hydrate));
});

/** Resolves in a later task than this one, letting the browser draw or answer a tap in between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Remix 2.17's single fetch decodes the document's data the first time RemixBrowser renders, and
 * until it has, it suspends the whole root (it throws the decoding promise; nothing in a document
 * can sit under a Suspense boundary). A key press or a tap in that moment makes React hydrate the
 * root at once, synchronously; a root that suspends then fails with "Root did not complete"
 * (React #345, an uncaught error: decision 053; remix-run/remix#10214). So the
 * decoding starts, and is waited for, before hydration: RemixBrowser's first lines do exactly that
 * and nothing else while the data is not decoded (they return before any hook is called). Should a
 * later Remix not throw there, the call fails at its first hook instead, and hydration goes ahead
 * as before.
 */
async function remixStateDecoded() {
  try {
    RemixBrowser({});
  } catch (thrown) {
    if (thrown instanceof Promise) await thrown.catch(() => undefined);
  }
}

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
