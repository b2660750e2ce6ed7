import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import * as styles from "~/components/Table.css";
import * as homeStyles from "~/styles/customer-home.css";
import { useT } from "~/components/useT";
import { formatDate, formatMoney } from "~/lib/format";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import {
  requirePageAccess,
  HOME_ACCOUNTS_PAGE,
  listAdhocAccounts,
  listRecentReceipts,
  listRequestsForContact,
  HOME_AGREEMENTS,
  homeAgreementItems,
  listOffersFor,
  listSchedulesForHome,
} from "./customer.server";
import { HomeAgreements } from "./components/HomeAgreements";
import { ScheduleList } from "./components/ScheduleList";
import { acceptancePath, progressPath, SCHEDULES_LIST_PATH } from "~/lib/schedule-paths";
import { metaDescription } from "~/lib/meta";
import { StackedTable } from "~/components/StackedTable";

/**
 * The home of a contact without `accessCustomerPortal` (issue 14; decision 033), on the spec's
 * customer-style pattern /payment/payment-request/[slug] (this static route wins over the
 * request page's `$slug`; "all" is never a request reference). Sign-in and `/` send such a
 * contact here instead of "Page not found". It lists what is addressed to them: payment requests
 * they are a recipient of, the accounts they may pay any amount to, their latest receipts, and
 * a section for schedules and agreements that says plainly there are none yet. Contacts with
 * portal access may open it too (it is a customer-style route); their menu does not offer it.
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
  const [requests, accounts, receipts, agreements, schedules] = await Promise.all([
    listRequestsForContact(branding.businessId, contact.id, { after }),
    listAdhocAccounts(branding.businessId, contact.id, settings, { skip }),
    listRecentReceipts(branding.businessId, contact.id),
    listOffersFor(branding.businessId, { contactId: contact.id }, { limit: HOME_AGREEMENTS }),
    listSchedulesForHome(branding.businessId, contact.id),
  ]);
  const money = (cents: number, currency = branding.currency) => formatMoney(cents, { currency });
  const date = (value: Date | string) => formatDate(value, { timeZone: branding.timeZone });
  return {
    businessName: branding.businessName,
    firstName: contact.firstName,
    requests: {
      items: requests.items.map((item) => ({
        reference: item.reference,
        description: item.description,
        account: `${item.accountName} (${item.accountNumber})`,
        remaining: money(item.remainingCents, item.currency),
        due: item.dueDate ? date(item.dueDate) : null,
        state: item.state,
      })),
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
    schedules: schedules.map((item) => ({
      reference: item.reference,
      href: item.state === "proposed" ? acceptancePath(item.reference) : progressPath(item.reference),
      description: item.description,
      account: `${item.account.name} (${item.account.number})`,
      state: item.state,
      total: money(item.totalCents, item.currency),
      remaining: money(item.remainingCents, item.currency),
      next: item.next ? `${money(item.next.amountCents, item.currency)}, ${date(item.next.dueDate)}` : null,
    })),
    receipts: receipts.map((receipt) => ({
      reference: receipt.reference,
      href: `/payment/complete/${encodeURIComponent(receipt.reference)}`,
      date: date(receipt.date),
      amount: money(receipt.amountCents, receipt.currency),
      status: receipt.status,
      payerReference: receipt.payerReference,
    })),
    agreements: homeAgreementItems(agreements.items),
  };
}

export default function CustomerHome() {
  const { businessName, firstName, requests, adhoc, receipts, agreements, schedules } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{t("home.title")}</h1>
      <p>
        {firstName ? t("home.welcome", { name: firstName }) : t("home.welcomeAnon")}.{" "}
        {t("home.intro", { business: businessName })}
      </p>

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
                  cell: (item) => (
                    <Link to={`/payment/payment-request/${encodeURIComponent(item.reference)}`}>{item.reference}</Link>
                  ),
                },
                { label: t("home.requests.for"), cell: (item) => item.description },
                { label: t("home.requests.account"), cell: (item) => item.account },
                { label: t("home.requests.remaining"), kind: "amount", cell: (item) => item.remaining },
                { label: t("home.requests.due"), cell: (item) => item.due ?? t("home.requests.noDue") },
                {
                  label: t("home.requests.state"),
                  cell: (item) => <span className={styles.badge}>{t(`home.state.${item.state}` as MessageKey)}</span>,
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

      <HomeAgreements businessName={businessName} items={agreements} />

      <section aria-labelledby="home-payment-schedules">
        <h2 id="home-payment-schedules">{t("home.paymentSchedules")}</h2>
        {schedules.length === 0 ? (
          <p>{t("home.paymentSchedules.none", { business: businessName })}</p>
        ) : (
          <>
            <ScheduleList items={schedules} label={t("home.paymentSchedules.table")} />
            <p>
              <Link to={SCHEDULES_LIST_PATH} className={styles.pagerLink}>
                {t("home.paymentSchedules.all")}
              </Link>
            </p>
          </>
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
