import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Field } from "~/components/Form";
import { InvoiceDetails, InvoicePdfLink } from "~/components/InvoiceDetails";
import { PayForm } from "~/components/PayForm/PayForm";
import { BusinessContact } from "~/components/BusinessContact";
import { PayIdPanel } from "~/components/PayIdPanel";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { breakdownView, decimal, payFormShouldRevalidate } from "~/lib/pay-form";
import {
  invoiceLinkContext,
  pageDates,
  businessToday,
  LINK_PAGE_HEADERS,
  recordLinkOpened,
  rememberLinkInBrowser,
  businessContact,
  gatewayContextFrom,
  invoiceFacts,
  confirmOrPay,
  heldChoice,
  finishPayment,
  priorAnswer,
  readyToPay,
  resolvePayMethod,
  startPayReply,
  typedAmount,
  previewPayment,
  submitPayment,
  getAccountPayId,
  payToConfigurationOf,
  readForm,
  requestOrigin,
  requireSameOrigin,
} from "./invoices-and-payments.server";
import type { HydrateHandle } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";

/**
 * One invoice by its own emailed link (spec §2 public `/customer/invoices-and-payments/
 * [...slug]`; issue 14; decision 031): view, print and pay it — all of it or part, as the
 * invoices pay page allows — with a new card (no saving) or by transfer to the account's PayID.
 * No session: the token stands in for one, for exactly this invoice; the link's contact is the
 * payer of record. A paid or closed invoice says so; an expired, replaced or withdrawn link says
 * only that, the invoice's number and whom to ask — nothing of the invoice or its account; any
 * token that does not check out gets one "This link isn't valid" 404.
 * The signed-in pages of this folder (`invoices`, `invoice/<id>`, `pay`) are routes of their
 * own and match first; a 59-character token never collides with their names.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, link, linked, actor, closedLink, live } = await invoiceLinkContext(request, params.token);
  await recordLinkOpened(branding.businessId, link.id);
  if (!live) {
    // Expired, replaced or withdrawn: the reason, the invoice's number and whom to ask. No
    // account, no amounts.
    return {
      kind: "link-closed" as const,
      reason: closedLink,
      number: linked.number,
      businessName: branding.businessName,
      contact: await businessContact(branding.businessId),
    };
  }
  const { invoice, open } = live;
  const base = {
    businessName: branding.businessName,
    account: { name: linked.accountName, number: linked.accountNumber, address: linked.accountAddress },
    invoice: invoiceFacts(branding, invoice, await pageDates(request, branding)),
    /** The invoice as a PDF under the same link (issue 34). */
    pdfHref: `/customer/invoices-and-payments/${params.token}/pdf`,
  };
  if (!open) {
    return {
      ...base,
      kind: "closed" as const,
      reason: invoice.balanceCents === 0 ? ("paid" as const) : ("other" as const),
      contact: await businessContact(branding.businessId),
    };
  }
  const config = payToConfigurationOf(branding);
  const [breakdown, payId] = await Promise.all([
    previewPayment(
      actor,
      [open],
      { [open.id]: open.availableCents },
      { kind: "payto" },
      businessToday(branding.timeZone),
      branding.feeRules,
    ),
    config.enabled
      ? getAccountPayId({
          businessId: branding.businessId,
          hostname: branding.hostname,
          accountId: linked.accountId,
          accountNumber: linked.accountNumber,
        })
      : null,
  ]);
  return {
    ...base,
    kind: "open" as const,
    requestGuid: randomUUID(),
    invoiceId: open.id,
    available: decimal(open.availableCents),
    balance: base.invoice.balance,
    breakdown: breakdownView(breakdown, branding.currency),
    payId: payId && (payId.status === "ready" || payId.status === "unavailable") ? payId : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, link, live, actor, closedLink } = await invoiceLinkContext(request, params.token);
  const open = live?.open ?? null;
  const form = await readForm(request);
  const { intent, text, reply } = startPayReply(form);
  // A withdrawn link answers nothing, not even a repeat's receipt.
  if (closedLink === "withdrawn") {
    reply.message = "pay.error.nothing";
    return data(reply, { status: 409, headers: LINK_PAGE_HEADERS });
  }
  if (!intent) return data(reply, { status: 400, headers: LINK_PAGE_HEADERS });
  const paid = async (reference: string) =>
    redirect(`/payment/complete/${encodeURIComponent(reference)}`, {
      headers: { ...LINK_PAGE_HEADERS, "Set-Cookie": await rememberLinkInBrowser(request, link, params.token) },
    });
  if (intent === "pay") {
    const prior = await priorAnswer(actor, text("requestGuid", 40), reply);
    if (prior && "reference" in prior) return paid(prior.reference);
    if (prior) return data(reply, { status: prior.status });
  }
  if (!open) {
    reply.message = "pay.error.nothing";
    return data(reply, { status: 409 });
  }
  const field = `amount-${open.id}`;
  const cents = typedAmount(reply, field, text(field, 40), open.availableCents);
  const today = businessToday(branding.timeZone);
  const holder = { businessId: actor.businessId, accountId: actor.accountId, contactId: actor.contactId };
  const held = await heldChoice(request, reply, holder, text("requestGuid", 40));
  const { payMethod, feeMethod } = resolvePayMethod(form, intent, reply, {
    cards: [],
    agreements: [],
    promise: false,
    mayManagePaymentMethods: false,
    today,
    actor,
    held,
  });
  if (cents !== null) {
    reply.breakdown = breakdownView(
      await previewPayment(actor, [open], { [open.id]: cents }, feeMethod, today, branding.feeRules),
      branding.currency,
    );
  }
  const ready = readyToPay(intent, reply, payMethod);
  if (ready !== true || !payMethod || cents === null) return data(reply, { status: ready === true ? 400 : ready });
  const gateway = gatewayContextFrom(request, actor.clientIp, requestOrigin(request));
  // The total or the action differs from what the button showed: confirm, never refuse (decision 071).
  const step = await confirmOrPay(request, form, reply, payMethod, {
    holder,
    context: gateway,
    feeMethod,
    feeRules: branding.feeRules,
    currency: branding.currency,
    timeZone: branding.timeZone,
    held: held?.card,
  });
  if (!step.pay) return data(reply, { status: step.status, headers: { ...LINK_PAGE_HEADERS, ...step.headers } });
  const outcome = await submitPayment(
    actor,
    {
      requestGuid: text("requestGuid", 40),
      selection: [{ invoiceId: open.id, amountCents: cents }],
      linkTokenId: link.id,
      method: step.payMethod,
      note: "",
      currency: branding.currency,
      today,
      expectedAmountCents: step.expectedAmountCents,
    },
    gateway,
  );
  const done = await finishPayment(outcome, { branding, payMethod, reply });
  if ("reference" in done) return paid(done.reference);
  return data(reply, { status: done.status });
}

