import { randomBytes } from "node:crypto";
import type { Selectable, Transaction } from "kysely";
import type { AgreementStatus, PayToPaymentFailure, ProviderPaymentStatus } from "~/lib/payto-states";
import type { DB, SandboxPayToAgreementsTable, SandboxPayToPaymentsTable } from "../../../platform/db-schema.server";
import type { ProviderAgreement, ProviderPayment } from "../payto-provider.server";
import type { SandboxContext } from "./context.server";

/**
 * The sandbox's records: the sandbox_payto_* tables stand in for the provider's own storage
 * (decision 027). Rows become the provider's snapshots here; ids are minted here.
 */

export type AgreementRow = Selectable<SandboxPayToAgreementsTable>;
export type PaymentRow = Selectable<SandboxPayToPaymentsTable>;
export type Tx = Transaction<DB>;

/**
 * Ids sort by creation time and, within one millisecond, by this process's sequence (webhooks
 * are sent oldest first); the random part keeps them unguessable.
 */
let sequence = 0;
export const newId = (prefix: string, now: Date) => {
  sequence = (sequence + 1) % 36 ** 4;
  const order = `${now.getTime().toString(36).padStart(9, "0")}${sequence.toString(36).padStart(4, "0")}`;
  return `${prefix}_${order}${randomBytes(12).toString("base64url")}`;
};

export const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

export const isSafeCents = (cents: number) => Number.isSafeInteger(cents) && cents > 0;

export function toAgreement(row: AgreementRow): ProviderAgreement {
  return {
    agreementId: row.id,
    idempotencyKey: row.idempotency_key,
    merchant: row.merchant,
    status: row.status as AgreementStatus,
    version: row.version,
    statusReason: row.status_reason,
    maxAmountCents: Number(row.max_amount_cents),
    updatedAt: iso(row.updated_at),
  };
}

export function toPayment(row: PaymentRow, merchant: string): ProviderPayment {
  return {
    paymentId: row.id,
    idempotencyKey: row.idempotency_key,
    merchant,
    agreementId: row.agreement_id,
    status: row.status as ProviderPaymentStatus,
    version: row.version,
    amountCents: Number(row.amount_cents),
    failureReason: (row.failure_reason as PayToPaymentFailure | null) ?? null,
    updatedAt: iso(row.updated_at),
  };
}

export async function agreementRow(ctx: SandboxContext, id: string) {
  return (await ctx.db()).selectFrom("sandbox_payto_agreements").selectAll().where("id", "=", id).executeTakeFirst();
}
