/**
 * Pure, isomorphic display formatting for the payments portal.
 *
 * Everything here runs identically on the server and in the browser: it only
 * uses `Intl` and never depends on the host's local time zone or locale, so
 * server-rendered markup matches what hydration produces.
 *
 * Conventions:
 * - Money is always an integer number of minor units ("cents"). Floats are
 *   never formatted as money; `formatMoney` throws a RangeError instead.
 * - The other display helpers never throw on bad data; they fall back to a
 *   safe value ("" / "0 B" / "Other" / "••••") so a bad row can't crash a page.
 */

export const DEFAULT_LOCALE = "en-AU";
export const DEFAULT_CURRENCY = "AUD";
export const DEFAULT_TIME_ZONE = "Australia/Sydney";

/* -------------------------------------------------------------------------- */
/* Money                                                                      */
/* -------------------------------------------------------------------------- */

export interface FormatMoneyOptions {
  /** ISO 4217 code. Default "AUD". */
  currency?: string;
  /** BCP 47 locale. Default "en-AU". */
  locale?: string;
  /**
   * "code" names the currency ("NZD 1,318.97") where two currencies could meet; by default a
   * host's own dollars are "$" (decision 078).
   */
  currencyDisplay?: "symbol" | "code";
}

/**
 * The currencies a host bills in (AU and NZ hosts). Each host has one, and every amount it shows
 * is in it, so "$" is unambiguous on its pages and emails (decision 078).
 */
const HOST_DOLLARS = new Set(["AUD", "NZD"]);

interface MoneyFormatter {
  format: (value: string) => string;
  /** Minor-unit digits for the currency (2 for AUD, 0 for JPY, 3 for KWD). */
  digits: number;
}

const moneyFormatters = new Map<string, MoneyFormatter>();

function getMoneyFormatter(locale: string, currency: string, display: "symbol" | "code"): MoneyFormatter {
  const currencyDisplay = display === "code" ? "code" : HOST_DOLLARS.has(currency) ? "narrowSymbol" : "symbol";
  const key = `${locale}\u0000${currency}\u0000${currencyDisplay}`;
  let entry = moneyFormatters.get(key);
  if (!entry) {
    // Throws RangeError for an invalid locale or currency code (a programming
    // error, not bad data), which is deliberately not swallowed.
    const nf = new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay });
    const digits = nf.resolvedOptions().maximumFractionDigits ?? 2;
    // Intl.NumberFormat v3 (ES2023) formats numeric strings as exact decimals,
    // so no float division ever happens. The project's TS lib is ES2022, whose
    // typings only allow number | bigint, hence the cast. (In an engine
    // without v3 the string is coerced to a number, which is still exact for
    // any amount below ~$70 trillion.)
    const format = nf.format.bind(nf) as unknown as (value: string) => string;
    entry = { format, digits };
    moneyFormatters.set(key, entry);
  }
  return entry;
}

/**
 * Formats an integer amount of minor units: `formatMoney(123456)` → "$1,234.56",
 * `formatMoney(-1200)` → "-$12.00". A host's own currency (AUD, NZD) is "$" in any locale
 * (`formatMoney(131897, { currency: "NZD" })` → "$1,318.97"); `currencyDisplay: "code"` names it.
 *
 * "Cents" means the currency's minor unit as Intl reports it (1/100 for AUD,
 * NZD, USD; JPY has no minor unit so 1234 → "JPY\u00a01,234" in en-AU —
 * note Intl puts a no-break space after a currency code).
 * -0 is formatted as 0 (no "-$0.00").
 *
 * @throws RangeError if `cents` is not a safe integer, or if the locale or
 *   currency code is invalid.
 */
