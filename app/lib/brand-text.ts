/**
 * The rules for a brand's business name and label (issue 16), shared by the admin form (its
 * `maxLength`) and the brand service (which checks them again). Client-safe: no server imports.
 */
export const BRAND_NAME_MAX_LENGTH = 120;
export const BRAND_LABEL_MAX_LENGTH = 120;

export type BrandTextProblem = "required" | "tooLong" | "invalidText";

/**
 * Characters a one-line name may not hold: control characters (C0, C1, DEL), line and paragraph
 * separators, bidirectional overrides, isolates and marks (they reorder the text around them),
 * invisible spaces and joiners of words (U+200B, U+2060…: they make two names look alike; the
 * joiners U+200C/U+200D stay, as scripts and emoji need them), the byte order mark and lone
 * surrogates. Markup is not refused: it is text, and every page escapes it.
 */
const FORBIDDEN = /[\p{Cc}\p{Cs}\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/u;

/**
 * The value to store (trimmed, NFC), or why it cannot be: empty when required, longer than `max`
 * characters (code points, as PostgreSQL's length() counts them), or holding a forbidden character.
 */
export function checkBrandText(
  raw: unknown,
  options: { max: number; required: boolean },
): { ok: true; value: string } | { ok: false; problem: BrandTextProblem } {
  if (typeof raw !== "string") return { ok: false, problem: options.required ? "required" : "invalidText" };
  if (FORBIDDEN.test(raw)) return { ok: false, problem: "invalidText" };
  const value = raw.normalize("NFC").trim();
  if (value === "" && options.required) return { ok: false, problem: "required" };
  if ([...value].length > options.max) return { ok: false, problem: "tooLong" };
  return { ok: true, value };
}
