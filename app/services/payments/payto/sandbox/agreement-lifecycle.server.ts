import { sql } from "kysely";
import { TERMINAL_AGREEMENT_STATUSES, type AgreementStatus } from "~/lib/payto-states";
import type { CreateAgreementInput, PayToEvent, ProviderAgreement, ProviderResult } from "../payto-provider.server";
import { later, type SandboxContext } from "./context.server";
import { afterApproval, AUTO_DECISION, AUTO_DECISION_MS, outcomeFor } from "./outcomes.server";
import { payerKeyFor } from "./payer-keys.server";
import { agreementRow, isSafeCents, newId, toAgreement, type AgreementRow } from "./store.server";
import { queueWebhook } from "./webhooks.server";

/**
 * An agreement's life at the sandbox provider: the business creates, reads and cancels it; time
 * moves it (the bank's own answer, expiry, a later suspension or a silent lapse); every step is
 * one guarded update with its webhook.
 */

/**
 * One step of an agreement: guarded by its status and version (two processes or two clicks
 * cannot both take it), version + 1, and the webhook queued in the same transaction unless
 * the change is silent (the lapsed payer's cancellation).
 */
export async function stepAgreement(
  ctx: SandboxContext,
  row: AgreementRow,
  to: AgreementStatus,
  reason: string,
  now: Date,
  next: { action: string; at: Date } | null,
  silent = false,
): Promise<AgreementRow | null> {
  return (await ctx.db()).transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable("sandbox_payto_agreements")
      .set({
        status: to,
        status_reason: reason,
        version: sql`version + 1`,
        updated_at: now,
        next_action: next?.action ?? null,
        next_action_at: next?.at ?? null,
        silent,
      })
      .where("id", "=", row.id)
      .where("version", "=", row.version)
      .where("status", "=", row.status)
      .returningAll()
      .executeTakeFirst();
    if (!updated) return null;
    if (!silent) {
      const event: PayToEvent = {
        id: newId("evt", now),
        type: "agreement.updated",
        createdAt: now.toISOString(),
        data: toAgreement(updated),
      };
      await queueWebhook(tx, updated.hostname, event, now);
    }
    return updated;
  });
}

