/**
 * The invoices page's query string: checked value by value, falling back to defaults (these
 * come from bookmarks and edited links). Shared by the page and the session's remembered pager.
 */
import type { MessageKey } from "./i18n";

/** Spec §3 order status codes 1–8 by message key; any other value is 'Other'. */
export function invoiceStatusKey(status: number): MessageKey {
  return Number.isInteger(status) && status >= 1 && status <= 8
    ? (`inv.status.${status}` as MessageKey)
    : "inv.status.other";
}

/** Invoices per page: the loader's LIMIT and the page's "Showing 1–20 of 24" line. */
export const INVOICE_PAGE_SIZE = 20;

/**
 * "overdue": owing and past its due date by the business's calendar, whatever the stored status
 * (the dashboard's Overdue tile links here and counts the same invoices; decision 072).
 */
export const INVOICE_FILTER_OPTIONS = [
  "outstanding",
  "overdue",
  "all",
  "1",
  "2",
  "3",
  "4",
  "5",
  "6",
  "7",
  "8",
] as const;
export const INVOICE_SORT_OPTIONS = ["due-asc", "due-desc", "balance-desc", "number-asc"] as const;

export type InvoicePageQuery = {
  filter: (typeof INVOICE_FILTER_OPTIONS)[number];
  sort: (typeof INVOICE_SORT_OPTIONS)[number];
  page: number;
};

export function parseInvoiceQuery(params: URLSearchParams): InvoicePageQuery {
  const filter = params.get("status") ?? "";
  const sort = params.get("sort") ?? "";
  const page = Number(params.get("page"));
  return {
    filter: (INVOICE_FILTER_OPTIONS as readonly string[]).includes(filter)
      ? (filter as InvoicePageQuery["filter"])
      : "outstanding",
    sort: (INVOICE_SORT_OPTIONS as readonly string[]).includes(sort) ? (sort as InvoicePageQuery["sort"]) : "due-asc",
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

export function invoiceSearch(query: InvoicePageQuery, overrides: Partial<InvoicePageQuery> = {}) {
  const merged = { ...query, ...overrides };
  const params = new URLSearchParams();
  if (merged.filter !== "outstanding") params.set("status", merged.filter);
  if (merged.sort !== "due-asc") params.set("sort", merged.sort);
  if (merged.page > 1) params.set("page", String(merged.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The pay page sends a person who chose no invoice it can take back to the list with this error
 * (issue 31): the list shows "Choose at least one invoice to pay" in a summary at the top, which
 * the fragment brings into view without script (and script focuses). Any other value is ignored.
 */
export const CHOOSE_ERROR = "choose";
export const CHOOSE_INVOICES_PATH = `/customer/invoices-and-payments/invoices?error=${CHOOSE_ERROR}#errors`;
