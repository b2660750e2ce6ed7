import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { button } from "~/components/Button.css";
import * as styles from "~/components/Table.css";
import * as homeStyles from "~/styles/customer-home.css";
import { useT } from "~/components/useT";
import { formatMoney } from "~/lib/format";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { isPayableState } from "~/lib/payment-request-state";
import {
  pageDates,
  businessToday,
  requirePageAccess,
  HOME_ACCOUNTS_PAGE,
  listAdhocAccounts,
  listRecentReceipts,
  listRequestsForContact,
  HOME_AGREEMENTS,
  homeAgreementItems,
  listOffersFor,
  listSchedulesForHome,
  accountNotFound,
  HOME_INVOICES,
  listPayableInvoicesForContact,
  payableInvoiceAccount,
  readForm,
  requireSameOrigin,
  updateSessionData,
} from "./customer.server";
import { HomeAgreements } from "./components/HomeAgreements";
import { ScheduleList } from "./components/ScheduleList";
import { acceptancePath, progressPath, SCHEDULES_LIST_PATH } from "~/lib/schedule-paths";
import { metaDescription } from "~/lib/meta";
import { StackedTable } from "~/components/StackedTable";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/**
 * The home of a contact without `accessCustomerPortal` (issue 14; decisions 033 and 073), on the
 * spec's customer-style pattern /payment/payment-request/[slug] (this static route wins over the
 * request page's `$slug`; "all" is never a request reference). Sign-in and `/` send such a
 * contact here instead of "Page not found". What they are asked to act on comes first, each row
 * with its one primary action: the invoices they may pay (Pay), the payment requests addressed to
 * them (Pay while open), payment schedules proposed to them (Review) and agreements offered to
 * them (Review and accept); then the accounts they may pay any amount to and their latest
 * receipts. With nothing to act on, one empty state says what happens next and the empty
 * sections are left out. Contacts with portal access may open it too (it is a customer-style
 * route); their menu does not offer it.
 */
