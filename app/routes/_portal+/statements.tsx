import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { button, secondaryButton } from "~/components/Button.css";
import { formStyles } from "~/components/Form";
import { Filters, FilterSelect, Pager } from "~/components/ListControls";
import { useT } from "~/components/useT";
import * as styles from "~/components/Table.css";
import { formatMoney, formatNumber } from "~/lib/format";
import {
  parseStatementPeriod,
  parseStatementQuery,
  STATEMENT_PAGE_SIZE,
  STATEMENT_SORT_OPTIONS,
  STATEMENT_TYPE_OPTIONS,
  statementSearch,
} from "~/lib/statement-query";
import {
  AGEING_BANDS,
  businessToday,
  getAgeing,
  pageDates,
  listStatementLines,
  requireAccountPage,
  updateSessionData,
} from "./portal.server";
import { AgeingTable } from "~/components/AgeingTable";
import { metaTranslator } from "~/lib/i18n";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { metaDescription } from "~/lib/meta";
import { StackedTable } from "~/components/StackedTable";

/** The invoices list, filtered to the overdue ones (decision 072). */
const OVERDUE_INVOICES = "/customer/invoices-and-payments/invoices?status=overdue";

/**
 * The selected account's statement: paged, sorted and filtered in SQL by the query string
 * (works without JavaScript, survives reload and back). The last query is remembered in the
 * session (the spec's invoicePagination) and cleared at sign-out.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session, account } = await requireAccountPage(request);
  const url = new URL(request.url);
  const remembered = (session.data.invoicePagination as { statements?: string } | undefined)?.statements;
  if (url.search === "" && remembered) throw redirect(`/statements${remembered}`);
  const query = parseStatementQuery(url.searchParams);
  const search = statementSearch(query);
  if (search !== (remembered ?? "")) {
    await updateSessionData(session, {
      invoicePagination: { ...(session.data.invoicePagination ?? {}), statements: search },
    });
  }
  const sort = STATEMENT_SORT_OPTIONS[query.sort];
  const today = businessToday(branding.timeZone);
  const [page, ageing] = await Promise.all([
    listStatementLines(branding.businessId, account.accountId, {
      skip: (query.page - 1) * STATEMENT_PAGE_SIZE,
      take: STATEMENT_PAGE_SIZE,
      sort: { field: sort.field, dir: sort.dir },
      from: query.from || undefined,
      to: query.to || undefined,
      type: query.type || undefined,
    }),
    // As at the business's today, whatever period the lines are filtered to.
    getAgeing(branding.businessId, account.accountId, today),
  ]);
  // The PDF covers the page's dates (12 months up to today when none are chosen), every type of line.
  const pdfPeriod = parseStatementPeriod(new URLSearchParams({ from: query.from, to: query.to }), today);
  const full = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const money = (cents: number) => (cents === 0 ? "" : full(cents));
  const { date } = await pageDates(request, branding);
  const pages = Math.max(1, Math.ceil(page.total / STATEMENT_PAGE_SIZE));
  return {
    businessName: branding.businessName,
    account: { name: account.name, number: account.number },
    query,
    pages,
    total: page.total,
    totals: {
      debit: formatMoney(page.debitCents, { currency: branding.currency }),
      credit: formatMoney(page.creditCents, { currency: branding.currency }),
      net: formatMoney(page.debitCents - page.creditCents, { currency: branding.currency }),
    },
    pdf: pdfPeriod.ok
      ? {
          href: `/statements/pdf?${new URLSearchParams({ from: pdfPeriod.from, to: pdfPeriod.to })}`,
          from: date(pdfPeriod.from),
          to: date(pdfPeriod.to),
        }
      : null,
    ageing: {
      asAt: date(ageing.asAt),
      rows: AGEING_BANDS.map((band) => ({ band, amount: full(ageing.bands[band]), cents: ageing.bands[band] })),
      total: full(ageing.totalCents),
      overdue: ageing.totalCents > ageing.bands.current,
    },
    lines: page.items.map((line) => ({
      id: line.id,
      date: date(line.date),
      type: line.type,
      reference: line.reference,
      description: line.description,
      debit: money(line.debitCents),
      credit: money(line.creditCents),
    })),
  };
}

/** Read-only: the document carries no script (decision 049). */
export const handle = STATIC_PAGE;

