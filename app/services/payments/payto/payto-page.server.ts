import { formatBsb } from "~/lib/bank-account";
import { formatMoney } from "~/lib/format";
import { formatPayId } from "~/lib/payto-rules";
import type { AgreementView } from "./agreements.server";
import { listAgreements, type AgreementActor } from "./agreements.server";
import type { HostBranding } from "../../host/host.server";
import { payToConfigurationOf } from "./settings.server";

/** What an agreement is named by on the pages: the PayID as people read it, or the BSB and a masked number. */
export type AgreementLabel = { kind: "payid"; payId: string } | { kind: "bban"; bsb: string; number: string };

export function agreementLabel(agreement: AgreementView): AgreementLabel {
  if (agreement.method === "payid" && agreement.payIdType && agreement.payId) {
    return { kind: "payid", payId: formatPayId(agreement.payIdType, agreement.payId) };
  }
  return { kind: "bban", bsb: formatBsb(agreement.bsb ?? ""), number: `•••${agreement.accountNumberLast3 ?? ""}` };
}

/** The PayTo part of /payment-methods: null when the business does not offer PayTo. */
export async function payToSection(
  actor: AgreementActor,
  branding: Pick<HostBranding, "country" | "currency" | "payToSettings">,
) {
  const configuration = payToConfigurationOf(branding);
  const currency = branding.currency;
  if (!configuration.enabled) return null;
  const agreements = await listAgreements(actor);
  return {
    providerName: configuration.providerName,
    maxPerPayment: formatMoney(configuration.maxPaymentCents, { currency }),
    agreements: agreements.map((agreement) => ({
      id: agreement.id,
      status: agreement.status,
      label: agreementLabel(agreement),
    })),
  };
}

/**
 * The most one payment may take, as the set-up page words it. Formatted here, on the server:
 * a page that imported the formatter itself would ship it to the browser for one string.
 */
export function payToLimitText(configuration: { maxPaymentCents: number }, currency: string) {
  return formatMoney(configuration.maxPaymentCents, { currency });
}
