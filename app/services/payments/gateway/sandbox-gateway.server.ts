import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { cardDigits, cvnLengthFor, detectBrand, isExpired, passesLuhn } from "~/lib/card";
import type { Db } from "../../platform/db.server";
import {
  GatewayTimeoutError,
  type CardGateway,
  type ChargeInput,
  type GatewayCharge,
  type GatewayRefusal,
  type GatewayResult,
  type TokeniseInput,
  type TokenisedCard,
  type UpdateTokenInput,
} from "./card-gateway.server";

/**
 * A card gateway that behaves like the real ones, for development, demos and tests: it
 * checks the number (Luhn, brand, length), the expiry and the CVN's length, answers after a
 * small delay, keeps its own vault and charge records (its own tables, as a real gateway
 * keeps its own storage), and lets test card numbers choose the outcome, like the test
 * cards real gateways publish. It never stores a card number or CVN either.
 */
export type SandboxOutcome =
  | "approve"
  | "decline"
  | "insufficient_funds"
  | "expired_card"
  | "cvn_mismatch"
  | "timeout_after_capture"
  | "unavailable";

/** The sandbox's test cards (README lists them). Every other valid number is approved. */
export const SANDBOX_TEST_CARDS: Record<string, SandboxOutcome> = {
  "4000000000000002": "decline",
  "4000000000009995": "insufficient_funds",
  "4000000000000069": "expired_card",
  "4000000000000127": "cvn_mismatch",
  "4000000000000119": "timeout_after_capture",
  "4000000000000408": "unavailable",
};

/**
 * When each outcome shows. Saving a card is a zero-value verification, as real gateways
 * do it: it fails for a declined, expired or CVN-mismatched card and when the gateway is
 * down. Funds and captures are only touched by a charge.
 */
const REFUSED_AT_VERIFICATION: Partial<Record<SandboxOutcome, GatewayRefusal>> = {
  decline: "declined",
  expired_card: "expired_card",
  cvn_mismatch: "cvn_mismatch",
  unavailable: "unavailable",
};

const REFUSED_AT_CHARGE: Partial<Record<SandboxOutcome, GatewayRefusal>> = {
  decline: "declined",
  insufficient_funds: "insufficient_funds",
  expired_card: "expired_card",
};

// date-rule: the card network's date for card expiry, not a record's date (decision 078)
// eslint-disable-next-line no-restricted-syntax -- the sandbox stands in for the card network, which judges expiry on its own (real) date, not the portal's test clock
const today = () => new Date().toISOString().slice(0, 10);
const newId = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url")}`;