export function formatMoney(cents: number, options: FormatMoneyOptions = {}): string {
  if (typeof cents !== "number" || !Number.isSafeInteger(cents)) {
    throw new RangeError(`formatMoney expects a safe integer number of cents, got ${String(cents)}`);
  }
  const locale = options.locale ?? DEFAULT_LOCALE;
  const currency = (options.currency ?? DEFAULT_CURRENCY).toUpperCase();
  const { format, digits } = getMoneyFormatter(locale, currency, options.currencyDisplay ?? "symbol");

  const negative = cents < 0;
  const abs = String(Math.abs(cents)); // exact: safe integers never use exponent notation
  let decimal: string;
  if (digits > 0) {
    const padded = abs.padStart(digits + 1, "0");
    decimal = `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
  } else {
    decimal = abs;
  }
  return format(negative ? `-${decimal}` : decimal);
}

/* -------------------------------------------------------------------------- */
/* Numbers                                                                    */
/* -------------------------------------------------------------------------- */

export interface FormatNumberOptions {
  /** BCP 47 locale. Default "en-AU". */
  locale?: string;
  /** 0–100; Intl's default (3) when omitted. */
  maximumFractionDigits?: number;
}

const numberFormatters = new Map<string, Intl.NumberFormat>();

/**
 * Formats a plain number with grouping: 1234567 → "1,234,567".
 * Non-finite values (NaN, ±Infinity) return "" rather than "NaN"/"∞";
 * -0 is shown as "0".
 *
 * @throws RangeError for an invalid locale or an out-of-range
 *   maximumFractionDigits (programming errors).
 */
export function formatNumber(value: number, options: FormatNumberOptions = {}): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "";
  const locale = options.locale ?? DEFAULT_LOCALE;
  const max = options.maximumFractionDigits;
  const key = `${locale}\u0000${max ?? ""}`;
  let nf = numberFormatters.get(key);
  if (!nf) {
    nf = new Intl.NumberFormat(locale, max === undefined ? {} : { maximumFractionDigits: max });
    numberFormatters.set(key, nf);
  }
  // `value + 0` turns -0 into 0; also avoid "-0" when e.g. -0.0001 rounds to 0.
  const out = nf.format(value + 0);
  return /^-0(?:[.,]0*)?$/.test(out) ? out.slice(1) : out;
}

/* -------------------------------------------------------------------------- */
/* Dates                                                                      */
/* -------------------------------------------------------------------------- */

export interface FormatDateOptions {
  /** IANA time zone; unknown names fall back to DEFAULT_TIME_ZONE. */
  timeZone?: string;
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function makeDateFormatter(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone,
  });
}

function getDateFormatter(timeZone: string): Intl.DateTimeFormat {
  let dtf = dateFormatters.get(timeZone);
  if (dtf) return dtf;
  try {
    dtf = makeDateFormatter(timeZone);
  } catch {
    // Unknown time zone: fall back, and don't cache the bad name (it may be
    // user-controlled and would otherwise grow the cache without bound).
    return getDateFormatter(DEFAULT_TIME_ZONE);
  }
  dateFormatters.set(timeZone, dtf);
  return dtf;
}

// ISO 8601 / RFC 3339 subset:
//   YYYY-MM-DD
//   YYYY-MM-DD(T| )HH:MM[:SS[.fff…]]            (no offset → wall-clock)
//   YYYY-MM-DD(T| )HH:MM[:SS[.fff…]](Z|±HH[:]MM) (an instant)
const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

type ParsedDate =
  | { kind: "calendar"; utcMs: number } // a calendar date, format in UTC
  | { kind: "instant"; utcMs: number }; // an instant, format in the target zone

function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const date = new Date(0);
  // setUTCFullYear avoids Date.UTC's 0–99 → 1900–1999 year mapping.
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

function parseIso(input: string): ParsedDate | null {
  const m = ISO_RE.exec(input.trim());
  if (!m) return null;
  const [, ys, mos, ds, hs, mis, ss, frac, z, sign, ohs, oms] = m;
  const y = Number(ys);
  const mo = Number(mos);
  const d = Number(ds);
  if (mo < 1 || mo > 12 || d < 1) return null;
  const daysInMonth = new Date(utcMs(y, mo + 1, 0)).getUTCDate();
  if (d > daysInMonth) return null; // e.g. 2026-02-30
  const h = Number(hs ?? 0);
  const mi = Number(mis ?? 0);
  const s = Number(ss ?? 0);
  if (h > 23 || mi > 59 || s > 59) return null;

  if (hs === undefined || (z === undefined && sign === undefined)) {
    // Date-only, or a date-time without an offset: it names a calendar date
    // (wall-clock), so show that date as-is rather than shifting it through
    // the host's or the target's time zone.
    return { kind: "calendar", utcMs: utcMs(y, mo, d) };
  }

  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"));
  let offsetMin = 0;
  if (sign !== undefined) {
    const oh = Number(ohs);
    const om = Number(oms);
    if (oh > 23 || om > 59) return null;
    offsetMin = (sign === "-" ? -1 : 1) * (oh * 60 + om);
  }
  return { kind: "instant", utcMs: utcMs(y, mo, d, h, mi, s, ms) - offsetMin * 60_000 };
}

/**
 * Formats a date as "Nov 22, 2026" (en-US, short month) in an IANA time zone
 * (default "Australia/Sydney").
 *
 * - `Date` objects are instants and are shown in the target time zone.
 * - Strings must be ISO 8601: "2026-11-22" (and a date-time without an offset
 *   such as "2026-11-22T10:00") means that calendar date and is never shifted;
 *   a string with "Z" or "±HH:MM" is an instant shown in the target zone.
 *   Other string formats are rejected (return "") because `Date.parse` of
 *   non-ISO strings is engine-dependent and would break isomorphic rendering.
 * - Invalid input returns "" — never throws, never "Invalid Date".
 * - An unknown time-zone name falls back to DEFAULT_TIME_ZONE.
 */
export function formatDate(value: Date | string, options: FormatDateOptions = {}): string {
  let ms: number;
  let zone = options.timeZone || DEFAULT_TIME_ZONE;
  // toString tag instead of instanceof so Dates from another realm work too.
  if (Object.prototype.toString.call(value) === "[object Date]") {
    ms = (value as Date).getTime();
  } else if (typeof value === "string") {
    const parsed = parseIso(value);
    if (!parsed) return "";
    ms = parsed.utcMs;
    if (parsed.kind === "calendar") zone = "UTC";
  } else {
    return "";
  }
  if (!Number.isFinite(ms)) return "";
  try {
    return getDateFormatter(zone).format(ms);
  } catch {
    return ""; // out of Intl's representable range
  }
}

/* -------------------------------------------------------------------------- */
/* Dates with a time, and the Indonesian pattern                              */
/* -------------------------------------------------------------------------- */

export interface FormatDateTimeOptions {
  /** IANA time zone; unknown names fall back to DEFAULT_TIME_ZONE. */
  timeZone?: string;
  /** The page's language: "ID" writes the Indonesian pattern (decision 078). Default English. */
  language?: string;
}

/** Indonesian month abbreviations (KBBI): "Des", "Agu", "Mei". */
const ID_MONTHS = ["Jan", "Feb", "Mar", "Apr", "Mei", "Jun", "Jul", "Agu", "Sep", "Okt", "Nov", "Des"];

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, timeZone: string) {
  let dtf = partsFormatters.get(timeZone);
  if (!dtf) {
    try {
      dtf = new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
        hourCycle: "h23",
      });
    } catch {
      return wallClock(ms, DEFAULT_TIME_ZONE);
    }
    partsFormatters.set(timeZone, dtf);
  }
  const parts = dtf.formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour") % 24, minute: get("minute") };
}

function instantOf(value: Date | string): { ms: number; calendar: boolean } | null {
  if (Object.prototype.toString.call(value) === "[object Date]") {
    const ms = (value as Date).getTime();
    return Number.isFinite(ms) ? { ms, calendar: false } : null;
  }
  if (typeof value !== "string") return null;
  const parsed = parseIso(value);
  return parsed ? { ms: parsed.utcMs, calendar: parsed.kind === "calendar" } : null;
}

const isIndonesian = (language: string | undefined) => (language ?? "").toLowerCase() === "id";

/**
 * The one date-and-time format (spec §9; decision 078): "Dec 13, 2026, 9:28 am" in the business's
 * time zone — no seconds, no zone name. In Indonesian: "13 Des 2026, 09.28" (day month year, a 24-hour
 * clock with a full stop, as Indonesian readers write it). Invalid input returns "".
 */
export function formatDateTime(value: Date | string, options: FormatDateTimeOptions = {}): string {
  const at = instantOf(value);
  if (!at) return "";
  const { year, month, day, hour, minute } = wallClock(
    at.ms,
    at.calendar ? "UTC" : options.timeZone || DEFAULT_TIME_ZONE,
  );
  if (!year) return "";
  const mm = String(minute).padStart(2, "0");
  if (isIndonesian(options.language)) {
    return `${day} ${ID_MONTHS[month - 1]} ${year}, ${String(hour).padStart(2, "0")}.${mm}`;
  }
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${formatDate(new Date(at.ms), { timeZone: at.calendar ? "UTC" : options.timeZone })}, ${h12}:${mm} ${hour < 12 ? "am" : "pm"}`;
}

/** A calendar date in a page's language: "Dec 13, 2026", or in Indonesian "13 Des 2026" (decision 078). */
export function formatDateIn(value: Date | string, options: FormatDateTimeOptions = {}): string {
  if (!isIndonesian(options.language)) return formatDate(value, { timeZone: options.timeZone });
  const at = instantOf(value);
  if (!at) return "";
  const { year, month, day } = wallClock(at.ms, at.calendar ? "UTC" : options.timeZone || DEFAULT_TIME_ZONE);
  return year ? `${day} ${ID_MONTHS[month - 1]} ${year}` : "";
}

/** A page's dates: its business's time zone and its language, set once (decision 078, update 2026-12-04). */
export interface PageDates {
  /** "Dec 13, 2026"; Indonesian "13 Des 2026". */
  date: (value: Date | string) => string;
  /** "Dec 13, 2026, 9:28 am"; Indonesian "13 Des 2026, 09.28". */
  dateTime: (value: Date | string) => string;
}

/**
 * The one way a page writes its dates: built once per request from the business's time zone and the
 * page's language (`pageDates(request, branding)` on the server), then handed to what builds the page.
 */
export function datesIn(options: { timeZone: string; language: string }): PageDates {
  const { timeZone, language } = options;
  return {
    date: (value) => formatDateIn(value, { timeZone, language }),
    dateTime: (value) => formatDateTime(value, { timeZone, language }),
  };
}

/* -------------------------------------------------------------------------- */
/* Ordinals                                                                   */
/* -------------------------------------------------------------------------- */

/**
 * Made on first use, not when the module loads: building an Intl formatter loads locale data, and
 * every page's start-up in the browser would pay for it (decision 049).
 */
function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const ordinalRules = lazily(() => new Intl.PluralRules("en-US", { type: "ordinal" }));
const ordinalNumber = lazily(
  () =>
    new Intl.NumberFormat("en-US", {
      useGrouping: false,
      maximumFractionDigits: 0,
    }),
);
const ORDINAL_SUFFIX: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };

