import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { button, secondaryButton } from "~/components/Button.css";
import { ErrorSummary } from "~/components/ErrorSummary";
import { Filters, FilterSelect, Pager } from "~/components/ListControls";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { cardName } from "~/lib/card";
import { todayIn } from "~/lib/dates";
import { formatMoney, formatNumber } from "~/lib/format";
import { invoiceRowStatus } from "~/lib/invoice-status";
import {
  CHOOSE_ERROR,
  INVOICE_FILTER_OPTIONS,
  INVOICE_PAGE_SIZE,
  INVOICE_SORT_OPTIONS,
  invoiceSearch,
  invoiceStatusKey as statusKey,
  parseInvoiceQuery,
} from "~/lib/invoice-query";
import {
  pageDates,
  listInvoices,
  listPayments,
  now,
  payNowChoice,
  requireCustomerAccountPage,
  updateSessionData,
} from "./invoices-and-payments.server";
import { metaTranslator } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { InvoiceRows } from "./components/InvoiceRows";
import * as rowStyles from "./components/InvoiceRows.css";

/**
 * No client runtime (decisions 049, 052): the list's filter and its "pay selected" form are GET
 * forms, its pager and invoices links; nothing on it needs script.
 */
export const handle = STATIC_PAGE;

const PATH = "/customer/invoices-and-payments/invoices";

