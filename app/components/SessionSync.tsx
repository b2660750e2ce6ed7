import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

const CHANNEL = "portal-session";

type SessionMessage = { signedIn: boolean };

/**
 * With JavaScript: re-checks the session when the window regains focus, and tells the
 * other tabs of this site whenever this tab's page was rendered signed in or out (spec §4).
 * A tab that hears a different state, or finds one on focus, runs its loaders again, and a
 * page that needs a session then sends the user to sign-in. The message goes out after the
 * new page has rendered, so the server has already ended (or started) the session.
 * Without JavaScript the next request does the same.
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
    if (channel) {
      channel.onmessage = (event: MessageEvent<SessionMessage>) => {
        if (event.data?.signedIn !== signedIn) void check();
      };
      channel.postMessage({ signedIn } satisfies SessionMessage);
    }
    return () => {
      stopped = true;
      window.removeEventListener("focus", check);
      document.removeEventListener("visibilitychange", onVisible);
      channel?.close();
    };
    // The listeners only need the latest signedIn; revalidator is stable in use.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedIn]);
  return null;
}
