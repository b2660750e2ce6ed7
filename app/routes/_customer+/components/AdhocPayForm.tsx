import type { ReactNode } from "react";
import { Field } from "~/components/Form";
import { PayForm, type PayFormMethods } from "~/components/PayForm/PayForm";
import { useT } from "~/components/useT";
import { PAYER_REFERENCE_MAX } from "~/lib/adhoc";
import type { BreakdownView, PayFormReply, PayMethodChoice } from "~/lib/pay-form";

/** What an ad-hoc page's loader hands the form (both the signed-in page and the link page). */
export type AdhocFormData = {
  businessName: string;
  account: { name: string; number: string };
  adhoc: { enabled: boolean; min: string; max: string; business: string };
  requestGuid: string;
  /** The fields' values before anything is typed: empty, or what was typed before "Set up PayTo" (decision 077). */
  amount: string;
  reference: string;
  /** The total of that amount, or null until one is typed. */
  breakdown: BreakdownView | null;
  methods: PayFormMethods;
  method: PayMethodChoice;
};

/**
 * The ad-hoc payment form (issue 14; decision 033): the shared `PayForm` with two fields of its
 * own in the amounts slot — the amount (the business's minimum and maximum as its hint) and the
 * reference the payer types, which the statement shows. No note: the reference is what the
 * payer says. The breakdown's first line is what the account is credited with.
 */
export function AdhocPayForm({
  data,
  reply,
  afterMethods,
}: {
  data: AdhocFormData;
  reply: PayFormReply | null;
  afterMethods?: ReactNode;
}) {
  const t = useT();
  // A field's message may name the limits or the business: fill them in as the hint does.
  const limits: Record<string, string> = { min: data.adhoc.min, max: data.adhoc.max, business: data.businessName };
  const fill = (text: string | null) =>
    text === null ? null : text.replace(/\{(min|max|business)\}/g, (_, name: string) => limits[name] ?? "");
  const account = `${data.account.name} (${data.account.number})`;
  return (
    <PayForm
      requestGuid={data.requestGuid}
      reply={reply}
      breakdown={data.breakdown}
      defaultMethod={data.method}
      methods={data.methods}
      businessName={data.businessName}
      note={false}
      subtotalLabel={t("adhoc.subtotal")}
      afterMethods={afterMethods}
      // The total depends on the amount typed: until it is known, "Continue" (never a disabled Pay).
      continueWithoutTotal
      lead={(breakdown) => (
        <>
          {t("adhoc.lead", { account })}
          {breakdown ? (
            <>
              {" · "}
              {t("pay.totalToPay")} <strong>{breakdown.total}</strong>
            </>
          ) : null}
        </>
      )}
      amountFields={({ error }) => (
        <>
          <Field
            id="amount"
            name="amount"
            label={t("adhoc.amount")}
            hint={t("adhoc.amount.hint", { min: data.adhoc.min, max: data.adhoc.max })}
            defaultValue={reply?.amounts.amount ?? data.amount}
            inputMode="decimal"
            autoComplete="off"
            required
            error={fill(error("amount"))}
          />
          <Field
            id="reference"
            name="reference"
            label={t("adhoc.reference")}
            hint={t("adhoc.reference.hint", { max: String(PAYER_REFERENCE_MAX) })}
            defaultValue={reply?.extra.reference ?? data.reference}
            // No maxLength: the browser counts UTF-16 units and would cut 80 emoji at 40; the
            // server counts characters (code points) as PostgreSQL does and says when it is too long.
            autoComplete="off"
            required
            error={fill(error("reference"))}
          />
        </>
      )}
    />
  );
}