export function createSandboxGateway(options: { db: () => Promise<Db>; delayMs?: number }): CardGateway {
  const delay = () => new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));

  async function tokenise(input: TokeniseInput): Promise<GatewayResult<TokenisedCard>> {
    await delay();
    const digits = cardDigits(input.cardNumber);
    const brand = digits ? detectBrand(digits) : null;
    if (!digits || !brand || !passesLuhn(digits)) return { ok: false, refusal: "invalid_card" };
    if (!new RegExp(`^\\d{${cvnLengthFor(brand)}}$`).test(input.cvn)) return { ok: false, refusal: "cvn_mismatch" };
    if (isExpired(input.expiryMonth, input.expiryYear, today())) return { ok: false, refusal: "expired_card" };
    const outcome = (Object.hasOwn(SANDBOX_TEST_CARDS, digits) ? SANDBOX_TEST_CARDS[digits] : undefined) ?? "approve";
    const refusal = REFUSED_AT_VERIFICATION[outcome];
    if (refusal) return { ok: false, refusal };
    const token = newId("tok_sbx");
    const db = await options.db();
    await db
      .insertInto("sandbox_gateway_tokens")
      .values({
        token,
        brand,
        last4: digits.slice(-4),
        expiry_month: input.expiryMonth,
        expiry_year: input.expiryYear,
        outcome,
        origin: input.origin.slice(0, 200),
        client_ip: input.clientIp.slice(0, 64),
        extra_data: JSON.stringify(input.extraData),
      })
      .execute();
    return { ok: true, value: { token, brand, firstDigit: digits[0]!, last4: digits.slice(-4) } };
  }

  async function updateToken(input: UpdateTokenInput): Promise<GatewayResult<{ token: string }>> {
    await delay();
    const db = await options.db();
    const stored = await db
      .selectFrom("sandbox_gateway_tokens")
      .selectAll()
      .where("token", "=", input.token)
      .executeTakeFirst();
    if (!stored) return { ok: false, refusal: "invalid_card" };
    if (input.cvn !== undefined && !/^\d{3,4}$/.test(input.cvn)) return { ok: false, refusal: "cvn_mismatch" };
    if (isExpired(input.expiryMonth, input.expiryYear, today())) return { ok: false, refusal: "expired_card" };
    const refusal = REFUSED_AT_VERIFICATION[stored.outcome as SandboxOutcome];
    if (refusal) return { ok: false, refusal };
    await db
      .updateTable("sandbox_gateway_tokens")
      .set({ expiry_month: input.expiryMonth, expiry_year: input.expiryYear })
      .where("token", "=", input.token)
      .execute();
    return { ok: true, value: { token: input.token } };
  }

  async function removeToken(token: string): Promise<boolean> {
    await delay();
    const db = await options.db();
    const removed = await db
      .deleteFrom("sandbox_gateway_tokens")
      .where("token", "=", token)
      .returning("token")
      .executeTakeFirst();
    return Boolean(removed);
  }

  async function findCharge(idempotencyKey: string): Promise<GatewayCharge | null> {
    const db = await options.db();
    const row = await db
      .selectFrom("sandbox_gateway_charges")
      .selectAll()
      .where("idempotency_key", "=", idempotencyKey)
      .executeTakeFirst();
    return row ? toCharge(row) : null;
  }

  async function charge(input: ChargeInput): Promise<GatewayResult<GatewayCharge>> {
    await delay();
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) return { ok: false, refusal: "declined" };
    const db = await options.db();
    // A repeat of a key the gateway has seen answers with the first charge, as real gateways do.
    const seen = await findCharge(input.idempotencyKey);
    if (seen)
      return seen.status === "declined"
        ? { ok: false, refusal: seen.declineCode ?? "declined" }
        : { ok: true, value: seen };
    const stored = await db
      .selectFrom("sandbox_gateway_tokens")
      .selectAll()
      .where("token", "=", input.token)
      .executeTakeFirst();
    if (!stored) return { ok: false, refusal: "invalid_card" };
    const outcome = stored.outcome as SandboxOutcome;
    if (outcome === "unavailable") throw new GatewayTimeoutError("The card gateway is unavailable");
    const refusal = isExpired(stored.expiry_month, stored.expiry_year, today())
      ? "expired_card"
      : REFUSED_AT_CHARGE[outcome];
    const inserted = await db
      .insertInto("sandbox_gateway_charges")
      .values({
        id: newId("ch_sbx"),
        idempotency_key: input.idempotencyKey,
        token: input.token,
        amount_cents: input.amountCents,
        currency: input.currency,
        status: refusal ? "declined" : "captured",
        decline_code: refusal ?? null,
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .returningAll()
      .executeTakeFirst();
    // Two requests raced on one key: the other one's charge is the charge.
    const row = inserted ? toCharge(inserted) : (await findCharge(input.idempotencyKey))!;
    if (outcome === "timeout_after_capture") throw new GatewayTimeoutError();
    return row.status === "declined" ? { ok: false, refusal: row.declineCode ?? "declined" } : { ok: true, value: row };
  }

  async function refund(input: { chargeId: string; amountCents: number }): Promise<GatewayResult<GatewayCharge>> {
    await delay();
    const db = await options.db();
    const row = await db
      .updateTable("sandbox_gateway_charges")
      .set({
        refunded_cents: sql`refunded_cents + ${input.amountCents}`,
        status: sql`CASE WHEN refunded_cents + ${input.amountCents} = amount_cents THEN 'refunded' ELSE status END`,
      })
      .where("id", "=", input.chargeId)
      .where("status", "=", "captured")
      .where(sql<boolean>`refunded_cents + ${input.amountCents} <= amount_cents`)
      .where(sql<boolean>`${input.amountCents} > 0`)
      .returningAll()
      .executeTakeFirst();
    return row ? { ok: true, value: toCharge(row) } : { ok: false, refusal: "declined" };
  }

  return { name: "sandbox", tokenise, updateToken, removeToken, charge, refund, findCharge };
}

function toCharge(row: {
  id: string;
  idempotency_key: string;
  status: "captured" | "declined" | "refunded";
  amount_cents: number;
  refunded_cents: number;
  decline_code: string | null;
}): GatewayCharge {
  return {
    chargeId: row.id,
    idempotencyKey: row.idempotency_key,
    status: row.status,
    amountCents: row.amount_cents,
    refundedCents: row.refunded_cents,
    declineCode: (row.decline_code as GatewayRefusal | null) ?? null,
  };
}
