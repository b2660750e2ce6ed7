import { Link } from "@remix-run/react";
import { linkButton } from "./Button.css";
import { Field } from "./Form";
import { BusinessContact } from "./BusinessContact";
import { InvoiceDetails, InvoicePdfLink, type InvoiceFacts } from "./InvoiceDetails";
import { PAY_FORM_ID, PayForm, type PayFormMethods } from "./PayForm/PayForm";
import { PayIdPanel, type PayIdPanelData } from "./PayIdPanel";
import * as styles from "./Table.css";
import { useT } from "./useT";
import type { BreakdownView, PayFormReply, PayMethodChoice } from "~/lib/pay-form";
import { surchargeSentence, type SurchargeRate } from "~/lib/surcharges";
import { StackedTable } from "./StackedTable";
import * as payStyles from "~/styles/pay.css";

/**
 * A payment request as its payer sees it (issue 14; decision 031), by link or signed in: what
 * is owing, the pay form, and the invoices it covers, each printable. Or, once it takes no
 * money, a plain page saying why, with the business's contact details.
 */
export type RequestOpenData = {
  kind: "open";
  businessName: string;
  requestGuid: string;
  request: {
    reference: string;
    description: string;
    kind: "invoices" | "amount";
    owing: string;
    remaining: string;
    /** The amount field's value (a part payment chosen before signing in, or all that is left). */
    amount: string;
    dueDate: string | null;
    expires: string;
    /** What has been paid of what was first asked, or null when nothing has. */
    paidSoFar: string | null;
    partPayment: { min: string | null } | null;
  };
  invoices: { id: string; number: string; dueDate: string; asked: string; balance: string; href: string }[];
  methods: PayFormMethods;
  method: PayMethodChoice;
  breakdown: BreakdownView | null;
  payId: PayIdPanelData | null;
  signInHref: string | null;
  /** What a card adds, by brand (`null`: every other card); empty when cards cost nothing extra. */
  surcharges: SurchargeRate[];
};

export type RequestClosedData = {
  kind: "closed";
  reason: "paid" | "expired" | "cancelled" | "replaced" | "withdrawn" | "processing" | "onHold";
  reference: string;
  businessName: string;
  contact: { email: string | null; phone: string | null };
};

export function RequestOpen({ data, reply }: { data: RequestOpenData; reply: PayFormReply | null }) {
  const t = useT();
  const { request } = data;
  // Where paying costs nothing extra: the PayID, folded under "Other ways to pay" (a fragment
  // link into a closed <details> opens it, with or without JavaScript).
  const payIdReady = data.payId?.status === "ready";
  return (
    <>
      {/* What the email said, first: who asks, how much, by when (decision 075). */}
      <h1 className={payStyles.ask}>
        <span className={payStyles.askWho}>{t("requestPage.ask", { business: data.businessName })}</span>{" "}
        <span className={payStyles.askAmount}>{request.owing}</span>
      </h1>
      <PayForm
        requestGuid={data.requestGuid}
        reply={reply}
        breakdown={data.breakdown}
        defaultMethod={data.method}
        methods={data.methods}
        businessName={data.businessName}
        note={false}
        payIdOffered={payIdReady}
        subtotalLabel={t("requestPage.subtotal")}
        lead={() => (
          <>
            {request.dueDate ? <>{t("requestPage.dueBy", { date: request.dueDate })} · </> : null}
            {request.paidSoFar ? <>{t("requestPage.paidSoFar", { paid: request.paidSoFar })} · </> : null}
            {t("requestPage.title", { reference: request.reference })}
            {request.description ? <> · {request.description}</> : null}
          </>
        )}
        amountFields={({ error }) =>
          request.partPayment ? (
            <Field
              id="amount"
              name="amount"
              label={t("requestPage.amount")}
              hint={
                request.partPayment.min
                  ? t("requestPage.amount.hintMin", { remaining: request.owing, min: request.partPayment.min })
                  : t("requestPage.amount.hintAny", { remaining: request.owing })
              }
              defaultValue={reply?.amounts.amount ?? request.amount}
              inputMode="decimal"
              autoComplete="off"
              error={error("amount")}
            />
          ) : null
        }
        notice={
          data.surcharges.length > 0 ? (
            <p className={payStyles.notice}>
              <SurchargeLine surcharges={data.surcharges} />
              {payIdReady ? (
                <>
                  {" "}
                  {t("requestPage.surcharge.avoid")} <a href="#other-ways-payid">{t("requestPage.otherWays")}</a>
                </>
              ) : null}
            </p>
          ) : null
        }
      />
      {data.payId || data.signInHref ? (
        <details className={payStyles.otherWays}>
          <summary className={payStyles.foldSummary}>{t("requestPage.otherWays")}</summary>
          <div id="other-ways-payid" className={payStyles.otherWaysBody}>
            {data.payId ? <PayIdPanel data={data.payId} invoiceNumber={request.reference} /> : null}
            {data.signInHref ? (
              <p>
                {/* The pay form's button (outside it, by `form`), so a part payment typed comes along (decision 077). */}
                <button type="submit" form={PAY_FORM_ID} name="intent" value="signIn" className={linkButton}>
                  {t("requestPage.signIn")}
                </button>
              </p>
            ) : null}
          </div>
        </details>
      ) : null}
      <h2>{t("requestPage.details")}</h2>
      <dl className={styles.details}>
        <dt>{t("requestPage.reference")}</dt>
        <dd>{request.reference}</dd>
        {request.description ? (
          <>
            <dt>{t("requestPage.description")}</dt>
            <dd>{request.description}</dd>
          </>
        ) : null}
        <dt>{t("requestPage.owing")}</dt>
        <dd>
          <strong>{request.owing}</strong>
        </dd>
        {request.dueDate ? (
          <>
            <dt>{t("requestPage.due")}</dt>
            <dd>{request.dueDate}</dd>
          </>
        ) : null}
        <dt>{t("requestPage.expires")}</dt>
        <dd>{request.expires}</dd>
      </dl>
      {data.invoices.length > 0 ? <RequestInvoices invoices={data.invoices} /> : null}
    </>
  );
}

