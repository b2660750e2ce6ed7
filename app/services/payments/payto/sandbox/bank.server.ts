import { sql } from "kysely";
import { canTransition, type AgreementStatus } from "~/lib/payto-states";
import type { ProviderAgreement } from "../payto-provider.server";
import { stepAgreement } from "./agreement-lifecycle.server";
import type { SandboxContext } from "./context.server";
import { afterApproval } from "./outcomes.server";
import { agreementRow, iso, toAgreement, type AgreementRow } from "./store.server";

/**
 * The payer's-bank stand-in: what the sandbox bank page shows and lets the payer do — the
 * payer's agreements, and approve, decline, suspend, resume or cancel one, each a step of
 * decision 027's transition table (the payer's rows).
 */

export type PayerAction = "approve" | "decline" | "suspend" | "resume" | "cancel";

/** An agreement as the payer's bank shows it. */
export type BankAgreement = ProviderAgreement & {
  description: string;
  hostname: string;
  partyName: string;
  payer: string;
  createdAt: string;
  /** What the payer may do with it now (the transition table, payer's steps). */
  actions: PayerAction[];
};

export type PayerActionResult =
  { ok: true; agreement: BankAgreement } | { ok: false; reason: "not_found" | "not_allowed"; message: string };

/** The payer steps the bank offers, per status (decision 027's table, the payer's rows). */
const PAYER_STEPS: Record<PayerAction, { to: AgreementStatus; reason: string }> = {
  approve: { to: "ACTIVE", reason: "Approved by the payer" },
  decline: { to: "DECLINED", reason: "Declined by the payer" },
  suspend: { to: "SUSPENDED", reason: "Suspended by the payer" },
  resume: { to: "ACTIVE", reason: "Resumed by the payer" },
  cancel: { to: "CANCELLED", reason: "Cancelled by the payer" },
};

export function payerActionsFor(status: AgreementStatus): PayerAction[] {
  return (Object.keys(PAYER_STEPS) as PayerAction[]).filter((action) => {
    const step = PAYER_STEPS[action];
    if (action === "approve" && status !== "CREATED") return false;
    if (action === "resume" && status !== "SUSPENDED") return false;
    return canTransition(status, step.to, "payer");
  });
}

function pastTense(action: PayerAction) {
  return { approve: "approved", decline: "declined", suspend: "suspended", resume: "resumed", cancel: "cancelled" }[
    action
  ];
}

function toBankAgreement(row: AgreementRow): BankAgreement {
  return {
    ...toAgreement(row),
    description: row.description,
    hostname: row.hostname,
    partyName: row.party_name,
    payer: row.payer,
    createdAt: iso(row.created_at),
    actions: payerActionsFor(row.status as AgreementStatus),
  };
}

export async function payerStep(
  ctx: SandboxContext,
  agreementId: string,
  action: PayerAction,
): Promise<PayerActionResult> {
  await ctx.delay();
  const now = ctx.clock();
  // Retried: a time-driven step may have moved the row between our read and our write.
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await agreementRow(ctx, agreementId);
    if (!row) return { ok: false, reason: "not_found", message: "There is no such agreement at this bank." };
    const status = row.status as AgreementStatus;
    if (!payerActionsFor(status).includes(action)) {
      return {
        ok: false,
        reason: "not_allowed",
        message: `This agreement is ${status.toLowerCase()}: it cannot be ${pastTense(action)} now.`,
      };
    }
    const target = PAYER_STEPS[action];
    // Only the first approval starts the outcome's later step (a resumed suspend@ stays resumed).
    const next = action === "approve" ? afterApproval(row.outcome, now, ctx.suspendMs) : null;
    const updated = await stepAgreement(ctx, row, target.to, target.reason, now, next);
    if (updated) return { ok: true, agreement: toBankAgreement(updated) };
  }
  return { ok: false, reason: "not_allowed", message: "The agreement changed meanwhile: look at it again." };
}

/** The payer's agreements (one payer key or several candidates), pending first, then newest first. */
export async function listForPayer(
  ctx: SandboxContext,
  payerKey: string | readonly string[],
): Promise<BankAgreement[]> {
  await ctx.delay();
  const keys = typeof payerKey === "string" ? [payerKey] : [...payerKey];
  if (keys.length === 0) return [];
  const rows = await (
    await ctx.db()
  )
    .selectFrom("sandbox_payto_agreements")
    .selectAll()
    .where("payer", "in", keys)
    .orderBy(sql`CASE WHEN status = 'CREATED' THEN 0 ELSE 1 END`)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(200)
    .execute();
  return rows.map(toBankAgreement);
}

export async function findAgreementForBank(ctx: SandboxContext, agreementId: string): Promise<BankAgreement | null> {
  await ctx.delay();
  if (agreementId.length > 100) return null;
  const row = await agreementRow(ctx, agreementId);
  return row ? toBankAgreement(row) : null;
}
