/**
 * Bounds on raw input, checked before the value is read (CONVENTIONS.md, "Edges"; issue 28).
 * Where a rule counts characters (code points) of a value that it first normalises and trims,
 * the raw string may be longer than the rule's limit and still pass it: every character may be
 * an astral one (two UTF-16 units, which is what zod's `.max` counts), and line ends may come as
 * CRLF. Four times the limit holds all of that with room for white space at the ends, so the
 * raw bound never refuses a text the rule would take from a person; the rule's own message
 * still answers everything between its limit and the raw bound.
 */
export const rawTextMax = (characters: number) => characters * 4;

/** An ISO 8601 date and time with an offset, with room for fractional seconds: 2026-12-31T23:59:00.000+11:00. */
export const ISO_INSTANT_MAX = 64;

/** An ISO 8601 calendar date, YYYY-MM-DD. */
export const ISO_DATE_MAX = 10;
