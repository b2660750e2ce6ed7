import { auPostcodeInState, isAuState, type AuState } from "./au-postcodes";
import type { MessageKey } from "./i18n";

/**
 * Response requests (issue 17; decision 040), the rules every side shares: the kinds and their
 * answers, a request's state, an Australian or New Zealand address, and what a line or a note of
 * text may hold. Pure and free of zod, so the page's components may read the constants without
 * shipping a schema library to the browser; the services build their zod schemas on these.
 */
export const RESPONSE_KINDS = ["delivery-address", "statement", "dispute"] as const;
export type ResponseKind = (typeof RESPONSE_KINDS)[number];

/** A request's reference: `RR-` and 6–12 capitals or digits (migration 0017's check). */
export const RESPONSE_REFERENCE = /^RR-[0-9A-Z]{6,12}$/;

/**
 * A request as read: stored `open`, `answered` or `withdrawn`; an open request past its expiry
 * reads `expired` (never stored so, as payment requests and agreement offers), and can then be
 * neither answered nor sent again.
 */
export const RESPONSE_STATES = ["open", "answered", "withdrawn", "expired"] as const;
export type ResponseState = (typeof RESPONSE_STATES)[number];
export type StoredResponseStatus = "open" | "answered" | "withdrawn";

export function responseState(
  request: { status: StoredResponseStatus; expiresAt: Date | string },
  now: Date,
): ResponseState {
  if (request.status !== "open") return request.status;
  return new Date(request.expiresAt).getTime() <= now.getTime() ? "expired" : "open";
}

/** The two answers of each kind: the first agrees with what the business stated, the second does not. */
export const KIND_CHOICES = {
  "delivery-address": ["confirmed", "corrected"],
  statement: ["acknowledged", "disputed"],
  dispute: ["accepted", "rejected"],
} as const satisfies Record<ResponseKind, readonly [string, string]>;

export type ResponseChoice = (typeof KIND_CHOICES)[ResponseKind][number];

export const isChoiceOf = (kind: ResponseKind, value: unknown): value is ResponseChoice =>
  (KIND_CHOICES[kind] as readonly string[]).includes(value as string);

/**
 * Whether the answer is signed with a typed name: a statement about money is (acknowledging a
 * balance, accepting or rejecting a resolution), as an agreement's decision is; confirming where
 * goods are delivered is not.
 */
export const NAME_REQUIRED: Record<ResponseKind, boolean> = {
  "delivery-address": false,
  statement: true,
  dispute: true,
};

// ---------------------------------------------------------------------------------------------
// Text

export const LINE_MAX = 100;
export const LOCALITY_MAX = 60;
export const NOTE_MAX = 2000;
export const MESSAGE_MAX = 1000;
export const TYPED_NAME_MAX = 200;

/** Each field's limit in characters, for its input's maxLength and its "too long" message. */
export const FIELD_MAX = {
  line1: LINE_MAX,
  line2: LINE_MAX,
  locality: LOCALITY_MAX,
  note: NOTE_MAX,
  reason: NOTE_MAX,
  typedName: TYPED_NAME_MAX,
  message: MESSAGE_MAX,
} as const;

/**
 * What no single line a person types may hold: control characters, line and paragraph
 * separators, unpaired surrogates, and the bidirectional controls that make text read
 * differently from what it holds. Markup, quotes and SQL are text: kept as typed, shown escaped.
 */
const FORBIDDEN_IN_LINE = /[\p{Cc}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** A note may have lines (line feeds) and tabs; nothing else of the above. */
const FORBIDDEN_IN_NOTE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Zl}\p{Zp}\u061c\u202a-\u202e\u2066-\u2069]/u;

const hasUnpairedSurrogate = (value: string) =>
  /[\ud800-\udfff]/.test(value.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""));

/** Characters as PostgreSQL's length() counts them (code points). */
export const codePoints = (value: string) => [...value].length;

export type TextResult = { ok: true; value: string } | { ok: false; error: MessageKey };

/** One line of text: trimmed, NFC-normalised, at most `max` characters; "" when optional and empty. */
export function readLine(raw: unknown, max: number, options: { required: boolean }): TextResult {
  const value = typeof raw === "string" ? raw.normalize("NFC").trim() : "";
  if (typeof raw === "string" && hasUnpairedSurrogate(raw)) return { ok: false, error: "response.error.characters" };
  if (value === "") return options.required ? { ok: false, error: "response.error.required" } : { ok: true, value };
  if (codePoints(value) > max) return { ok: false, error: "response.error.tooLong" };
  if (FORBIDDEN_IN_LINE.test(value)) return { ok: false, error: "response.error.characters" };
  return { ok: true, value };
}

