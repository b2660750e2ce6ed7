import type { LoaderFunctionArgs } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import { parseStatementQuery, STATEMENT_SORT_OPTIONS } from "~/lib/statement-query";
import {
  AGEING_BANDS,
  businessToday,
  getAgeing,
  listStatementLines,
  requestLanguage,
  requireAccountPage,
} from "./portal.server";

const MAX_ROWS = 10_000;
const PAGE = 1_000;

/**
 * The statement as CSV (csv-stringify), with the page's filters and sort: amounts as plain
 * decimals a spreadsheet reads, dates as ISO dates. Paged from SQL in blocks of 1,000 rows,
 * up to 10,000 lines per file. After the lines, one empty row and the balance by age (issue 34) as
 * at the business's today: a label and an amount per row, zeros written out.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, account } = await requireAccountPage(request);
  const query = parseStatementQuery(new URL(request.url).searchParams);
  const sort = STATEMENT_SORT_OPTIONS[query.sort];
  // Column names in the page's language; values (ISO dates, type codes, decimals) stay
  // machine-readable, the same in every language, for spreadsheets and imports.
  const { t } = await requestLanguage(request, branding.businessId, account.accountId);
  const rows: (string | number)[][] = [];
  for (let skip = 0; skip < MAX_ROWS; skip += PAGE) {
    const page = await listStatementLines(branding.businessId, account.accountId, {
      skip,
      take: PAGE,
      sort: { field: sort.field, dir: sort.dir },
      from: query.from || undefined,
      to: query.to || undefined,
      type: query.type || undefined,
    });
    for (const line of page.items) {
      rows.push([
        line.date,
        line.type,
        line.reference,
        line.description,
        cents(line.debitCents),
        cents(line.creditCents),
      ]);
    }
    if (page.items.length < PAGE) break;
  }
  const ageing = await getAgeing(branding.businessId, account.accountId, businessToday(branding.timeZone));
  rows.push(
    [],
    [t("csv.ageing", { date: ageing.asAt }), t("csv.amount", { currency: branding.currency })],
    ...AGEING_BANDS.map((band) => [t(`ageing.${band}`), decimal(ageing.bands[band])]),
    [t("ageing.total"), decimal(ageing.totalCents)],
  );
  const csv = stringify(rows, {
    header: true,
    columns: [
      t("csv.date"),
      t("csv.type"),
      t("csv.reference"),
      t("csv.description"),
      t("csv.charges", { currency: branding.currency }),
      t("csv.credits", { currency: branding.currency }),
    ],
    // A cell starting with =, +, - or @ would be a formula in a spreadsheet (CSV injection).
    cast: { string: (value) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value) },
  });
  const filename = `statement-${account.number.replace(/[^A-Za-z0-9-]/g, "_")}.csv`;
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** Integer cents as an exact decimal string (never through a float); zero as an empty cell. */
function cents(value: number): string {
  return value === 0 ? "" : decimal(value);
}

/** Integer cents as an exact decimal string, zero as 0.00. */
function decimal(value: number): string {
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
