import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { todayIn } from "~/lib/dates";
import { formatDate, formatMoney } from "~/lib/format";
import { getAccountTiles } from "~/services/accounts.server";
import { requireAccountPage } from "~/services/portal.server";
import * as styles from "~/components/Tiles.css";

/**
 * The dashboard (spec §4 steps 3–5): the selected account's tiles — what is owing, what is
 * overdue, what is due next, and the last payment — all computed on the server.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session, account } = await requireAccountPage(request);
  const tiles = await getAccountTiles(branding.businessId, account.accountId, todayIn(branding.timeZone));
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const date = (value: string) => formatDate(value, { timeZone: branding.timeZone });
  return {
    businessName: branding.businessName,
    firstName: session.contact.firstName,
    account: { name: account.name, number: account.number, isChild: account.isChild },
    tiles: {
      balance: money(tiles.balanceCents),
      openInvoices: tiles.openInvoices,
      overdue: money(tiles.overdueCents),
      overdueInvoices: tiles.overdueInvoices,
      nextDue: tiles.nextDue ? { amount: money(tiles.nextDue.amountCents), date: date(tiles.nextDue.date) } : null,
      lastPayment: tiles.lastPayment ? { amount: money(tiles.lastPayment.amountCents), date: date(tiles.lastPayment.date) } : null,
    },
  };
}

export default function Dashboard() {
  const { firstName, account, tiles } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{firstName ? `Welcome, ${firstName}` : "Welcome"}</h1>
      <p>
        <strong>{account.name}</strong> ({account.number}
        {account.isChild ? ", a branch account" : ""})
      </p>
      <ul className={styles.tiles} aria-label="Account summary">
        <li className={styles.tile}>
          <span className={styles.tileLabel}>Balance owing</span>
          <span className={styles.tileValue}>{tiles.balance}</span>
          <span className={styles.tileNote}>
            {tiles.openInvoices === 1 ? "1 open invoice" : `${tiles.openInvoices} open invoices`}
          </span>
        </li>
        <li className={styles.tile}>
          <span className={styles.tileLabel}>Overdue</span>
          <span className={styles.tileValue}>{tiles.overdue}</span>
          <span className={styles.tileNote}>
            {tiles.overdueInvoices === 0
              ? "Nothing overdue"
              : tiles.overdueInvoices === 1
                ? "1 invoice past its due date"
                : `${tiles.overdueInvoices} invoices past their due date`}
          </span>
        </li>
        <li className={styles.tile}>
          <span className={styles.tileLabel}>Next due</span>
          <span className={styles.tileValue}>{tiles.nextDue ? tiles.nextDue.amount : "—"}</span>
          <span className={styles.tileNote}>{tiles.nextDue ? `on ${tiles.nextDue.date}` : "Nothing coming due"}</span>
        </li>
        <li className={styles.tile}>
          <span className={styles.tileLabel}>Last payment</span>
          <span className={styles.tileValue}>{tiles.lastPayment ? tiles.lastPayment.amount : "—"}</span>
          <span className={styles.tileNote}>{tiles.lastPayment ? `on ${tiles.lastPayment.date}` : "No payments yet"}</span>
        </li>
      </ul>
      <p>
        <Link to="/statements">See the statement</Link>
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Dashboard · ${data.businessName}` : "Page not found" }];