/**
 * English ordinal: 1 → "1st", 11 → "11th", 22 → "22nd", 0 → "0th", -1 → "-1st".
 * No thousands separators (1001 → "1001st"). Non-integers and non-finite
 * values return "" (ordinals only make sense for whole numbers).
 */
export function ordinal(n: number): string {
  if (typeof n !== "number" || !Number.isInteger(n)) return "";
  const value = n + 0; // -0 → 0
  return `${ordinalNumber().format(value)}${ORDINAL_SUFFIX[ordinalRules().select(value)] ?? "th"}`;
}

/**
 * An ordinal in a language's own way (spec §9): English "1st", "22nd"; Bahasa Indonesia "ke-1",
 * "ke-22" ("cicilan ke-2 dari 6"). Non-integers give "", as ordinal() does.
 */
export function ordinalIn(n: number, language?: string): string {
  if (typeof n !== "number" || !Number.isInteger(n)) return "";
  return isIndonesian(language) ? `ke-${n + 0}` : ordinal(n);
}

/* -------------------------------------------------------------------------- */
/* Card masking                                                               */
/* -------------------------------------------------------------------------- */

export interface StoredCardDigits {
  firstDigit: string;
  lastFour: string;
}

const MASK = "•";
/** Returned whenever nothing can safely be revealed. */
const FULL_MASK = MASK.repeat(4);
/** Shortest real card number (PANs are 12–19 digits in practice). */
const MIN_REVEAL_LENGTH = 12;
/** Length assumed for the stored { firstDigit, lastFour } form. */
const STORED_CARD_LENGTH = 16;

