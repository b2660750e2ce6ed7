import { isRouteErrorResponse, Link, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { MouseEvent } from "react";
import { button, secondaryButton } from "./Button.css";
import { AccountsNotFound } from "./AccountsNotFound";
import { BusinessContact } from "./BusinessContact";
import { StatusScreen } from "./StatusScreen";
import { useT } from "./useT";

type ErrorData = { reason?: string } | undefined;

/** What the root loader gives an error page: the business, and on an emailed link's page its email and phone. */
type RootContactData = {
  brand?: { businessName: string };
  linkContact?: { email: string | null; phone: string | null } | null;
};

/** The reasons of app/services/platform/form-limits.server.ts (a form past its bounds). */
const FORM_LIMIT_REASONS = new Set([
  "too-many-fields",
  "field-name",
  "list-index",
  "unknown-field",
  "field-too-long",
  "list-too-long",
]);

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
  const t = useT();
  if (status === 404 && reason === "unknown-host") return <UnknownHost />;
  if (status === 404 && reason === "no-accounts") return <AccountsNotFound />;
  if (status === 404 && reason === "link-invalid") return <LinkInvalid />;
  if (status === 404 || status === 403) return <PageNotFound backHref={backHref} />;
  if (status === 503) return <Unavailable />;
  if (status === 429) {
    return (
      <StatusScreen eyebrow={t("errors.code", { status })} title={t("errors.tooMany.title")} actions={<HomeLink />}>
        <p>{t("errors.tooMany.text")}</p>
      </StatusScreen>
    );
  }
  if (status === 400 || status === 405 || status === 413 || status === 415 || status === 422) {
    return (
      <StatusScreen eyebrow={t("errors.code", { status })} title={t("errors.badRequest.title")} actions={<HomeLink />}>
        <p>
          {t(
            reason === "control-characters"
              ? "errors.controlCharacters.text"
              : reason && FORM_LIMIT_REASONS.has(reason)
                ? "errors.formLimits.text"
                : "errors.badRequest.text",
          )}
        </p>
      </StatusScreen>
    );
  }
  return (
    <StatusScreen eyebrow={t("errors.code", { status })} title={t("errors.other.title")} actions={<HomeLink />}>
      <p>{t("errors.other.text")}</p>
    </StatusScreen>
  );
}

function HomeLink() {
  const t = useT();
  return (
    <Link to="/" className={button}>
      {t("errors.goHome")}
    </Link>
  );
}

/** Spec §2 'Page not found': also the answer for anything the user may not see. */
export function PageNotFound({ backHref = "/" }: { backHref?: string }) {
  const t = useT();
  const root = useRouteLoaderData<RootContactData>("root");
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
      eyebrow={t("errors.code", { status: 404 })}
      title={t("errors.notFound.title")}
      actions={
        <>
          <Link to="/" className={button}>
            {t("errors.goHome")}
          </Link>
          <a href={backHref} className={secondaryButton} onClick={goBack}>
            {t("errors.goBack")}
          </a>
        </>
      }
    >
      <p>{t("errors.notFound.text")}</p>
      {root?.linkContact ? (
        <BusinessContact businessName={root.brand?.businessName ?? ""} contact={root.linkContact} />
      ) : null}
    </StatusScreen>
  );
}

/**
 * An emailed link whose token does not check out (decision 031): one page for every such
 * token, naming only the host's business, with no hint whether the link ever existed.
 */
function LinkInvalid() {
  const t = useT();
  const root = useRouteLoaderData<RootContactData>("root");
  const businessName = root?.brand?.businessName ?? "";
  // No "Error 404" eyebrow: a person holding a link needs what to do and whom to ask (issue 32).
  return (
    <StatusScreen title={t("link.invalid.title")}>
      <p>{t("link.invalid.text", { business: businessName })}</p>
      {root?.linkContact ? <BusinessContact businessName={businessName} contact={root.linkContact} /> : null}
    </StatusScreen>
  );
}

/** Unknown host: plain, with no brand and no link that would guess at a tenant. */
function UnknownHost() {
  // No tenant, so no Language toggle: this is always the default language.
  const t = useT();
  return (
    <StatusScreen eyebrow={t("errors.code", { status: 404 })} title={t("errors.notFound.title")}>
      <p>{t("errors.unknownHost.text")}</p>
    </StatusScreen>
  );
}

function Unavailable() {
  const t = useT();
  return (
    <StatusScreen eyebrow={t("errors.code", { status: 503 })} title={t("errors.unavailable.title")}>
      <p>{t("errors.unavailable.text")}</p>
    </StatusScreen>
  );
}
