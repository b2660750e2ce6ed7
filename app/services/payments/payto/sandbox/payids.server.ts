import type { IncomingPayment, PayToEvent, ProviderResult, RegisterPayIdInput } from "../payto-provider.server";
import type { SandboxContext } from "./context.server";
import { isSafeCents, newId } from "./store.server";
import { queueWebhook } from "./webhooks.server";

/**
 * Receivable PayIDs at the sandbox provider: a business registers one per account, and a payer
 * sends money to it from the sandbox bank page, which reaches the business as a webhook.
 */

export type SendToPayIdResult =
  | { ok: true; incoming: IncomingPayment }
  | { ok: false; reason: "unknown_payid" | "invalid_amount" | "invalid_name"; message: string };

export async function registerPayId(
  ctx: SandboxContext,
  input: RegisterPayIdInput,
): Promise<ProviderResult<{ payId: string }>> {
  await ctx.delay();
  const payId = input.payId.trim().toLowerCase();
  if (!/^[^\s@]{1,64}@[^\s@]{1,190}$/.test(payId)) return { ok: false, refusal: "invalid_payid" };
  const q = await ctx.db();
  await q
    .insertInto("sandbox_payto_payids")
    .values({
      payid: payId,
      merchant: input.merchant,
      hostname: input.hostname,
      reference: input.reference,
      name: input.name.slice(0, 140),
      created_at: ctx.clock(),
    })
    .onConflict((oc) => oc.column("payid").doNothing())
    .execute();
  const row = await q.selectFrom("sandbox_payto_payids").selectAll().where("payid", "=", payId).executeTakeFirst();
  // A PayID names one account: someone else's registration of it is refused.
  if (!row || row.merchant !== input.merchant || row.reference !== input.reference) {
    return { ok: false, refusal: "invalid_payid" };
  }
  return { ok: true, value: { payId } };
}

export async function sendToPayId(
  ctx: SandboxContext,
  input: { payId: string; amountCents: number; payerName: string },
): Promise<SendToPayIdResult> {
  await ctx.delay();
  if (!isSafeCents(input.amountCents)) {
    return { ok: false, reason: "invalid_amount", message: "Enter an amount of at least $0.01." };
  }
  const payerName = input.payerName.trim();
  if (payerName === "" || payerName.length > 140) {
    return { ok: false, reason: "invalid_name", message: "Enter the payer's name (at most 140 characters)." };
  }
  const payId = input.payId.trim().toLowerCase();
  const q = await ctx.db();
  const target =
    payId.length > 256
      ? undefined
      : await q.selectFrom("sandbox_payto_payids").selectAll().where("payid", "=", payId).executeTakeFirst();
  if (!target) {
    return { ok: false, reason: "unknown_payid", message: "No business has registered this PayID." };
  }
  const now = ctx.clock();
  const incoming: IncomingPayment = {
    transactionId: newId("txn_sbx", now),
    payId,
    reference: target.reference,
    merchant: target.merchant,
    amountCents: input.amountCents,
    payerName,
    receivedAt: now.toISOString(),
  };
  await q.transaction().execute(async (tx) => {
    await tx
      .insertInto("sandbox_payto_incoming")
      .values({
        id: incoming.transactionId,
        payid: payId,
        amount_cents: input.amountCents,
        payer_name: payerName,
        created_at: now,
      })
      .execute();
    const event: PayToEvent = {
      id: newId("evt", now),
      type: "payid.received",
      createdAt: now.toISOString(),
      data: incoming,
    };
    await queueWebhook(tx, target.hostname, event, now);
  });
  return { ok: true, incoming };
}
