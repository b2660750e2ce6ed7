import { ScrollRestoration } from "@remix-run/react";
import { createContext, useContext, type ReactNode } from "react";

type RenderScripts = (nonce: string | undefined) => ReactNode;

/**
 * The document's scripts (decision 087), which entry.server provides: the modules and Remix's
 * `<Scripts>` in a template, started after the first paint, and a scroll-restoring script
 * (`PageScripts.server.tsx`, which no browser downloads). The browser has no provider.
 */
const DocumentScriptsContext = createContext<RenderScripts | null>(null);

export const DocumentScriptsProvider = DocumentScriptsContext.Provider;

/**
 * The page's scripts. In the browser: only Remix's `<ScrollRestoration>`, for its hook that saves
 * positions; React leaves the document's other nodes at the end of `<body>` alone when it hydrates.
 */
export function PageScripts({ nonce }: { nonce: string | undefined }) {
  const documentScripts = useContext(DocumentScriptsContext);
  if (typeof document !== "undefined") return <ScrollRestoration nonce={nonce} />;
  // entry.server provides them (a server render without them would never hydrate: tests/unit/page-scripts.test.tsx).
  return documentScripts?.(nonce);
}
