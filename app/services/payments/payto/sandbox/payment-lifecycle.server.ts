import { sql } from "kysely";
import type { PayToPaymentFailure } from "~/lib/payto-states";
import {
  PayToTimeoutError,
  type InitiatePaymentInput,
  type PayToEvent,
  type ProviderPayment,
  type ProviderResult,
} from "../payto-provider.server";
import { later, type SandboxContext } from "./context.server";
import { agreementRow, isSafeCents, newId, toPayment } from "./store.server";
import { queueWebhook } from "./webhooks.server";

/**
 * A payment's life at the sandbox provider: the business initiates it under an active agreement
 * (once per key), and it settles or fails by itself when its time comes — failing when the
 * agreement is no longer active or the payer's account (nofunds@) has no funds.
 */

async function paymentByKey(ctx: SandboxContext, idempotencyKey: string): Promise<ProviderPayment | null> {
  const row = await (
    await ctx.db()
  )
    .selectFrom("sandbox_payto_payments")
    .innerJoin("sandbox_payto_agreements", "sandbox_payto_agreements.id", "sandbox_payto_payments.agreement_id")
    .selectAll("sandbox_payto_payments")
    .select("sandbox_payto_agreements.merchant")
    .where("sandbox_payto_payments.idempotency_key", "=", idempotencyKey)
    .executeTakeFirst();
  return row ? toPayment(row, row.merchant) : null;
}

export async function initiatePayment(
  ctx: SandboxContext,
  input: InitiatePaymentInput,
): Promise<ProviderResult<ProviderPayment>> {
  await ctx.delay();
  const seen = await paymentByKey(ctx, input.idempotencyKey);
  if (seen) return { ok: true, value: seen };
  const agreement = await agreementRow(ctx, input.agreementId);
  if (!agreement) return { ok: false, refusal: "invalid_account" };
  if (agreement.status !== "ACTIVE") return { ok: false, refusal: "agreement_not_active" };
  if (!isSafeCents(input.amountCents) || input.amountCents > Number(agreement.max_amount_cents)) {
    return { ok: false, refusal: "limit_exceeded" };
  }
  const now = ctx.clock();
  await (
    await ctx.db()
  )
    .insertInto("sandbox_payto_payments")
    .values({
      id: newId("pay_sbx", now),
      idempotency_key: input.idempotencyKey,
      agreement_id: agreement.id,
      amount_cents: input.amountCents,
      currency: input.currency.slice(0, 3),
      status: "CREATED",
      version: 1,
      settle_at: later(now, ctx.settleMs),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .execute();
  // Whoever won a race on the key, its payment is the payment.
  const payment = (await paymentByKey(ctx, input.idempotencyKey))!;
  if (agreement.outcome === "slow") throw new PayToTimeoutError();
  return { ok: true, value: payment };
}

export async function getPayment(ctx: SandboxContext, idempotencyKey: string): Promise<ProviderPayment | null> {
  await ctx.delay();
  return paymentByKey(ctx, idempotencyKey);
}

/** The payments whose settlement time has come: settled, or failed with the reason. */
export async function runDuePayments(ctx: SandboxContext, now: Date): Promise<number> {
  const due = await (
    await ctx.db()
  )
    .selectFrom("sandbox_payto_payments")
    .innerJoin("sandbox_payto_agreements", "sandbox_payto_agreements.id", "sandbox_payto_payments.agreement_id")
    .selectAll("sandbox_payto_payments")
    .select([
      "sandbox_payto_agreements.merchant",
      "sandbox_payto_agreements.hostname",
      "sandbox_payto_agreements.outcome",
      "sandbox_payto_agreements.status as agreement_status",
    ])
    .where("sandbox_payto_payments.status", "=", "CREATED")
    .where("sandbox_payto_payments.settle_at", "<=", now)
    .orderBy("sandbox_payto_payments.settle_at")
    .limit(100)
    .execute();
  let settled = 0;
  for (const payment of due) {
    const failure: PayToPaymentFailure | null =
      payment.agreement_status !== "ACTIVE"
        ? "agreement_not_active"
        : payment.outcome === "nofunds"
          ? "insufficient_funds"
          : null;
    const done = await (await ctx.db()).transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable("sandbox_payto_payments")
        .set({
          status: failure ? "FAILED" : "SETTLED",
          failure_reason: failure,
          version: sql`version + 1`,
          updated_at: now,
          settle_at: null,
        })
        .where("id", "=", payment.id)
        .where("status", "=", "CREATED")
        .where("version", "=", payment.version)
        .returningAll()
        .executeTakeFirst();
      if (!updated) return false;
      const event: PayToEvent = {
        id: newId("evt", now),
        type: "payment.updated",
        createdAt: now.toISOString(),
        data: toPayment(updated, payment.merchant),
      };
      await queueWebhook(tx, payment.hostname, event, now);
      return true;
    });
    if (done) settled++;
  }
  return settled;
}