/** Groups of 4 aligned from the right, so the last four is always its own group. */
function groupRight(chars: string): string {
  const groups: string[] = [];
  for (let end = chars.length; end > 0; end -= 4) {
    groups.unshift(chars.slice(Math.max(0, end - 4), end));
  }
  return groups.join(" ");
}

/**
 * Masks a card number, revealing at most the first digit and the last four:
 * "4111 1111-1111 1111" → "4••• •••• •••• 1111".
 *
 * - String input: spaces and dashes are ignored. The masked output keeps the
 *   input's length and is grouped in fours from the right (so the last four
 *   is always a group; 15 digits → "3•• •••• •••• 0005").
 * - Any other character (letters, "*", an already-masked value) → "••••".
 * - Fewer than 12 digits (shorter than any real card number, including the
 *   "fewer than 5" case) → "••••" with nothing revealed: with so few digits
 *   first + last four would expose most or all of the input.
 * - Object form (what the database stores) is assumed to be a 16-digit card:
 *   { firstDigit: "4", lastFour: "1111" } → "4••• •••• •••• 1111". An invalid
 *   firstDigit is masked ("•••• •••• •••• 1111"); an invalid lastFour → "••••".
 */
export function maskCardNumber(input: string | StoredCardDigits): string {
  if (typeof input === "string") {
    const digits = input.replace(/[\s-]/g, "");
    if (!/^\d+$/.test(digits) || digits.length < MIN_REVEAL_LENGTH) return FULL_MASK;
    const masked = digits[0] + MASK.repeat(digits.length - 5) + digits.slice(-4);
    return groupRight(masked);
  }
  if (input === null || typeof input !== "object") return FULL_MASK;
  const first = typeof input.firstDigit === "string" ? input.firstDigit.trim() : "";
  const lastFour = typeof input.lastFour === "string" ? input.lastFour.trim() : "";
  if (!/^\d{4}$/.test(lastFour)) return FULL_MASK;
  const lead = /^\d$/.test(first) ? first : MASK;
  return groupRight(lead + MASK.repeat(STORED_CARD_LENGTH - 5) + lastFour);
}