export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** A quote changes nothing the loader reads. */
export const shouldRevalidate = payFormShouldRevalidate;

/** A paid or closed invoice, or a closed link, only shows: no script (decision 049). */
export const handle: HydrateHandle = {
  hydrate: (data) => (data as { kind?: string } | undefined)?.kind === "open",
};

export default function InvoiceLink() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  const t = useT();
  if (data.kind === "link-closed") {
    const params = { number: data.number, business: data.businessName };
    return (
      <>
        <h1>{t(`invoiceLink.${data.reason}.title`)}</h1>
        <p>{t(`invoiceLink.${data.reason}.text`, params)}</p>
        <BusinessContact businessName={data.businessName} contact={data.contact} />
      </>
    );
  }
  const details = <InvoiceDetails businessName={data.businessName} account={data.account} invoice={data.invoice} />;
  if (data.kind === "closed") {
    const params = { number: data.invoice.number, business: data.businessName };
    return (
      <>
        {details}
        <h2>{t("invoiceLink.closed.title")}</h2>
        <p>{data.reason === "paid" ? t("invoiceLink.closed.paid", params) : t("invoiceLink.closed.other", params)}</p>
        <BusinessContact businessName={data.businessName} contact={data.contact} />
        <InvoicePdfLink href={data.pdfHref} />
      </>
    );
  }
  const field = `amount-${data.invoiceId}`;
  return (
    <>
      {details}
      <h2>{t("invoiceLink.pay")}</h2>
      <PayForm
        requestGuid={data.requestGuid}
        reply={reply}
        breakdown={data.breakdown}
        defaultMethod={{ kind: "new" }}
        methods={{
          cards: [],
          agreements: [],
          payTo: { enabled: false, providerName: "", setUp: null },
          promise: false,
          saveCard: false,
        }}
        businessName={data.businessName}
        note={false}
        payIdOffered={data.payId?.status === "ready"}
        lead={(breakdown) => (
          <>
            {t("pay.covers.one", { number: data.invoice.number })}
            {breakdown ? (
              <>
                {" · "}
                {t("pay.totalToPay")} <strong>{breakdown.total}</strong>
              </>
            ) : null}
          </>
        )}
        amountFields={({ error }) => (
          <Field
            id={field}
            name={field}
            label={t("invoiceLink.amount")}
            hint={t("invoiceLink.amount.hint", { balance: data.balance })}
            defaultValue={reply?.amounts[field] ?? data.available}
            inputMode="decimal"
            autoComplete="off"
            error={error(field)}
          />
        )}
        afterMethods={data.payId ? <PayIdPanel data={data.payId} invoiceNumber={data.invoice.number} /> : null}
      />
      <InvoicePdfLink href={data.pdfHref} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("link.invalid.title") }, metaDescription(matches, "meta.linkInvalid")];
  if (data.kind === "link-closed")
    return [
      { title: `${t(`invoiceLink.${data.reason}.title`)} · ${data.businessName}` },
      metaDescription(matches, "meta.invoiceLinkClosed", data.businessName),
    ];
  return [
    { title: `${t("invoice.title", { number: data.invoice.number })} · ${data.businessName}` },
    metaDescription(matches, "meta.invoiceLink", data.businessName),
  ];
};
