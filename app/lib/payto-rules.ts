/**
 * The rules for what a payer types to set up a PayTo agreement (issue 13): PayIDs of the four
 * kinds the New Payments Platform knows (email, AU mobile, ABN, organisation id), a BSB and
 * account number, and the names on the agreement. Pure and isomorphic: the server's zod
 * schemas, the token call and the unit tests all use them. Each rule answers the normalised
 * value (what goes to the provider and into the database) or a message key.
 */
import { parseAuAccountNumber, parseBsb } from "./bank-account";
import type { MessageKey } from "./i18n";

export type RuleResult = { ok: true; value: string } | { ok: false; error: MessageKey };

const ok = (value: string): RuleResult => ({ ok: true, value });
const fail = (error: MessageKey): RuleResult => ({ ok: false, error });

/** Why a provider refuses outright (as the port names them), each with a `payto.refusal.*` message. */
export const PAYTO_REFUSALS = [
  "invalid_account",
  "invalid_payid",
  "limit_exceeded",
  "agreement_not_active",
  "unavailable",
] as const;

/** The PayID kinds (spec §3 account_alias_type_code). */
export const PAYID_TYPES = ["EMAL", "TELI", "AUBN", "ORGN"] as const;
export type PayIdType = (typeof PAYID_TYPES)[number];
export const isPayIdType = (value: unknown): value is PayIdType =>
  typeof value === "string" && (PAYID_TYPES as readonly string[]).includes(value);

/** Lengths as PostgreSQL and the NPP count them: characters (code points), not UTF-16 units. */
const length = (value: string) => [...value].length;

/** Control characters (C0, C1) and invisible format characters (bidi overrides, zero-width). */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/** ABN weights (ATO's published check): first digit minus one, weighted sum divisible by 89. */
const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/** An Australian Business Number: 11 digits (spaces as people type them) with a valid check. */
export function checkAbn(input: string): RuleResult {
  const digits = input.trim().replace(/ /g, "");
  if (digits === "") return fail("payto.error.abn.required");
  if (!/^\d{11}$/.test(digits)) return fail("payto.error.abn.format");
  let sum = 0;
  for (let i = 0; i < 11; i++) {
    const digit = Number(digits[i]) - (i === 0 ? 1 : 0);
    sum += digit * ABN_WEIGHTS[i]!;
  }
  return sum % 89 === 0 ? ok(digits) : fail("payto.error.abn.checksum");
}

/** A domain name: dot-separated labels of letters, digits and inner hyphens, a letter TLD. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** The local part: printable ASCII other than what mail addresses cannot hold unquoted. */
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;

/** An email PayID: at most 256 characters, one @, a plausible local part and domain. Lower-cased. */
export function checkEmailPayId(input: string): RuleResult {
  const value = input.trim().toLowerCase();
  if (value === "") return fail("payto.error.email.required");
  if (length(value) > 256) return fail("payto.error.email.tooLong");
  const parts = value.split("@");
  if (parts.length !== 2) return fail("payto.error.email.invalid");
  const [local, domain] = parts as [string, string];
  if (!LOCAL.test(local) || local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    return fail("payto.error.email.invalid");
  }
  if (!DOMAIN.test(domain)) return fail("payto.error.email.invalid");
  return ok(value);
}

/**
 * An Australian mobile number as a PayID: `0412 345 678`, `+61412345678`, `+61 4 1234 5678`
 * (spaces, dashes and brackets as people type them), answered in the NPP's form `+61-412345678`.
 * Only mobiles (04…): PayIDs are not registered to landlines, and +64 (New Zealand) is not AU.
 */
export function checkMobilePayId(input: string): RuleResult {
  const typed = input.trim();
  if (typed === "") return fail("payto.error.mobile.required");
  if (!/^\+?[0-9 ()-]{1,24}$/.test(typed)) return fail("payto.error.mobile.invalid");
  const compact = typed.replace(/[ ()-]/g, "");
  let national: string;
  if (compact.startsWith("+61")) national = compact.slice(3);
  else if (compact.startsWith("+")) return fail("payto.error.mobile.country");
  else if (compact.startsWith("0")) national = compact.slice(1);
  else return fail("payto.error.mobile.invalid");
  // A stray trunk zero after the country code (+61 0412…) is a common way of writing it.
  if (compact.startsWith("+610")) national = national.slice(1);
  if (!/^4\d{8}$/.test(national)) return fail("payto.error.mobile.invalid");
  return ok(`+61-${national}`);
}

