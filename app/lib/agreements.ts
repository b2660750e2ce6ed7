import type { MessageKey } from "./i18n";

/**
 * Agreements (issue 15; decisions 034 and 036), the rules every side shares: what an offer's
 * state is, what a typed name may hold, and the "as accepted" file a contact downloads. Pure:
 * no I/O, so the pages, the back office, the CLI and the tests read the same rules.
 */
export const AGREEMENT_KINDS = ["terms-of-trade", "direct-debit", "card-authority", "other"] as const;
export type AgreementKind = (typeof AGREEMENT_KINDS)[number];

/** An offer's reference: `AG-` and 6–12 capitals or digits (migration 0011's check). */
export const AGREEMENT_REFERENCE = /^AG-[0-9A-Z]{6,12}$/;

/**
 * An offer as read (decision 036): stored `offered`, `accepted`, `declined` or `withdrawn`;
 * an offer still `offered` past its expiry reads `expired` (never stored so, as with payment
 * requests), and can then be neither decided nor sent again.
 */
export const AGREEMENT_OFFER_STATES = ["offered", "accepted", "declined", "withdrawn", "expired"] as const;
export type AgreementOfferState = (typeof AGREEMENT_OFFER_STATES)[number];
export type StoredOfferStatus = "offered" | "accepted" | "declined" | "withdrawn";

export function agreementOfferState(
  offer: { status: StoredOfferStatus; expiresAt: Date | string },
  now: Date,
): AgreementOfferState {
  if (offer.status !== "offered") return offer.status;
  return new Date(offer.expiresAt).getTime() <= now.getTime() ? "expired" : "offered";
}

export const TYPED_NAME_MAX = 200;

/**
 * What no single line of text a person types, a title or a name, may hold: control characters
 * (a tab, a newline, a null byte), line and paragraph separators, the bidirectional embeddings,
 * overrides and isolates that make text read differently from what it holds, and unpaired
 * surrogates (not text). Markup, quotes and SQL are text: stored as typed, rendered escaped.
 */
const FORBIDDEN_IN_LINE = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * What an agreement's text may not hold: the same, except that it has lines (line feeds) and
 * may indent with tabs. A bidirectional override in a legal text would make the page read
 * differently from the bytes that are hashed, so it is refused like a control character.
 */
const FORBIDDEN_IN_TEXT =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Zl}\p{Zp}\p{Cs}\u061c\u202a-\u202e\u2066-\u2069]/u;

const hasUnpairedSurrogate = (value: string) =>
  /[\ud800-\udfff]/.test(value.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""));

/** Characters, as PostgreSQL's length() counts them (code points). */
export const codePoints = (value: string) => [...value].length;

export type TypedNameResult = { ok: true; value: string } | { ok: false; error: MessageKey };

/** The name a contact types to decide: trimmed, NFC-normalised, 1 to 200 characters on one line. */
export function readTypedName(raw: unknown): TypedNameResult {
  if (typeof raw !== "string") return { ok: false, error: "agreement.error.name.required" };
  if (hasUnpairedSurrogate(raw)) return { ok: false, error: "agreement.error.name.characters" };
  const value = raw.normalize("NFC").trim();
  if (value === "") return { ok: false, error: "agreement.error.name.required" };
  if (codePoints(value) > TYPED_NAME_MAX) return { ok: false, error: "agreement.error.name.tooLong" };
  if (FORBIDDEN_IN_LINE.test(value)) return { ok: false, error: "agreement.error.name.characters" };
  return { ok: true, value };
}

/** A document's title: the same rule as a typed name (one line, 1–200 characters). */
export function titleProblem(value: string): string | null {
  if (hasUnpairedSurrogate(value) || FORBIDDEN_IN_LINE.test(value)) {
    return "Give the title on one line, without control characters or bidirectional overrides.";
  }
  return null;
}

export const AGREEMENT_TEXT_MAX = 100_000;

/**
 * The largest JSON body the back-office calls that publish a text read (512 KB: 100,000
 * characters of text, most of them multi-byte, with room for JSON's escapes). Keep in step with
 * AGREEMENT_TEXT_BODY_BYTES in scripts/edge.js, which refuses a larger declared body unread.
 */
export const AGREEMENT_API_BODY_BYTES = 512 * 1024;

/**
 * An agreement's text as it is published and hashed: line endings made "\n" (a text pasted
 * from Windows hashes the same as from anywhere else), otherwise exactly as given — no
 * trimming, no Unicode normalisation — so what the business sent is what the contact reads.
 */
export function normaliseAgreementText(value: string): string {
  return value.replace(/\r\n?/g, "\n");
}

