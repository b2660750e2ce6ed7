import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { todayIn } from "~/lib/dates";
import { formatMoney } from "~/lib/format";
import {
  pageDates,
  getAccountTiles,
  requireAccountPage,
  getAccountPayId,
  getPageContext,
  hasPortalAccess,
  now,
  payNowChoice,
  payNowHref,
  CUSTOMER_HOME_PATH,
} from "./portal.server";
import * as styles from "./components/Tiles.css";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { PayIdPanel } from "~/components/PayIdPanel";
import { EnhancedCopy } from "./components/EnhancedCopy";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/** The statement's balance by age: how long what the Overdue tile counts is past due (decision 090). */
const AGEING = "/statements#ageing";
const INVOICES = "/customer/invoices-and-payments/invoices";

/**
 * The dashboard (spec §4 steps 3–5) answers "what do I owe and how do I pay" (issue 31, decision
 * 072): the amount due and what of it is overdue first, then one full-width "Pay now" to the pay
 * page with the overdue invoices (else everything payable), in a phone's first screen. The tiles
 * that name something link to it: overdue → the statement's balance by age (decision 090), which
 * links on to the overdue invoices; last payment → its receipt. All computed on the server. A contact limited to customer-style routes is sent to their
 * own home instead (decision 033).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // A verified contact without accessCustomerPortal has a home of their own (decision 033):
  // sign-in, "Go home" and the brand link all lead here, so they land there, not on a 404.
  const context = await getPageContext(request);
  const contact = context.session?.contact;
  if (contact?.verified && !hasPortalAccess(contact)) throw redirect(CUSTOMER_HOME_PATH);
  const { branding, session, account } = await requireAccountPage(request);
  const today = todayIn(branding.timeZone, now());
  const [tiles, payId, choice] = await Promise.all([
    getAccountTiles(branding.businessId, account.accountId, today),
    getAccountPayId({
      businessId: branding.businessId,
      hostname: branding.hostname,
      accountId: account.accountId,
      accountNumber: account.number,
    }),
    payNowChoice({ businessId: branding.businessId, accountId: account.accountId }, today),
  ]);
  const money = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const { date } = await pageDates(request, branding);
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
        ? {
            amount: money(tiles.lastPayment.amountCents),
            date: date(tiles.lastPayment.date),
            // Its receipt where the portal took it; else the statement, where every payment is.
            href: tiles.lastPayment.hasReceipt
              ? `/payment/complete/${encodeURIComponent(tiles.lastPayment.reference)}`
              : "/statements",
            hasReceipt: tiles.lastPayment.hasReceipt,
          }
        : null,
    },
    // What "Pay now" opens, said beside it; null when nothing can be paid online.
    payNow:
      choice.invoiceIds.length > 0
        ? {
            href: payNowHref(choice)!,
            overdue: choice.overdue,
            count: choice.invoiceIds.length,
            amount: money(choice.cents),
          }
        : null,
    notPayable: choice.notPayableCount,
  };
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function Dashboard() {
  const { firstName, account, tiles, payId, payNow, notPayable } = useLoaderData<typeof loader>();
  const t = useT();
  const owing = tiles.openInvoices > 0;
  return (
    <>
      <h1 className={styles.heading}>
        {firstName ? t("dashboard.welcome", { name: firstName }) : t("dashboard.welcomeAnon")}
      </h1>
      <p>
        <strong>{account.name}</strong> ({account.number}
        {account.isChild ? `, ${t("dashboard.branch")}` : ""})
      </p>
      {/* What is owed and how to pay it, before anything else (issue 31). */}
      <section className={styles.due} aria-labelledby="amount-due">
        <h2 id="amount-due" className={styles.dueLabel}>
          {t("dashboard.amountDue")}
        </h2>
        <p className={styles.dueValue}>{tiles.balance}</p>
        {owing ? (
          <p className={styles.dueNote}>
            {tiles.openInvoices === 1
              ? t("dashboard.openInvoices.one")
              : t("dashboard.openInvoices.other", { count: tiles.openInvoices })}
            {tiles.overdueInvoices > 0 ? (
              <>
                {" · "}
                <strong className={styles.overdueNote}>
                  {t("dashboard.amountDue.overdue", { amount: tiles.overdue })}
                </strong>
              </>
            ) : null}
          </p>
        ) : null}
        {payNow ? (
          <>
            <Link to={payNow.href} className={styles.payNow} aria-describedby="pay-now-note">
              {t("dashboard.payNow")}
            </Link>
            <p id="pay-now-note" className={styles.dueNote}>
              {payNow.overdue
                ? payNow.count === 1
                  ? t("dashboard.payNow.overdue.one", { amount: payNow.amount })
                  : t("dashboard.payNow.overdue.other", { count: payNow.count, amount: payNow.amount })
                : payNow.count === 1
                  ? t("dashboard.payNow.all.one", { amount: payNow.amount })
                  : t("dashboard.payNow.all.other", { count: payNow.count, amount: payNow.amount })}
            </p>
          </>
        ) : (
          <p className={styles.calm}>{owing ? t("dashboard.nothingPayable") : t("dashboard.nothingOwing")}</p>
        )}
        {payNow && notPayable > 0 ? (
          <p className={styles.dueNote}>
            {notPayable === 1 ? t("dashboard.notPayable.one") : t("dashboard.notPayable.other", { count: notPayable })}
          </p>
        ) : null}
      </section>
      <ul className={styles.tiles} aria-label={t("dashboard.summary")}>
        <li>
          <Tile
            href={tiles.overdueInvoices > 0 ? AGEING : null}
            hint={t("dashboard.seeAgeing")}
            label={t("dashboard.overdue")}
            value={tiles.overdue}
            note={
              tiles.overdueInvoices === 0
                ? t("dashboard.overdue.none")
                : tiles.overdueInvoices === 1
                  ? t("dashboard.overdue.one")
                  : t("dashboard.overdue.other", { count: tiles.overdueInvoices })
            }
          />
        </li>
        <li>
          <Tile
            href={tiles.nextDue ? INVOICES : null}
            hint={t("dashboard.seeNextDue")}
            label={t("dashboard.nextDue")}
            value={tiles.nextDue ? tiles.nextDue.amount : "—"}
            note={tiles.nextDue ? t("dashboard.on", { date: tiles.nextDue.date }) : t("dashboard.nextDue.none")}
          />
        </li>
        <li>
          <Tile
            href={tiles.lastPayment?.href ?? null}
            hint={tiles.lastPayment?.hasReceipt ? t("dashboard.seeReceipt") : t("dashboard.seeOnStatement")}
            label={t("dashboard.lastPayment")}
            value={tiles.lastPayment ? tiles.lastPayment.amount : "—"}
            note={
              tiles.lastPayment ? t("dashboard.on", { date: tiles.lastPayment.date }) : t("dashboard.lastPayment.none")
            }
          />
        </li>
      </ul>
      {payId ? <PayIdPanel data={payId} copy={(text) => <EnhancedCopy text={text} />} /> : null}
      <p>
        <Link to="/statements">{t("dashboard.seeStatement")}</Link>
      </p>
    </>
  );
}

/**
 * One tile: a link to what it counts when it says something (CONVENTIONS.md, "every figure a
 * person sees is a figure they can act on"), plain text when it says "nothing".
 */
function Tile({
  href,
  hint,
  label,
  value,
  note,
}: {
  href: string | null;
  hint: string;
  label: string;
  value: string;
  note: string;
}) {
  const body = (
    <>
      <span className={styles.tileLabel}>{label}</span>
      <span className={styles.tileValue}>{value}</span>
      <span className={styles.tileNote}>{note}</span>
    </>
  );
  if (!href) return <div className={styles.tile}>{body}</div>;
  return (
    <Link to={href} className={`${styles.tile} ${styles.tileLink}`}>
      {body}
      <span className={styles.tileHint}>{hint}</span>
    </Link>
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