/* -------------------------------------------------------------------------- */
/* File sizes                                                                 */
/* -------------------------------------------------------------------------- */

const FILE_SIZE_UNITS = ["B", "KB", "MB", "GB"] as const;
const fileSizeNumber = lazily(() => new Intl.NumberFormat("en-AU", { maximumFractionDigits: 1 }));
const byteCount = lazily(() => new Intl.NumberFormat("en-AU", { maximumFractionDigits: 0 }));

/**
 * Human file size with base 1024 and at most one decimal (trailing ".0"
 * dropped): 1023 → "1,023 B", 1536 → "1.5 KB", 1048576 → "1 MB".
 * Values that would round up to 1024 of a unit move to the next unit
 * (1048575 → "1 MB", not "1,024 KB"). GB is the largest unit, so huge values
 * stay in GB with separators ("2,048 GB"). Negative, NaN and ±Infinity → "0 B".
 */
export function formatFileSize(bytes: number): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes) || bytes <= 0) return "0 B";
  // What the value will display as: whole bytes, else one decimal.
  const shown = (value: number, unit: number): number => (unit === 0 ? Math.round(value) : Math.round(value * 10) / 10);
  let unit = 0;
  let value = bytes;
  while (unit < FILE_SIZE_UNITS.length - 1 && shown(value, unit) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  const nf = unit === 0 ? byteCount() : fileSizeNumber();
  return `${nf.format(value)} ${FILE_SIZE_UNITS[unit]}`;
}

/* -------------------------------------------------------------------------- */
/* Order statuses                                                             */
/* -------------------------------------------------------------------------- */