export default function Statements() {
  const { account, query, pages, total, totals, lines, ageing, pdf } = useLoaderData<typeof loader>();
  const t = useT();
  const first = total === 0 ? 0 : (query.page - 1) * STATEMENT_PAGE_SIZE + 1;
  const last = Math.min(query.page * STATEMENT_PAGE_SIZE, total);
  return (
    <>
      <h1>{t("statements.title")}</h1>
      <p>
        {account.name} ({account.number})
      </p>
      <Filters
        label={t("statements.filter")}
        actions={
          <>
            <button type="submit" className={button}>
              {t("statements.show")}
            </button>
            <Link to="/statements?page=1" className={secondaryButton}>
              {t("statements.clear")}
            </Link>
          </>
        }
      >
        <div className={formStyles.field}>
          <label className={formStyles.label} htmlFor="from">
            {t("statements.from")}
          </label>
          <input id="from" name="from" type="date" defaultValue={query.from} className={formStyles.input} />
        </div>
        <div className={formStyles.field}>
          <label className={formStyles.label} htmlFor="to">
            {t("statements.to")}
          </label>
          <input id="to" name="to" type="date" defaultValue={query.to} className={formStyles.input} />
        </div>
        <FilterSelect
          id="type"
          label={t("statements.type")}
          defaultValue={query.type}
          options={[
            { value: "", label: t("statements.allTypes") },
            ...STATEMENT_TYPE_OPTIONS.map((type) => ({ value: type, label: t(`statements.type.${type}`) })),
          ]}
        />
        <FilterSelect
          id="sort"
          label={t("statements.sort")}
          defaultValue={query.sort}
          options={(Object.keys(STATEMENT_SORT_OPTIONS) as (keyof typeof STATEMENT_SORT_OPTIONS)[]).map((key) => ({
            value: key,
            label: t(`statements.sort.${key}`),
          }))}
        />
      </Filters>

      <p role="status">
        {total === 0
          ? t("statements.none")
          : t("statements.showing", {
              first: formatNumber(first),
              last: formatNumber(last),
              total: formatNumber(total),
              debit: totals.debit,
              credit: totals.credit,
              net: totals.net,
            })}
      </p>
      {total > 0 ? (
        <div className={styles.scroll} tabIndex={0} role="region" aria-label={t("statements.lines")}>
          <StackedTable
            rows={lines}
            rowKey={(line) => line.id}
            columns={[
              { label: t("statements.date"), cell: (line) => line.date },
              { label: t("statements.type"), cell: (line) => t(`statements.type.${line.type}`) },
              { label: t("statements.reference"), kind: "title", cell: (line) => line.reference },
              { label: t("statements.description"), cell: (line) => line.description },
              { label: t("statements.charges"), kind: "amount", cell: (line) => line.debit },
              { label: t("statements.credits"), kind: "amount", cell: (line) => line.credit },
            ]}
          />
        </div>
      ) : null}
      <Pager
        label={t("statements.pages")}
        page={query.page}
        pages={pages}
        hrefFor={(page) => `/statements${statementSearch(query, { page })}`}
      />
      <AgeingTable ageing={ageing} overdueHref={OVERDUE_INVOICES} />
      <h2>{t("statements.documents")}</h2>
      {pdf ? (
        <p>
          <a href={pdf.href} download className={secondaryButton} aria-describedby="statement-pdf-hint">
            {t("pdf.statement.download")}
          </a>{" "}
          <span id="statement-pdf-hint">{t("pdf.statement.download.hint", { from: pdf.from, to: pdf.to })}</span>
        </p>
      ) : (
        <p>{t("pdf.statement.tooLong")}</p>
      )}
      <p>
        <a href={`/statements/download${statementSearch(query, { page: 1 })}`} download>
          {t("statements.download")}
        </a>
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("statements.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.statements", data.businessName),
  ];
};
