import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

const CHANNEL = "portal-session";

/** Tells the other tabs of this site that this one is signing out (spec §4). */
export function announceSignOut() {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage("signed-out");
  channel.close();
}

/**
 * With JavaScript: re-checks the session when the window regains focus and when another
 * tab signs in or out (spec §4). If the answer differs from what this page was rendered
 * with, the page's loaders run again, and a page that needs a session sends the user to
 * sign-in. Without JavaScript the next request does the same.
 */
export function SessionSync({ signedIn }: { signedIn: boolean }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    let stopped = false;
    async function check() {
      try {
        const response = await fetch("/api/auth/session", { credentials: "same-origin", cache: "no-store" });
        if (!response.ok) return;
        const body = (await response.json()) as { authenticated?: boolean };
        if (!stopped && Boolean(body.authenticated) !== signedIn) revalidator.revalidate();
      } catch {
        // Offline or the server is restarting: the next check or request will tell.
      }
    }
    const onVisible = () => {
      if (document.visibilityState === "visible") void check();
    };
    window.addEventListener("focus", check);
    document.addEventListener("visibilitychange", onVisible);
    const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(CHANNEL);
    if (channel) channel.onmessage = () => void check();
    return () => {
      stopped = true;
      window.removeEventListener("focus", check);
      document.removeEventListener("visibilitychange", onVisible);
      channel?.close();
    };
    // revalidator is a new object each render; the listeners only need the latest signedIn.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedIn]);
  return null;
}
