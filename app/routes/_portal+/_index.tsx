import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { todayIn } from "~/lib/dates";
import { formatDate, formatMoney } from "~/lib/format";
import {
  getAccountTiles,
  requireAccountPage,
  getAccountPayId,
  getPageContext,
  hasPortalAccess,
  now,
  CUSTOMER_HOME_PATH,
} from "./portal.server";
import * as styles from "./components/Tiles.css";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { PayIdPanel } from "~/components/PayIdPanel";
import { metaDescription } from "~/lib/meta";

/**
 * The dashboard (spec §4 steps 3–5): the selected account's tiles — what is owing, what is
 * overdue, what is due next, and the last payment — all computed on the server. A contact
 * limited to customer-style routes is sent to their own home instead (decision 033).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // A verified contact without accessCustomerPortal has a home of their own (decision 033):
  // sign-in, "Go home" and the brand link all lead here, so they land there, not on a 404.
  const context = await getPageContext(request);
  const contact = context.session?.contact;
  if (contact?.verified && !hasPortalAccess(contact)) throw redirect(CUSTOMER_HOME_PATH);
  const { branding, session, account } = await requireAccountPage(request);
  const [tiles, payId] = await Promise.all([
    getAccountTiles(branding.businessId, account.accountId, todayIn(branding.timeZone, now())),
    getAccountPayId({
      businessId: branding.businessId,
      hostname: branding.hostname,
      accountId: account.accountId,
      accountNumber: account.number,
    }),
  ]);
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const date = (value: string) => formatDate(value, { timeZone: branding.timeZone });
  return {
    businessName: branding.businessName,
    firstName: session.contact.firstName,
    account: { name: account.name, number: account.number, isChild: account.isChild },
    // The account's own PayID to pay into (issue 13); null where the business has none.
    payId: payId.status === "off" ? null : payId,
    tiles: {
      balance: money(tiles.balanceCents),
      openInvoices: tiles.openInvoices,
      overdue: money(tiles.overdueCents),
      overdueInvoices: tiles.overdueInvoices,
      nextDue: tiles.nextDue ? { amount: money(tiles.nextDue.amountCents), date: date(tiles.nextDue.date) } : null,
      lastPayment: tiles.lastPayment
        ? { amount: money(tiles.lastPayment.amountCents), date: date(tiles.lastPayment.date) }
        : null,
    },
  };
}

export default function Dashboard() {
  const { firstName, account, tiles, payId } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{firstName ? t("dashboard.welcome", { name: firstName }) : t("dashboard.welcomeAnon")}</h1>
      <p>
        <strong>{account.name}</strong> ({account.number}
        {account.isChild ? `, ${t("dashboard.branch")}` : ""})
      </p>
      <ul className={styles.tiles} aria-label={t("dashboard.summary")}>
        <li className={styles.tile}>
          <span className={styles.tileLabel}>{t("dashboard.balance")}</span>
          <span className={styles.tileValue}>{tiles.balance}</span>
          <span className={styles.tileNote}>
            {tiles.openInvoices === 1
              ? t("dashboard.openInvoices.one")
              : t("dashboard.openInvoices.other", { count: tiles.openInvoices })}
          </span>
        </li>
        <li className={styles.tile}>
          <span className={styles.tileLabel}>{t("dashboard.overdue")}</span>
          <span className={styles.tileValue}>{tiles.overdue}</span>
          <span className={styles.tileNote}>
            {tiles.overdueInvoices === 0
              ? t("dashboard.overdue.none")
              : tiles.overdueInvoices === 1
                ? t("dashboard.overdue.one")
                : t("dashboard.overdue.other", { count: tiles.overdueInvoices })}
          </span>
        </li>
        <li className={styles.tile}>
          <span className={styles.tileLabel}>{t("dashboard.nextDue")}</span>
          <span className={styles.tileValue}>{tiles.nextDue ? tiles.nextDue.amount : "—"}</span>
          <span className={styles.tileNote}>
            {tiles.nextDue ? t("dashboard.on", { date: tiles.nextDue.date }) : t("dashboard.nextDue.none")}
          </span>
        </li>
        <li className={styles.tile}>
          <span className={styles.tileLabel}>{t("dashboard.lastPayment")}</span>
          <span className={styles.tileValue}>{tiles.lastPayment ? tiles.lastPayment.amount : "—"}</span>
          <span className={styles.tileNote}>
            {tiles.lastPayment ? t("dashboard.on", { date: tiles.lastPayment.date }) : t("dashboard.lastPayment.none")}
          </span>
        </li>
      </ul>
      {payId ? <PayIdPanel data={payId} /> : null}
      <p>
        <Link to="/statements">{t("dashboard.seeStatement")}</Link>
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("dashboard.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.dashboard", data.businessName),
  ];
};