export function agreementTextProblem(value: string): string | null {
  if (value.trim() === "") return "Give the agreement's text.";
  if (hasUnpairedSurrogate(value) || FORBIDDEN_IN_TEXT.test(value)) {
    return "The text may hold line breaks and tabs, but no other control characters, line or paragraph separators, or bidirectional overrides.";
  }
  if (codePoints(value) > AGREEMENT_TEXT_MAX) {
    return `The text is too long (at most ${AGREEMENT_TEXT_MAX.toLocaleString("en-AU")} characters).`;
  }
  return null;
}

/** A user agent as recorded: control characters dropped, at most 500 characters. */
export function recordedUserAgent(value: string | null | undefined): string {
  return [...(value ?? "").replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, " ").trim()].slice(0, 500).join("");
}

// ---------------------------------------------------------------------------------------------
// Dates and times

/**
 * "Dec 3, 2026, 10:15:02 AM GMT+11" in the zone: the downloadable record's exact time, with seconds and
 * the offset. Pages and emails show `formatDateTime` of `~/lib/format` instead (decision 078).
 */
export function formatRecordedTime(value: Date | string, timeZone: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const format = (zone: string) =>
    new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
      second: "2-digit",
      timeZone: zone,
      timeZoneName: "shortOffset",
    }).format(date);
  try {
    return format(timeZone);
  } catch {
    return format("UTC");
  }
}

// ---------------------------------------------------------------------------------------------
// The record as a file

export const AGREEMENT_TEXT_MARKER = "-----BEGIN AGREEMENT TEXT-----";

export type AgreementRecordFacts = {
  businessName: string;
  timeZone: string;
  reference: string;
  documentTitle: string;
  kindLabel: string;
  account: { name: string; number: string };
  version: number;
  publishedAt: Date | string;
  decision: "accepted" | "declined";
  typedName: string;
  contactEmail: string;
  decidedAt: Date | string;
  clientAddress: string;
  userAgent: string;
  bodySha256: string;
  /** The version's text exactly as hashed. */
  body: string;
};

/** The file's name: the reference, the version and the decision (ASCII only). */
export function agreementRecordFileName(facts: Pick<AgreementRecordFacts, "reference" | "version" | "decision">) {
  return `${facts.reference}-v${facts.version}-${facts.decision}.md`;
}

export function agreementTextFileName(facts: Pick<AgreementRecordFacts, "reference" | "version">) {
  return `${facts.reference}-v${facts.version}-text.md`;
}

/**
 * The record as the contact downloads it (decision 036): a header that states the record —
 * who, when (the business's time zone and UTC), from where, which version, the decision and
 * the SHA-256 — and says which bytes are hashed, then a marker line, then the version's text
 * byte for byte to the end of the file. Anyone can check it: the SHA-256 of the last
 * `byteLength` bytes of the file is the recorded hash. Written in English whatever the page's
 * language: it is a record, and one wording keeps it comparable.
 */
export function agreementRecordFile(facts: AgreementRecordFacts, byteLength: number): string {
  const zone = facts.timeZone;
  const utc = (value: Date | string) => new Date(value).toISOString();
  const fileName = agreementRecordFileName(facts);
  const lines = [
    `# Agreement record: ${facts.documentTitle}`,
    "",
    `${facts.businessName} keeps this record of a decision on an agreement in its customer portal.`,
    "",
    `- Business: ${facts.businessName}`,
    `- Agreement: ${facts.documentTitle} (${facts.kindLabel})`,
    `- Offer reference: ${facts.reference}`,
    `- Account: ${facts.account.name} (${facts.account.number})`,
    `- Version: ${facts.version}, published ${formatRecordedTime(facts.publishedAt, zone)} (${zone}), ${utc(facts.publishedAt)} UTC`,
    `- Decision: ${facts.decision === "accepted" ? "Accepted" : "Declined"}`,
    `- Name typed: ${facts.typedName}`,
    `- Contact email: ${facts.contactEmail}`,
    `- Time: ${formatRecordedTime(facts.decidedAt, zone)} (${zone})`,
    `- Time (UTC): ${utc(facts.decidedAt)}`,
    `- Client address: ${facts.clientAddress}`,
    `- Browser: ${facts.userAgent || "not given"}`,
    `- SHA-256 of the agreement text: ${facts.bodySha256}`,
    `- Length of the agreement text: ${byteLength} bytes (UTF-8)`,
    "",
    "## How to check this record",
    "",
    `The agreement text is everything after the line "${AGREEMENT_TEXT_MARKER}" below, to the very end of this file:`,
    `exactly ${byteLength} bytes of UTF-8, as published and as hashed. The SHA-256 of those bytes is the value above.`,
    "For example, on Linux (on macOS use `shasum -a 256` for `sha256sum`):",
    "",
    `    tail -c ${byteLength} ${fileName} | sha256sum`,
    "",
    "The portal also offers the text on its own as a file, whose SHA-256 is the same value.",
    "",
    AGREEMENT_TEXT_MARKER,
    "",
  ];
  return `${lines.join("\n")}${facts.body}`;
}