function RequestInvoices({ invoices }: { invoices: RequestOpenData["invoices"] }) {
  const t = useT();
  return (
    <section aria-labelledby="request-invoices">
      <h2 id="request-invoices">{t("requestPage.invoices")}</h2>
      <div className={styles.scroll}>
        <StackedTable
          rows={invoices}
          rowKey={(invoice) => invoice.id}
          columns={[
            {
              label: t("requestPage.invoice"),
              kind: "title",
              cell: (invoice) => (
                <Link to={invoice.href} aria-label={t("requestPage.invoice.view", { number: invoice.number })}>
                  {invoice.number}
                </Link>
              ),
            },
            { label: t("requestPage.invoice.due"), cell: (invoice) => invoice.dueDate },
            { label: t("requestPage.invoice.asked"), kind: "amount", cell: (invoice) => invoice.asked },
            { label: t("requestPage.invoice.balance"), kind: "amount", cell: (invoice) => invoice.balance },
          ]}
        />
      </div>
    </section>
  );
}

export type RequestInvoiceData = {
  kind: "invoice";
  businessName: string;
  reference: string;
  account: { name: string; number: string };
  invoice: InvoiceFacts;
  backHref: string;
  /** The invoice as a PDF under the same link. */
  pdfHref: string;
};

/** One invoice of the request, to read, file as a PDF or print, and the way back to the request. */
export function RequestInvoice({ data }: { data: RequestInvoiceData }) {
  const t = useT();
  return (
    <>
      <InvoiceDetails businessName={data.businessName} account={data.account} invoice={data.invoice} />
      <InvoicePdfLink href={data.pdfHref} />
      <p>
        <Link to={data.backHref}>{t("requestPage.backToRequest", { reference: data.reference })}</Link>
      </p>
    </>
  );
}

/**
 * Paid, expired, cancelled, replaced by a newer link, withdrawn, held by payments being processed
 * or owing only on invoices that cannot be paid online: no form, whom to ask.
 */
export function RequestClosed({ data }: { data: RequestClosedData }) {
  const t = useT();
  const params = { reference: data.reference, business: data.businessName };
  return (
    <>
      <h1>{t(`requestPage.closed.${data.reason}.title`)}</h1>
      <p>{t(`requestPage.closed.${data.reason}.text`, params)}</p>
      <BusinessContact businessName={data.businessName} contact={data.contact} />
    </>
  );
}

/** "Paying by card adds 1.2% for Visa and Mastercard, 2.5% for American Express, 1.5% for other cards." */
function SurchargeLine({ surcharges }: { surcharges: SurchargeRate[] }) {
  const t = useT();
  return (
    <>
      {surchargeSentence(surcharges, {
        all: (rate) => t("requestPage.surcharge.all", { rate }),
        some: (rates) => t("requestPage.surcharge.some", { rates }),
        rate: (rate, cards) => t("requestPage.surcharge.rate", { rate, cards }),
        others: t("requestPage.surcharge.others"),
        and: t("requestPage.surcharge.and"),
      })}
    </>
  );
}