/**
 * The selected account's invoices (status, dates, amount, balance, days overdue), filtered,
 * sorted and paged by the query string (the session's invoicePagination remembers it), with
 * the account's latest payments and what each paid. Choosing invoices to pay is a plain GET
 * form to the pay page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session, account } = await requireCustomerAccountPage(request);
  const url = new URL(request.url);
  const remembered = (session.data.invoicePagination as { invoices?: string } | undefined)?.invoices;
  const error = url.searchParams.get("error") === CHOOSE_ERROR ? CHOOSE_ERROR : null;
  const asked = new URLSearchParams(url.searchParams);
  asked.delete("error");
  if (asked.size === 0 && remembered) {
    throw redirect(`${PATH}${remembered}${error ? `&error=${error}#errors` : ""}`);
  }
  const query = parseInvoiceQuery(url.searchParams);
  const search = invoiceSearch(query);
  if (search !== (remembered ?? "")) {
    await updateSessionData(session, {
      invoicePagination: { ...(session.data.invoicePagination ?? {}), invoices: search },
    });
  }
  const scope = { businessId: branding.businessId, accountId: account.accountId };
  const today = todayIn(branding.timeZone, now());
  const [page, payments, choice] = await Promise.all([
    listInvoices(scope, query, today),
    listPayments(scope),
    payNowChoice(scope, today),
  ]);
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const { date } = await pageDates(request, branding);
  return {
    businessName: branding.businessName,
    account: { name: account.name, number: account.number },
    query,
    total: page.total,
    pages: Math.max(1, Math.ceil(page.total / INVOICE_PAGE_SIZE)),
    capped: page.capped,
    balance: page.balanceCents === null ? null : money(page.balanceCents),
    error,
    // "Pay everything owing" leaves these out; the page says so beside it.
    notPayable: choice.notPayableCount,
    anyPayable: choice.invoiceIds.length > 0,
    invoices: page.items.map((invoice) => {
      const { key, params, payable, overdue } = invoiceRowStatus(invoice, today, date);
      return {
        id: invoice.id,
        number: invoice.number,
        issueDate: date(invoice.issueDate),
        dueDate: date(invoice.dueDate),
        amount: money(invoice.amountCents),
        balance: money(invoice.balanceCents),
        status: { key, params },
        payable,
        overdue,
      };
    }),
    payments: payments.map((payment) => ({
      id: payment.id,
      reference: payment.reference,
      status: payment.status,
      date: date(payment.createdAt),
      amount: money(payment.amountCents),
      method:
        payment.method === "promise" ? null : payment.cardLast4 ? cardName(payment.cardBrand, payment.cardLast4) : "",
      invoices: payment.allocations.map((a) => `${a.number} (${money(a.amountCents)})`).join(", "),
    })),
  };
}

export default function Invoices() {
  const { account, query, total, capped, pages, balance, invoices, payments, error, notPayable, anyPayable } =
    useLoaderData<typeof loader>();
  const t = useT();
  const first = total === 0 ? 0 : (query.page - 1) * INVOICE_PAGE_SIZE + 1;
  const last = Math.min(query.page * INVOICE_PAGE_SIZE, total);
  const payableHere = invoices.some((invoice) => invoice.payable);
  return (
    <>
      <h1>{t("inv.title")}</h1>
      {error ? (
        // Under the heading, before everything else: the fragment #errors brings it into view without
        // script; with script it takes focus.
        <ErrorSummary id="errors" title={t("inv.error.title")} answer={error}>
          <li>
            <a href={payableHere ? "#invoice-list" : "#pay-all"}>{t("inv.error.choose")}</a>
          </li>
        </ErrorSummary>
      ) : null}
      <p>
        {account.name} ({account.number})
      </p>
      <Filters
        label={t("inv.filter")}
        actions={
          <button type="submit" className={button}>
            {t("inv.show")}
          </button>
        }
      >
        <FilterSelect
          id="status"
          label={t("inv.filter.status")}
          defaultValue={query.filter}
          options={INVOICE_FILTER_OPTIONS.map((option) => ({
            value: option,
            label:
              option === "outstanding"
                ? t("inv.filter.outstanding")
                : option === "overdue"
                  ? t("inv.filter.overdue")
                  : option === "all"
                    ? t("inv.filter.all")
                    : t(statusKey(Number(option))),
          }))}
        />
        <FilterSelect
          id="sort"
          label={t("inv.sort")}
          defaultValue={query.sort}
          options={INVOICE_SORT_OPTIONS.map((option) => ({ value: option, label: t(`inv.sort.${option}`) }))}
        />
      </Filters>
      <p role="status">
        {invoices.length === 0
          ? t("inv.none")
          : capped || balance === null
            ? t("inv.showingMany", { first: formatNumber(first), last: formatNumber(last), total: formatNumber(total) })
            : t("inv.showing", {
                first: formatNumber(first),
                last: formatNumber(last),
                total: formatNumber(total),
                balance,
              })}
      </p>
      {anyPayable ? (
        <p className={rowStyles.payAll}>
          <Link
            id="pay-all"
            to="/customer/invoices-and-payments/pay?all=1"
            className={secondaryButton}
            aria-describedby={notPayable > 0 ? "left-out" : undefined}
          >
            {t("inv.payAll")}
          </Link>
          {notPayable > 0 ? (
            <span id="left-out" className={rowStyles.leftOut}>
              {notPayable === 1 ? t("inv.payAll.leftOut.one") : t("inv.payAll.leftOut.other", { count: notPayable })}
            </span>
          ) : null}
        </p>
      ) : null}
      {invoices.length > 0 ? (
        <Form method="get" action="/customer/invoices-and-payments/pay" className={rowStyles.form}>
          <div id="invoice-list" className={styles.scroll} tabIndex={0} role="region" aria-label={t("inv.list")}>
            <InvoiceRows rows={invoices} />
          </div>
          {payableHere ? (
            <div className={rowStyles.bar}>
              <span className={rowStyles.count}>{t("inv.chosen")}</span>
              <button type="submit" className={`${button} ${rowStyles.barButton}`}>
                {t("inv.paySelected")}
              </button>
            </div>
          ) : null}
        </Form>
      ) : null}
      <Pager
        label={t("inv.pages")}
        page={query.page}
        pages={pages}
        hrefFor={(page) => `${PATH}${invoiceSearch(query, { page })}`}
      />

      <h2>{t("inv.payments")}</h2>
      {payments.length === 0 ? (
        <p>{t("inv.payments.none")}</p>
      ) : (
        <ul className={styles.list} aria-label={t("inv.payments")}>
          {payments.map((payment) => (
            <li key={payment.id} className={styles.listItem}>
              <div>
                <strong>{payment.amount}</strong> · {payment.date} ·{" "}
                {t(
                  payment.status === "succeeded"
                    ? "inv.payment.paid"
                    : payment.status === "promised"
                      ? "inv.payment.promised"
                      : payment.status === "submitted"
                        ? "paytoPay.payments.pending"
                        : "inv.payment.failed",
                )}
                {payment.method ? ` · ${payment.method}` : ""}
                <br />
                {t("inv.payment.for", { invoices: payment.invoices })}
              </div>
              {payment.status === "failed" ? null : (
                <Link to={`/payment/complete/${payment.reference}`} className={secondaryButton}>
                  {t("inv.payment.receipt", { reference: payment.reference })}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("inv.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.invoices", data.businessName),
  ];
};
