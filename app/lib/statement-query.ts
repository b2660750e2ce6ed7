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
const validDate = (value: string | null) =>
  value && ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : "";

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
