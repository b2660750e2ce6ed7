/**
 * The statement page's query string (shared by the page, its CSV download and the session's
 * remembered pager): every value is checked, and anything unexpected falls back to the
 * default rather than failing, because these come from links people bookmark and edit.
 */
export const STATEMENT_PAGE_SIZE = 20;
export const STATEMENT_TYPE_OPTIONS = ["invoice", "payment", "credit", "adjustment", "fee"] as const;
export const STATEMENT_SORT_OPTIONS = {
  "date-desc": { field: "date", dir: "desc" },
  "date-asc": { field: "date", dir: "asc" },
  "amount-desc": { field: "amount", dir: "desc" },
  "amount-asc": { field: "amount", dir: "asc" },
} as const;

export type StatementSortKey = keyof typeof STATEMENT_SORT_OPTIONS;
export type StatementType = (typeof STATEMENT_TYPE_OPTIONS)[number];

export type StatementPageQuery = {
  page: number;
  sort: StatementSortKey;
  type: StatementType | "";
  from: string;
  to: string;
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar date as YYYY-MM-DD (not 2026-02-30, which Date.parse rolls into March), else "". */
const validDate = (value: string | null) => {
  if (!value || !ISO_DATE.test(value)) return "";
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  // date-rule: a calendar date held as UTC midnight, never an instant's date (decision 078)
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10) === value && year >= 1000 ? value : "";
};

export function parseStatementQuery(params: URLSearchParams): StatementPageQuery {
  const page = Number(params.get("page"));
  const sort = params.get("sort") ?? "";
  const type = params.get("type") ?? "";
  let from = validDate(params.get("from"));
  let to = validDate(params.get("to"));
  if (from && to && from > to) [from, to] = [to, from];
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    // Own keys only: "__proto__" or "constructor" are not sort options (decision 024).
    sort: Object.hasOwn(STATEMENT_SORT_OPTIONS, sort) ? (sort as StatementSortKey) : "date-desc",
    type: (STATEMENT_TYPE_OPTIONS as readonly string[]).includes(type) ? (type as StatementType) : "",
    from,
    to,
  };
}

/** The query string for a statement query, leaving defaults out. */
export function statementSearch(query: StatementPageQuery, overrides: Partial<StatementPageQuery> = {}) {
  const merged = { ...query, ...overrides };
  const params = new URLSearchParams();
  if (merged.from) params.set("from", merged.from);
  if (merged.to) params.set("to", merged.to);
  if (merged.type) params.set("type", merged.type);
  if (merged.sort !== "date-desc") params.set("sort", merged.sort);
  if (merged.page > 1) params.set("page", String(merged.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** A statement PDF covers at most this many years (issue 34): a clear 400 beyond. */
export const STATEMENT_PDF_MAX_YEARS = 5;
/** And at most this many lines (the CSV's own limit): a clear 400 beyond, with a shorter period to choose. */
export const STATEMENT_PDF_MAX_LINES = 10_000;

export type StatementPeriod = { ok: true; from: string; to: string } | { ok: false; error: "badDate" | "tooLong" };

/**
 * The period of a statement PDF, from the page's `from` and `to`. Unlike the page (which drops what it
 * cannot read), a document to file must cover exactly what was asked, so a date that is not a real
 * YYYY-MM-DD is an error. Without `to` it ends on the business's today; without `from` it covers the
 * 12 months up to `to`; reversed dates are put in order, as the page does. The same calendar day five
 * years back is the earliest start: 2021-12-07 to 2026-12-06 is five years, 2021-12-06 is one day more.
 */
export function parseStatementPeriod(params: URLSearchParams, today: string): StatementPeriod {
  const read = (name: string) => {
    const value = params.get(name);
    if (value === null || value === "") return "";
    return validDate(value.slice(0, 11)) === value ? value : null;
  };
  let from = read("from");
  let to = read("to");
  if (from === null || to === null) return { ok: false, error: "badDate" };
  to ||= today;
  from ||= yearsBefore(to, 1);
  if (from > to) [from, to] = [to, from];
  if (from < yearsBefore(to, STATEMENT_PDF_MAX_YEARS)) return { ok: false, error: "tooLong" };
  return { ok: true, from, to };
}

/** The first day of the `years` years that end on `day`: 2026-12-06 less one year is 2025-12-07. */
function yearsBefore(day: string, years: number) {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  // The same day that many years back (29 February to the 28th in a common year), then the day after.
  const monthLength = new Date(Date.UTC(year - years, month, 0)).getUTCDate();
  const start = new Date(Date.UTC(year - years, month - 1, Math.min(date, monthLength) + 1));
  // date-rule: a calendar date held as UTC midnight, never an instant's date (decision 078)
  return start.toISOString().slice(0, 10);
}
