import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/**
 * While `waiting` (something the bank decides is expected soon: an agreement to approve, a
 * payment to settle), ask the server for the page's data again `everyMs` after the last answer:
 * never two requests at once, and not while the tab is hidden. Remix's own revalidation, so the
 * page needs no data fetching of its own; without JavaScript the page offers "Check again".
 */
export function useRecheckWhile(waiting: boolean, everyMs = 3_000) {
  const { state, revalidate } = useRevalidator();
  useEffect(() => {
    if (!waiting || state !== "idle") return;
    const timer = setTimeout(() => {
      if (document.visibilityState === "visible") void revalidate();
    }, everyMs);
    return () => clearTimeout(timer);
  }, [waiting, state, revalidate, everyMs]);
}
