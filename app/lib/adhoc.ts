import type { MessageKey } from "./i18n";

/**
 * Ad-hoc payments (issue 14; decision 033), the rules both sides share: the reference a payer
 * types, which the statement shows beside the credit. Pure, so the field's `maxLength` and the
 * server's check are the same number.
 */
export const PAYER_REFERENCE_MAX = 80;

/**
 * Characters a reference may not hold: control characters (C0, DEL, C1 — a tab, a newline, a
 * null byte), line and paragraph separators, the bidirectional embeddings, overrides and
 * isolates that make a statement line read differently from what it holds, and unpaired
 * surrogates (not text at all). Markup, quotes, SQL and any other Unicode are fine: the value
 * is stored as text, sent as a parameter, and rendered escaped.
 */
const FORBIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export type PayerReferenceResult = { ok: true; value: string } | { ok: false; error: MessageKey };

/** The payer's reference, trimmed and NFC-normalised: 1 to 80 characters (code points, as PostgreSQL counts). */
export function readPayerReference(raw: unknown): PayerReferenceResult {
  if (typeof raw !== "string") return { ok: false, error: "adhoc.error.reference.required" };
  // Unpaired surrogates cannot be normalised or stored: refuse them before anything else.
  if (/[\ud800-\udfff]/.test(raw.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""))) {
    return { ok: false, error: "adhoc.error.reference.characters" };
  }
  const value = raw.normalize("NFC").trim();
  if (value === "") return { ok: false, error: "adhoc.error.reference.required" };
  if ([...value].length > PAYER_REFERENCE_MAX) return { ok: false, error: "adhoc.error.reference.tooLong" };
  if (FORBIDDEN.test(value)) return { ok: false, error: "adhoc.error.reference.characters" };
  return { ok: true, value };
}

/** Whether an amount lies within the business's limits; the problem's message otherwise. */
export function adhocAmountProblem(
  cents: number,
  limits: { minCents: number; maxCents: number },
): "adhoc.error.amount.belowMinimum" | "adhoc.error.amount.aboveMaximum" | null {
  if (cents < limits.minCents) return "adhoc.error.amount.belowMinimum";
  if (cents > limits.maxCents) return "adhoc.error.amount.aboveMaximum";
  return null;
}
