import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { button, secondaryButton } from "~/components/Button.css";
import { formStyles } from "~/components/Form";
import * as payto from "./components/PayTo.css";
import { useAgreementName } from "./components/PayToAgreements";
import { useRecheckWhile } from "~/components/useRecheckWhile";
import { useT } from "~/components/useT";
import { formatMoney } from "~/lib/format";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { payReturnOf, withAgreement } from "~/lib/pay-return";
import { isLive, type AgreementStatus } from "~/lib/payto-states";
import { PAYTO_REFUSALS } from "~/lib/payto-rules";
import {
  pageDates,
  accountNotFound,
  requirePaymentMethodsPage,
  getAgreement,
  agreementLabel,
  getEnv,
} from "./payment-methods.server";
import { metaDescription } from "~/lib/meta";

/** How often the page asks again while the payer may be approving it in their bank. */
const REVALIDATE_MS = 3_000;

/**
 * One PayTo agreement of the selected account: its status and what to do next, the account
 * it debits, the limit, and its history. While it waits for the payer's approval the page
 * asks the server again every few seconds (Remix revalidation, with JavaScript) and offers
 * "Check again" (without). Another account's or business's agreement is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, actor, returnTo: back } = await requirePaymentMethodsPage(request);
  const agreement = await getAgreement(actor, params.agreementId);
  if (!agreement) throw accountNotFound();
  const { dateTime: when } = await pageDates(request, branding);
  const sandbox = getEnv().PAYTO_PROVIDER === "sandbox";
  // Set up from a payment schedule's page or a pay page (the invoices', a request's, the ad-hoc
  // one): the way back there, and "Check again" keeps it. Back to the pay page once active, with
  // this agreement chosen (decision 077).
  const payReturn = back ? payReturnOf(back) : null;
  const payBack = payReturn ? back : null;
  return {
    businessName: branding.businessName,
    back: payBack ? null : back,
    payBack: payBack
      ? {
          href: agreement.status === "ACTIVE" ? withAgreement(payBack, agreement.id) : payBack,
          active: agreement.status === "ACTIVE",
          // The invoices' pay page keeps invoices and amounts; a request's or the ad-hoc page, what was typed.
          hint: payReturn!.page === "invoices" ? ("invoices" as const) : ("typed" as const),
        }
      : null,
    self: `/payment-methods/payto/${agreement.id}${back ? `?${new URLSearchParams({ returnTo: back })}` : ""}`,
    agreement: {
      id: agreement.id,
      status: agreement.status,
      reason: agreement.statusReason,
      label: agreementLabel(agreement),
      partyName: agreement.partyName,
      max: formatMoney(agreement.maxAmountCents, { currency: branding.currency }),
    },
    history: agreement.events.map((event) => ({
      at: when(event.at),
      from: event.fromStatus,
      to: event.toStatus,
    })),
    // The stand-in for the payer's banking app: only in the sandbox, and plainly labelled as such.
    sandboxBankUrl:
      sandbox && agreement.status === "CREATED" && agreement.providerAgreementId
        ? `/sandbox/payto-bank?agreement=${encodeURIComponent(agreement.providerAgreementId)}`
        : null,
  };
}

export default function PayToAgreement() {
  const { agreement, history, sandboxBankUrl, back, payBack, self } = useLoaderData<typeof loader>();
  const t = useT();
  const nameOf = useAgreementName();
  const status: AgreementStatus = agreement.status;
  useRecheckWhile(status === "CREATED", REVALIDATE_MS);
  // Why it ended or paused, in the bank's words; a refusal to create it, in ours. A pending or
  // active agreement's reason ("Waiting for the payer") would only repeat the status.
  const reason =
    status === "FAILED" && agreement.reason && (PAYTO_REFUSALS as readonly string[]).includes(agreement.reason)
      ? t(`payto.refusal.${agreement.reason}` as MessageKey)
      : agreement.reason && status !== "CREATED" && status !== "ACTIVE"
        ? t("payto.view.reason", { reason: agreement.reason })
        : null;
  return (
    <>
      <h1>{t("payto.view.title")}</h1>
      <p className={payto.wrap}>
        <strong>{nameOf(agreement.label)}</strong>
      </p>
      <p className={formStyles.notice} aria-live="polite" aria-atomic="true" data-testid="payto-status">
        {t(`payto.next.${status}` as MessageKey)}
      </p>
      {payBack?.active ? (
        <>
          <p>
            <Link to={payBack.href} className={button}>
              {t("payto.view.backToPayment")}
            </Link>
          </p>
          <p className={formStyles.hint}>
            {t(payBack.hint === "invoices" ? "payto.view.backToPayment.hint" : "payto.view.backToPayment.hintAmount")}
          </p>
        </>
      ) : null}
      {status === "CREATED" ? (
        <>
          <p className={payto.factValue}>
            {sandboxBankUrl ? (
              <>
                <a href={sandboxBankUrl} target="_blank" rel="noreferrer">
                  {t("payto.view.sandboxBank")}
                </a>{" "}
                ·{" "}
              </>
            ) : null}
            <Link to={self}>{t("payto.view.checkAgain")}</Link>
          </p>
        </>
      ) : null}
      <dl className={payto.facts}>
        <dt className={payto.factName}>{t("payto.view.status")}</dt>
        <dd className={payto.factValue}>{t(`payto.status.${status}` as MessageKey)}</dd>
        <dt className={payto.factName}>{t("payto.view.account")}</dt>
        <dd className={payto.factValue}>{nameOf(agreement.label)}</dd>
        <dt className={payto.factName}>{t("payto.view.holder")}</dt>
        <dd className={payto.factValue}>{agreement.partyName}</dd>
        <dt className={payto.factName}>{t("payto.view.limit")}</dt>
        <dd className={payto.factValue}>{t("payto.view.limitValue", { max: agreement.max })}</dd>
      </dl>
      {reason ? <p>{reason}</p> : null}

      <h2>{t("payto.view.history")}</h2>
      <ol className={payto.history}>
        {history.map((event, index) => (
          <li key={index}>
            {event.from === null && event.to === "CREATED"
              ? t("payto.view.history.created", { at: event.at })
              : t("payto.view.history.change", { at: event.at, status: t(`payto.status.${event.to}` as MessageKey) })}
          </li>
        ))}
      </ol>

      <p>
        {isLive(status) ? (
          <>
            <Link to={`/payment-methods/payto/${agreement.id}/cancel`} className={secondaryButton}>
              {t("payto.view.cancel")}
            </Link>{" "}
          </>
        ) : null}
        {payBack && !payBack.active ? (
          <Link to={payBack.href}>{t("payto.view.backToPayment")}</Link>
        ) : payBack ? null : back ? (
          <Link to={back}>{t("schedules.way.back")}</Link>
        ) : (
          <Link to="/payment-methods">{t("payto.view.back")}</Link>
        )}
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("payto.view.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.paytoView", data.businessName),
  ];
};
