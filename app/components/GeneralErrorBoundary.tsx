import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import type { MouseEvent } from "react";
import { button, secondaryButton } from "./Button.css";
import { AccountsNotFound } from "./AccountsNotFound";
import { StatusScreen } from "./StatusScreen";

export const PAGE_NOT_FOUND_TEXT =
  "The page you're looking for doesn't exist or you do not have permission to access.";

type ErrorData = { reason?: string } | undefined;

/** The status and reason of whatever a loader, action or render threw. */
export function useErrorStatus(): { status: number; reason?: string } {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const reason = (error.data as ErrorData)?.reason;
    return { status: error.status, reason: typeof reason === "string" ? reason : undefined };
  }
  return { status: 500 };
}

/**
 * Every error page of the portal, chosen by status. Never shows a stack or an internal
 * message: those go to the log with the request id.
 */
export function GeneralErrorBoundary({ backHref = "/" }: { backHref?: string }) {
  const { status, reason } = useErrorStatus();
  if (status === 404 && reason === "unknown-host") return <UnknownHost />;
  if (status === 404 && reason === "no-accounts") return <AccountsNotFound />;
  if (status === 404 || status === 403) return <PageNotFound backHref={backHref} />;
  if (status === 503) return <Unavailable />;
  if (status === 429) {
    return (
      <StatusScreen eyebrow="Error 429" title="Too many attempts" actions={<HomeLink />}>
        <p>Please wait 15 minutes and try again. Nothing was changed.</p>
      </StatusScreen>
    );
  }
  if (status === 400 || status === 405 || status === 413 || status === 415 || status === 422) {
    return (
      <StatusScreen eyebrow={`Error ${status}`} title="We couldn't use that request" actions={<HomeLink />}>
        <p>Something in the address or form wasn't valid. Nothing was changed.</p>
      </StatusScreen>
    );
  }
  return (
    <StatusScreen eyebrow="Error" title="Something went wrong" actions={<HomeLink />}>
      <p>We couldn't show this page. Nothing was charged or changed. Please try again in a moment.</p>
    </StatusScreen>
  );
}

function HomeLink() {
  return (
    <Link to="/" className={button}>
      Go home
    </Link>
  );
}

/** Spec §2 'Page not found': also the answer for anything the user may not see. */
export function PageNotFound({ backHref = "/" }: { backHref?: string }) {
  function goBack(event: MouseEvent<HTMLAnchorElement>) {
    // With JavaScript, go back in history (keeps scroll and form state); without it,
    // the link goes to the page the user came from (same-origin only) or home.
    if (window.history.length > 1) {
      event.preventDefault();
      window.history.back();
    }
  }
  return (
    <StatusScreen
      eyebrow="Error 404"
      title="Page not found"
      actions={
        <>
          <Link to="/" className={button}>
            Go home
          </Link>
          <a href={backHref} className={secondaryButton} onClick={goBack}>
            Go back
          </a>
        </>
      }
    >
      <p>{PAGE_NOT_FOUND_TEXT}</p>
    </StatusScreen>
  );
}

/** Unknown host: plain, with no brand and no link that would guess at a tenant. */
function UnknownHost() {
  return (
    <StatusScreen eyebrow="Error 404" title="Page not found">
      <p>There is no portal at this address. Please check the link you were given.</p>
    </StatusScreen>
  );
}

function Unavailable() {
  return (
    <StatusScreen eyebrow="Error 503" title="Temporarily unavailable">
      <p>The portal can't reach its data right now. Nothing was charged or changed. Please try again in a minute.</p>
    </StatusScreen>
  );
}