export async function createAgreement(
  ctx: SandboxContext,
  input: CreateAgreementInput,
): Promise<ProviderResult<ProviderAgreement>> {
  await ctx.delay();
  const q = await ctx.db();
  const seen = await q
    .selectFrom("sandbox_payto_agreements")
    .selectAll()
    .where("idempotency_key", "=", input.idempotencyKey)
    .executeTakeFirst();
  if (seen) return { ok: true, value: toAgreement(seen) };

  const debtor = input.debtor;
  if (debtor.kind === "bban") {
    if (!/^\d{6}$/.test(debtor.bsb) || !/^\d{4,9}$/.test(debtor.accountNumber)) {
      return { ok: false, refusal: "invalid_account" };
    }
  } else {
    const value = typeof debtor.aliasValue === "string" ? debtor.aliasValue.trim() : "";
    if (value === "" || value.length > 256) return { ok: false, refusal: "invalid_payid" };
  }
  if (!isSafeCents(input.maxAmountCents)) return { ok: false, refusal: "limit_exceeded" };
  const outcome = outcomeFor(debtor);
  if (outcome === "unavailable") return { ok: false, refusal: "unavailable" };

  const now = ctx.clock();
  const decision = AUTO_DECISION[outcome];
  const inserted = await q
    .insertInto("sandbox_payto_agreements")
    .values({
      id: newId("agr_sbx", now),
      idempotency_key: input.idempotencyKey,
      merchant: input.merchant,
      hostname: input.hostname,
      status: "CREATED",
      status_reason: "Waiting for the payer",
      version: 1,
      payer: payerKeyFor(debtor),
      party_name: debtor.partyName.slice(0, 140),
      outcome,
      max_amount_cents: input.maxAmountCents,
      description: input.description.slice(0, 280),
      next_action: decision ?? "expire",
      next_action_at: decision ? later(now, AUTO_DECISION_MS) : later(now, ctx.expireMs),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .returningAll()
    .executeTakeFirst();
  // Two requests raced on one key: the other one's agreement is the agreement.
  const row =
    inserted ??
    (await q
      .selectFrom("sandbox_payto_agreements")
      .selectAll()
      .where("idempotency_key", "=", input.idempotencyKey)
      .executeTakeFirstOrThrow());
  return { ok: true, value: toAgreement(row) };
}

export async function getAgreement(ctx: SandboxContext, agreementId: string): Promise<ProviderAgreement | null> {
  await ctx.delay();
  const row = await agreementRow(ctx, agreementId);
  return row ? toAgreement(row) : null;
}

export async function findAgreement(ctx: SandboxContext, idempotencyKey: string): Promise<ProviderAgreement | null> {
  await ctx.delay();
  const row = await (
    await ctx.db()
  )
    .selectFrom("sandbox_payto_agreements")
    .selectAll()
    .where("idempotency_key", "=", idempotencyKey)
    .executeTakeFirst();
  return row ? toAgreement(row) : null;
}

export async function cancelAgreement(
  ctx: SandboxContext,
  agreementId: string,
): Promise<ProviderResult<ProviderAgreement>> {
  await ctx.delay();
  const now = ctx.clock();
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await agreementRow(ctx, agreementId);
    if (!row) return { ok: false, refusal: "invalid_account" };
    const status = row.status as AgreementStatus;
    if (TERMINAL_AGREEMENT_STATUSES.includes(status)) return { ok: true, value: toAgreement(row) };
    const updated = await stepAgreement(ctx, row, "CANCELLED", "Cancelled by the business", now, null);
    if (updated) return { ok: true, value: toAgreement(updated) };
  }
  const row = await agreementRow(ctx, agreementId);
  return row ? { ok: true, value: toAgreement(row) } : { ok: false, refusal: "invalid_account" };
}

/** The agreements' planned steps that are due: the bank's own answer, expiry, suspension, lapse. */
export async function runDueAgreements(ctx: SandboxContext, now: Date): Promise<number> {
  const due = await (
    await ctx.db()
  )
    .selectFrom("sandbox_payto_agreements")
    .selectAll()
    .where("next_action", "is not", null)
    .where("next_action_at", "<=", now)
    .orderBy("next_action_at")
    .limit(100)
    .execute();
  let moved = 0;
  for (const row of due) {
    const status = row.status as AgreementStatus;
    let done: AgreementRow | null = null;
    switch (row.next_action) {
      case "approve":
        if (status === "CREATED") {
          const next = afterApproval(row.outcome, now, ctx.suspendMs);
          done = await stepAgreement(ctx, row, "ACTIVE", "Approved by the payer", now, next);
        }
        break;
      case "decline":
        if (status === "CREATED") done = await stepAgreement(ctx, row, "DECLINED", "Declined by the payer", now, null);
        break;
      case "expire":
        if (status === "CREATED") {
          done = await stepAgreement(ctx, row, "EXPIRED", "The payer did not answer in time", now, null);
        }
        break;
      case "suspend":
        if (status === "ACTIVE") done = await stepAgreement(ctx, row, "SUSPENDED", "Suspended by the payer", now, null);
        break;
      case "lapse":
        // The payer cancels in their bank and the provider says nothing (decision 027).
        if (status === "ACTIVE") {
          done = await stepAgreement(ctx, row, "CANCELLED", "Cancelled by the payer", now, null, true);
        }
        break;
    }
    if (done) moved++;
    else {
      // The planned step no longer applies (the payer or business acted first): forget it.
      await (
        await ctx.db()
      )
        .updateTable("sandbox_payto_agreements")
        .set({ next_action: null, next_action_at: null })
        .where("id", "=", row.id)
        .where("version", "=", row.version)
        .where("next_action", "=", row.next_action)
        .execute();
    }
  }
  return moved;
}