const MAX_ACCOUNT_SKIP = 10_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requirePageAccess(request);
  const contact = session!.contact;
  const url = new URL(request.url);
  const after = url.searchParams.get("after");
  const skipParam = Number(url.searchParams.get("accounts") ?? "0");
  // A page of accounts starts at a multiple of the page size; anything else starts at the first.
  const skip =
    Number.isSafeInteger(skipParam) && skipParam > 0 && skipParam <= MAX_ACCOUNT_SKIP
      ? skipParam - (skipParam % HOME_ACCOUNTS_PAGE)
      : 0;
  const settings = branding.adhoc;
  const [requests, accounts, receipts, agreements, schedules, invoices] = await Promise.all([
    listRequestsForContact(branding.businessId, contact.id, { after }),
    listAdhocAccounts(branding.businessId, contact.id, settings, { skip, request }),
    listRecentReceipts(branding.businessId, contact.id),
    listOffersFor(branding.businessId, { contactId: contact.id }, { limit: HOME_AGREEMENTS }),
    listSchedulesForHome(branding.businessId, contact.id),
    listPayableInvoicesForContact(branding.businessId, contact.id),
  ]);
  const money = (cents: number, currency = branding.currency) => formatMoney(cents, { currency });
  const { date } = await pageDates(request, branding);
  const today = businessToday(branding.timeZone);
  const requestItems = requests.items.map((item) => ({
    reference: item.reference,
    href: `/payment/payment-request/${encodeURIComponent(item.reference)}`,
    description: item.description,
    account: `${item.accountName} (${item.accountNumber})`,
    remaining: money(item.remainingCents, item.currency),
    due: item.dueDate ? date(item.dueDate) : null,
    state: item.state,
    payable: isPayableState(item.state) && item.remainingCents > 0,
  }));
  const scheduleItems = schedules.map((item) => ({
    reference: item.reference,
    href: item.state === "proposed" ? acceptancePath(item.reference) : progressPath(item.reference),
    description: item.description,
    account: `${item.account.name} (${item.account.number})`,
    state: item.state,
    total: money(item.totalCents, item.currency),
    remaining: money(item.remainingCents, item.currency),
    next: item.next ? `${money(item.next.amountCents, item.currency)}, ${date(item.next.dueDate)}` : null,
  }));
  const agreementItems = homeAgreementItems(agreements.items);
  // Nothing to pay or accept on any list: the page leads with what happens next instead.
  const nothingToDo =
    invoices.items.length === 0 &&
    !requestItems.some((item) => item.payable) &&
    !scheduleItems.some((item) => item.state === "proposed") &&
    !agreementItems.some((item) => item.state === "offered");
  return {
    businessName: branding.businessName,
    firstName: contact.firstName,
    nothingToDo,
    invoices: {
      items: invoices.items.map((invoice) => ({
        id: invoice.id,
        number: invoice.number,
        description: invoice.description,
        account: `${invoice.accountName} (${invoice.accountNumber})`,
        due: date(invoice.dueDate),
        overdue: invoice.dueDate < today,
        balance: money(invoice.balanceCents),
      })),
      // How many are listed when there are more (the server's page size, told to the page).
      more: invoices.more ? HOME_INVOICES : null,
    },
    requests: {
      items: requestItems,
      olderHref: requests.nextAfter ? `?after=${encodeURIComponent(requests.nextAfter)}` : null,
      newestHref: after ? url.pathname : null,
    },
    adhoc: {
      enabled: settings.enabled,
      min: settings.enabled ? money(settings.minCents) : "",
      max: settings.enabled ? money(settings.maxCents) : "",
      accounts: accounts.items.map((account) => ({
        href: `/payment/adhoc/${account.accountId}`,
        name: `${account.name} (${account.number})`,
      })),
      moreHref: accounts.more ? `?accounts=${skip + HOME_ACCOUNTS_PAGE}#adhoc` : null,
      firstHref: skip > 0 ? `${url.pathname}#adhoc` : null,
    },
    // Payment schedules (issue 15): a proposal opens its acceptance page, any other its progress.
    schedules: scheduleItems,
    receipts: receipts.map((receipt) => ({
      reference: receipt.reference,
      href: `/payment/complete/${encodeURIComponent(receipt.reference)}`,
      date: date(receipt.date),
      amount: money(receipt.amountCents, receipt.currency),
      status: receipt.status,
      payerReference: receipt.payerReference,
    })),
    agreements: agreementItems,
  };
}