/** An organisation identifier PayID: letters, digits and spaces, 1–256 characters. */
export function checkOrganisationId(input: string): RuleResult {
  const value = input.trim().replace(/ {2,}/g, " ");
  if (value === "") return fail("payto.error.orgId.required");
  if (length(value) > 256) return fail("payto.error.orgId.tooLong");
  if (!/^[A-Za-z0-9 ]+$/.test(value)) return fail("payto.error.orgId.invalid");
  return ok(value);
}

/** The PayID rule for its kind. */
export function checkPayId(type: PayIdType, input: string): RuleResult {
  switch (type) {
    case "EMAL":
      return checkEmailPayId(input);
    case "TELI":
      return checkMobilePayId(input);
    case "AUBN":
      return checkAbn(input);
    case "ORGN":
      return checkOrganisationId(input);
  }
}

/** A BSB: six digits, `123-456` and `123 456` allowed. */
export function checkBsb(input: string): RuleResult {
  if (input.trim() === "") return fail("payto.error.bsb.required");
  const bsb = parseBsb(input);
  return bsb ? ok(bsb) : fail("payto.error.bsb.invalid");
}

/** An Australian account number: 4 to 9 digits (as `bank-account.ts` has it). */
export function checkAccountNumber(input: string): RuleResult {
  if (input.trim() === "") return fail("payto.error.accountNumber.required");
  const number = parseAuAccountNumber(input);
  return number ? ok(number) : fail("payto.error.accountNumber.invalid");
}

/** Names as the bank shows them: trimmed, NFC, no control or invisible characters, no markup. */
function checkName(input: string, min: number, tooLong: MessageKey, required: MessageKey): RuleResult {
  const value = input.normalize("NFC").trim();
  if (length(value) < min) return fail(required);
  if (length(value) > 140) return fail(tooLong);
  if (INVISIBLE.test(value)) return fail("payto.error.name.control");
  // No bank account is named with angle brackets; refusing them keeps markup out of the bank's records.
  if (/[<>]/.test(value)) return fail("payto.error.name.characters");
  return ok(value);
}

/** The account holder's name (party_name): 1–140 characters after trimming. */
export const checkPartyName = (input: string) =>
  checkName(input, 1, "payto.error.partyName.tooLong", "payto.error.partyName.required");

/** Who the agreement is really for, when not the holder (ultimate_party_name): 0–140 characters. */
export const checkUltimatePartyName = (input: string) =>
  checkName(input, 0, "payto.error.ultimatePartyName.tooLong", "payto.error.ultimatePartyName.tooLong");

/**
 * The spec's account_identification for BBAN: the BSB then the account number, as one string
 * ("123-456 12345678", "123456 12345678", "12345612345678").
 */
export function checkBban(
  input: string,
): { ok: true; bsb: string; accountNumber: string } | { ok: false; error: MessageKey } {
  const typed = input.trim();
  if (typed === "") return { ok: false, error: "payto.error.bban.required" };
  if (!/^[0-9 -]{1,30}$/.test(typed)) return { ok: false, error: "payto.error.bban.invalid" };
  const digits = typed.replace(/[ -]/g, "");
  const bsb = checkBsb(digits.slice(0, 6));
  if (!bsb.ok || digits.length < 6) return { ok: false, error: "payto.error.bsb.invalid" };
  const account = checkAccountNumber(digits.slice(6));
  if (!account.ok) return { ok: false, error: account.error };
  return { ok: true, bsb: bsb.value, accountNumber: account.value };
}

/** A PayID as the page shows it: the mobile with spaces, an ABN in its 2-3-3-3 groups. */
export function formatPayId(type: PayIdType, value: string) {
  if (type === "TELI" && /^\+61-4\d{8}$/.test(value))
    return `+61 ${value.slice(4, 7)} ${value.slice(7, 10)} ${value.slice(10)}`;
  if (type === "AUBN" && /^\d{11}$/.test(value)) {
    return `${value.slice(0, 2)} ${value.slice(2, 5)} ${value.slice(5, 8)} ${value.slice(8)}`;
  }
  return value;
}