export const ORDER_STATUSES = Object.freeze({
  1: "Open",
  2: "Closed",
  3: "Overdue",
  4: "Archived",
  5: "On Hold",
  6: "Disputed",
  7: "Promise",
  8: "Broken Promise",
} as const);

export type OrderStatusCode = keyof typeof ORDER_STATUSES;
export type OrderStatusLabel = (typeof ORDER_STATUSES)[OrderStatusCode];

/**
 * Label for an order status code, or "Other" for anything unknown.
 *
 * Accepted codes: integer numbers (1, 1.0), bigints (1n) and integer-looking
 * strings (digits only, surrounding whitespace allowed: "1", " 07 "), since
 * codes often arrive as strings from form data, URLs or `pg` results.
 * Everything else — 0, 9, negative or fractional numbers, "1.0", "1e0", "",
 * null, undefined, booleans, objects — is "Other".
 */
export function orderStatusLabel(code: unknown): OrderStatusLabel | "Other" {
  let n: number;
  if (typeof code === "number") {
    n = code;
  } else if (typeof code === "bigint") {
    n = Number(code);
  } else if (typeof code === "string" && /^\s*\d+\s*$/.test(code)) {
    n = Number(code);
  } else {
    return "Other";
  }
  if (!Number.isInteger(n) || !Object.prototype.hasOwnProperty.call(ORDER_STATUSES, n)) {
    return "Other";
  }
  return ORDER_STATUSES[n as OrderStatusCode];
}

/* -------------------------------------------------------------------------- */
/* Parsing money                                                              */
/* -------------------------------------------------------------------------- */

export type ParseMoneyResult = { ok: true; cents: number } | { ok: false; error: string };

/** Largest accepted amount: $99,999,999.99. */
export const MAX_MONEY_CENTS = 9_999_999_999;

export const MONEY_ERRORS = Object.freeze({
  format: "Enter an amount like 125.50",
  decimals: "Use at most two decimal places",
  negative: "Enter an amount that isn't negative",
  tooLarge: "Enter an amount of 99,999,999.99 or less",
});

/**
 * Parses a user-typed dollar amount into integer cents, exactly (string
 * arithmetic, no floats).
 *
 * Accepts: "12", "12.3", "12.34", ".5", "12.", "1,234.56" (commas only as
 * correct thousands groups), "007", optional leading "$" and surrounding
 * whitespace (" $12.00 ", "$ 12").
 * Rejects: empty input, negatives ("-12", "-$12", "$-12"), more than two
 * decimal places (even "12.340"), exponents ("1e3"), multiple dots, letters,
 * misplaced commas ("1,23", "12,50"), and amounts above 99,999,999.99.
 * Zero is valid ({ ok: true, cents: 0 }); whether zero is allowed is the
 * caller's decision.
 */
export function parseMoneyToCents(input: string): ParseMoneyResult {
  if (typeof input !== "string") return { ok: false, error: MONEY_ERRORS.format };
  let s = input.trim();
  if (s === "") return { ok: false, error: MONEY_ERRORS.format };

  // A minus sign before or after the "$" ("-12", "-$12", "$-12", "$ -12").
  if (/^(?:-\s*\$?|\$\s*-)\s*[\d.,]/.test(s)) {
    return { ok: false, error: MONEY_ERRORS.negative };
  }
  if (s.startsWith("$")) s = s.slice(1).trimStart();

  const match = /^(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?$/.exec(s);
  if (!match) return { ok: false, error: MONEY_ERRORS.format };
  const intPart = (match[1] ?? "").replace(/,/g, "");
  const fracPart = match[2] ?? "";
  if (intPart === "" && fracPart === "") return { ok: false, error: MONEY_ERRORS.format };
  if (fracPart.length > 2) return { ok: false, error: MONEY_ERRORS.decimals };

  const whole = intPart.replace(/^0+(?=\d)/, "") || "0";
  if (whole.length > 8) return { ok: false, error: MONEY_ERRORS.tooLarge };
  const cents = Number(whole) * 100 + Number(fracPart.padEnd(2, "0"));
  if (cents > MAX_MONEY_CENTS) return { ok: false, error: MONEY_ERRORS.tooLarge };
  return { ok: true, cents };
}