/**
 * An invoice's Pay (decision 073): the pay page pays the selected account's invoices, and a
 * customer-style contact has no account switcher, so this plain POST makes the invoice's account
 * the selected one and goes on to the pay page with that invoice chosen (POST/redirect/GET, no
 * script needed). An invoice the contact may not pay — another contact's account, another
 * business's, paid, disputed or on hold — is "Page not found" and changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, session } = await requirePageAccess(request);
  const form = await readForm(request);
  if (form.get("intent") !== "pay-invoice") throw data({ reason: "unknown-intent" }, { status: 400 });
  const invoiceId = String(form.get("invoiceId") ?? "");
  const accountId = await payableInvoiceAccount(branding.businessId, session!.contact.id, invoiceId);
  if (!accountId) throw accountNotFound();
  if (session!.data.selectedAccount !== accountId) {
    await updateSessionData(session!, { selectedAccount: accountId, invoicePagination: undefined });
  }
  return redirect(`/customer/invoices-and-payments/pay?invoice=${encodeURIComponent(invoiceId)}`);
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function CustomerHome() {
  const { businessName, firstName, nothingToDo, invoices, requests, adhoc, receipts, agreements, schedules } =
    useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{t("home.title")}</h1>
      <p>
        {firstName ? t("home.welcome", { name: firstName }) : t("home.welcomeAnon")}.{" "}
        {t("home.intro", { business: businessName })}
      </p>

      {nothingToDo ? (
        <section aria-labelledby="home-empty" className={homeStyles.empty}>
          <h2 id="home-empty">{t("home.empty.title")}</h2>
          <p>{t("home.empty.text", { business: businessName })}</p>
          {adhoc.accounts.length > 0 ? (
            <p>
              <a href="#adhoc" className={styles.pagerLink}>
                {t("home.empty.adhoc")}
              </a>
            </p>
          ) : null}
        </section>
      ) : null}

      {invoices.items.length > 0 ? (
        <section aria-labelledby="home-invoices">
          <h2 id="home-invoices">{t("home.invoices")}</h2>
          <div className={styles.scroll} tabIndex={0} role="region" aria-label={t("home.invoices.table")}>
            <StackedTable
              rows={invoices.items}
              rowKey={(invoice) => invoice.id}
              columns={[
                {
                  label: t("home.invoices.number"),
                  kind: "title",
                  cell: (invoice) => (
                    <>
                      {invoice.number}
                      {invoice.description ? <span className={homeStyles.secondary}>{invoice.description}</span> : null}
                    </>
                  ),
                },
                { label: t("home.invoices.account"), cell: (invoice) => invoice.account },
                {
                  label: t("home.invoices.due"),
                  cell: (invoice) => (
                    <>
                      {invoice.due}
                      {invoice.overdue ? <span className={styles.badge}>{t("home.invoices.overdue")}</span> : null}
                    </>
                  ),
                },
                { label: t("home.invoices.balance"), kind: "amount", cell: (invoice) => invoice.balance },
                {
                  label: t("home.invoices.action"),
                  cell: (invoice) => (
                    <Form method="post">
                      <input type="hidden" name="intent" value="pay-invoice" />
                      <input type="hidden" name="invoiceId" value={invoice.id} />
                      <button
                        type="submit"
                        className={button}
                        aria-label={t("home.invoices.payLabel", { amount: invoice.balance, number: invoice.number })}
                      >
                        {t("home.invoices.pay", { amount: invoice.balance })}
                      </button>
                    </Form>
                  ),
                },
              ]}
            />
          </div>
          {invoices.more ? <p>{t("home.invoices.more", { count: invoices.more })}</p> : null}
          <p>
            <Link to="/customer/invoices-and-payments/invoices" className={styles.pagerLink}>
              {t("home.invoices.all")}
            </Link>
          </p>
        </section>
      ) : null}

      {nothingToDo && requests.items.length === 0 && !requests.newestHref ? null : (
        <section aria-labelledby="home-requests">
          <h2 id="home-requests">{t("home.requests")}</h2>
          {requests.items.length === 0 ? (
            <p>{t("home.requests.none")}</p>
          ) : (
            <div className={styles.scroll} tabIndex={0} role="region" aria-label={t("home.requests.table")}>
              <StackedTable
                rows={requests.items}
                rowKey={(item) => item.reference}
                columns={[
                  {
                    label: t("home.requests.reference"),
                    kind: "title",
                    cell: (item) => <Link to={item.href}>{item.reference}</Link>,
                  },
                  { label: t("home.requests.for"), cell: (item) => item.description },
                  { label: t("home.requests.account"), cell: (item) => item.account },
                  { label: t("home.requests.remaining"), kind: "amount", cell: (item) => item.remaining },
                  { label: t("home.requests.due"), cell: (item) => item.due ?? t("home.requests.noDue") },
                  {
                    label: t("home.requests.state"),
                    cell: (item) => <span className={styles.badge}>{t(`home.state.${item.state}` as MessageKey)}</span>,
                  },
                  {
                    label: t("home.requests.action"),
                    cell: (item) =>
                      item.payable ? (
                        <Link
                          to={item.href}
                          className={button}
                          aria-label={t("home.requests.payLabel", {
                            amount: item.remaining,
                            reference: item.reference,
                          })}
                        >
                          {t("home.requests.pay", { amount: item.remaining })}
                        </Link>
                      ) : (
                        <Link
                          to={item.href}
                          className={styles.pagerLink}
                          aria-label={t("home.requests.viewLabel", { reference: item.reference })}
                        >
                          {t("home.requests.view")}
                        </Link>
                      ),
                  },
                ]}
              />
            </div>
          )}
          {requests.olderHref || requests.newestHref ? (
            <nav aria-label={t("home.requests.pages")} className={styles.pager}>
              {requests.newestHref ? (
                <Link to={requests.newestHref} className={styles.pagerLink}>
                  {t("home.requests.newest")}
                </Link>
              ) : null}
              {requests.olderHref ? (
                <Link to={requests.olderHref} rel="next" className={styles.pagerLink}>
                  {t("home.requests.older")}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </section>
      )}

      {nothingToDo && schedules.length === 0 ? null : (
        <section aria-labelledby="home-payment-schedules">
          <h2 id="home-payment-schedules">{t("home.paymentSchedules")}</h2>
          {schedules.length === 0 ? (
            <p>{t("home.paymentSchedules.none", { business: businessName })}</p>
          ) : (
            <>
              <ScheduleList
                items={schedules}
                label={t("home.paymentSchedules.table")}
                action={{
                  label: t("home.schedules.action"),
                  cell: (item) =>
                    item.state === "proposed" ? (
                      <Link
                        to={item.href}
                        className={button}
                        aria-label={t("home.schedules.reviewLabel", { reference: item.reference })}
                      >
                        {t("home.schedules.review")}
                      </Link>
                    ) : null,
                }}
              />
              <p>
                <Link to={SCHEDULES_LIST_PATH} className={styles.pagerLink}>
                  {t("home.paymentSchedules.all")}
                </Link>
              </p>
            </>
          )}
        </section>
      )}

      {nothingToDo && agreements.length === 0 ? null : (
        <HomeAgreements businessName={businessName} items={agreements} />
      )}

      <section aria-labelledby="adhoc">
        <h2 id="adhoc">{t("home.adhoc")}</h2>
        {!adhoc.enabled ? (
          <p>{t("home.adhoc.off", { business: businessName })}</p>
        ) : adhoc.accounts.length === 0 ? (
          <p>{t("home.adhoc.noAccounts")}</p>
        ) : (
          <>
            <p>{t("home.adhoc.intro", { business: businessName, min: adhoc.min, max: adhoc.max })}</p>
            <ul className={styles.list}>
              {adhoc.accounts.map((account) => (
                <li key={account.href} className={styles.listItem}>
                  <Link to={account.href} className={styles.pagerLink}>
                    {t("home.adhoc.link", { account: account.name })}
                  </Link>
                </li>
              ))}
            </ul>
            {adhoc.moreHref || adhoc.firstHref ? (
              <nav aria-label={t("home.adhoc.pages")} className={styles.pager}>
                {adhoc.firstHref ? (
                  <Link to={adhoc.firstHref} className={styles.pagerLink}>
                    {t("home.adhoc.first")}
                  </Link>
                ) : null}
                {adhoc.moreHref ? (
                  <Link to={adhoc.moreHref} rel="next" className={styles.pagerLink}>
                    {t("home.adhoc.more")}
                  </Link>
                ) : null}
              </nav>
            ) : null}
          </>
        )}
      </section>

      <section aria-labelledby="home-receipts">
        <h2 id="home-receipts">{t("home.receipts")}</h2>
        {receipts.length === 0 ? (
          <p>{t("home.receipts.none")}</p>
        ) : (
          <ul className={styles.list} aria-label={t("home.receipts.list")}>
            {receipts.map((receipt) => (
              <li key={receipt.reference} className={styles.listItem}>
                <Link to={receipt.href} className={styles.pagerLink}>
                  {t("home.receipts.item", {
                    reference: receipt.reference,
                    date: receipt.date,
                    amount: receipt.amount,
                  })}
                </Link>
                {receipt.payerReference ? (
                  <span className={homeStyles.payerReference}>{receipt.payerReference}</span>
                ) : null}
                <span className={styles.badge}>{t(`home.receipts.status.${receipt.status}` as MessageKey)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("home.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.home", data.businessName),
  ];
};