/** A note of several lines: line endings made "\n", trimmed, at most `max` characters. */
export function readNote(raw: unknown, max: number, options: { required: boolean }): TextResult {
  const value = typeof raw === "string" ? raw.replace(/\r\n?/g, "\n").normalize("NFC").trim() : "";
  if (typeof raw === "string" && hasUnpairedSurrogate(raw)) return { ok: false, error: "response.error.characters" };
  if (value === "") return options.required ? { ok: false, error: "response.error.required" } : { ok: true, value };
  if (codePoints(value) > max) return { ok: false, error: "response.error.tooLong" };
  if (FORBIDDEN_IN_NOTE.test(value)) return { ok: false, error: "response.error.characters" };
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------------
// Addresses (Australia and New Zealand)

export const ADDRESS_COUNTRIES = ["AU", "NZ"] as const;
export type AddressCountry = (typeof ADDRESS_COUNTRIES)[number];

/**
 * A delivery address as Australia Post and NZ Post write one: a street line (and an optional
 * second line: a unit, a building, or a New Zealand suburb), the suburb (AU) or town or city
 * (NZ), the state (AU only: New Zealand addresses name none) and a four-digit postcode.
 */
export type Address = {
  line1: string;
  line2: string;
  locality: string;
  state: AuState | "";
  postcode: string;
  country: AddressCountry;
};

export const ADDRESS_FIELDS = ["line1", "line2", "locality", "state", "postcode", "country"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export type AddressResult =
  { ok: true; value: Address } | { ok: false; errors: Partial<Record<AddressField, MessageKey>> };

/**
 * Reads an address from loose input (a form's strings, or an API body's values): each line
 * trimmed and checked, the country AU or NZ, an Australian state and a postcode in its range, a
 * New Zealand postcode of four digits (any state given for New Zealand is dropped: there is none).
 */
export function readAddress(input: Partial<Record<AddressField, unknown>>): AddressResult {
  const errors: Partial<Record<AddressField, MessageKey>> = {};
  const line1 = readLine(input.line1, LINE_MAX, { required: true });
  if (!line1.ok)
    errors.line1 = line1.error === "response.error.required" ? "response.error.line1.required" : line1.error;
  const line2 = readLine(input.line2, LINE_MAX, { required: false });
  if (!line2.ok) errors.line2 = line2.error;
  const locality = readLine(input.locality, LOCALITY_MAX, { required: true });
  const countryRaw = typeof input.country === "string" ? input.country.trim().toUpperCase() : "";
  const country = (ADDRESS_COUNTRIES as readonly string[]).includes(countryRaw) ? (countryRaw as AddressCountry) : null;
  if (!country) errors.country = "response.error.country";
  if (!locality.ok) {
    errors.locality =
      locality.error === "response.error.required"
        ? country === "NZ"
          ? "response.error.town.required"
          : "response.error.suburb.required"
        : locality.error;
  }
  const stateRaw = typeof input.state === "string" ? input.state.trim().toUpperCase() : "";
  let state: AuState | "" = "";
  if (country === "AU") {
    if (isAuState(stateRaw)) state = stateRaw;
    else errors.state = stateRaw === "" ? "response.error.state.required" : "response.error.state";
  }
  const postcode = typeof input.postcode === "string" ? input.postcode.trim() : "";
  if (postcode === "") errors.postcode = "response.error.postcode.required";
  else if (!/^\d{4}$/.test(postcode)) errors.postcode = "response.error.postcode";
  else if (country === "AU" && state && !auPostcodeInState(postcode, state))
    errors.postcode = "response.error.postcode.state";
  if (Object.keys(errors).length || !line1.ok || !line2.ok || !locality.ok || !country) return { ok: false, errors };
  return {
    ok: true,
    value: { line1: line1.value, line2: line2.value, locality: locality.value, state, postcode, country },
  };
}

/** The same address, whatever the case or spacing it was typed in. */
export function sameAddress(a: Address, b: Address): boolean {
  const fold = (value: string) => value.toLocaleLowerCase("en-AU").replace(/\s+/g, " ").trim();
  return ADDRESS_FIELDS.every((field) => fold(a[field]) === fold(b[field]));
}

/** An address as it is written on an envelope, one line each. */
export function addressLines(address: Address): string[] {
  const last =
    address.country === "AU"
      ? `${address.locality.toLocaleUpperCase("en-AU")} ${address.state} ${address.postcode}`
      : `${address.locality} ${address.postcode}`;
  return [
    address.line1,
    ...(address.line2 ? [address.line2] : []),
    last,
    address.country === "AU" ? "Australia" : "New Zealand",
  ];
}

// ---------------------------------------------------------------------------------------------
// What each kind asks (as stored in response_requests.details) and what an answer holds

export type StatementFacts = { periodStart: string | null; periodEnd: string; closingBalanceCents: number };

export type DisputeResolution =
  { type: "credit"; amountCents: number; note: string } | { type: "position"; text: string };

/** A dispute's invoice as it was when the business asked: the question never changes. */
export type DisputeFacts = {
  invoice: { number: string; issueDate: string; dueDate: string; amountCents: number; disputeReason: string | null };
  resolution: DisputeResolution;
};

export type RequestDetails =
  | { kind: "delivery-address"; address: Address }
  | { kind: "statement"; statement: StatementFacts }
  | { kind: "dispute"; dispute: DisputeFacts };

export type AnswerDetails = { address?: Address; note?: string; reason?: string };
