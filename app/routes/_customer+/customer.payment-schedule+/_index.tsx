import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ScheduleList } from "../components/ScheduleList";
import * as table from "~/components/Table.css";
import { useT } from "~/components/useT";
import { formatMoney } from "~/lib/format";
import { metaTranslator } from "~/lib/i18n";
import { acceptancePath, progressPath } from "~/lib/schedule-paths";
import {
  pageDates,
  resolveSelectedAccount,
  hasPortalAccess,
  requireSession,
  updateSessionData,
  listSchedules,
} from "./payment-schedule.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/**
 * A signed-in contact's payment schedules (issue 15; decision 034), newest first, twenty a page.
 * A contact with portal access sees the selected account's (the account switcher changes it); a
 * customer-style contact, who has no switcher, sees those of every account they may act for.
 * A proposal opens its acceptance page, anything else its progress page. A session is all this
 * page needs (the customer-style rule of spec §2's `/customer/payment-schedule/[...slug]`).
 */
const PAGE = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireSession(request);
  const portal = hasPortalAccess(session.contact);
  const account = portal
    ? await resolveSelectedAccount(branding.businessId, session, (accountId) =>
        updateSessionData(session, { selectedAccount: accountId }),
      )
    : null;
  const url = new URL(request.url);
  const cursor = url.searchParams.get("cursor");
  const query = account ? { accountId: account.accountId } : { visibleTo: session.contact.id };
  // A cursor that is not one of ours starts again at the first page.
  const page = await listSchedules(branding.businessId, { ...query, limit: PAGE, cursor }).catch(() =>
    listSchedules(branding.businessId, { ...query, limit: PAGE }),
  );
  const money = (cents: number, currency: string) => formatMoney(cents, { currency });
  const { date } = await pageDates(request, branding);
  return {
    businessName: branding.businessName,
    items: page.items.map((item) => ({
      reference: item.reference,
      href: item.state === "proposed" ? acceptancePath(item.reference) : progressPath(item.reference),
      description: item.description,
      account: `${item.account.name} (${item.account.number})`,
      state: item.state,
      total: money(item.totalCents, item.currency),
      remaining: money(item.remainingCents, item.currency),
      next:
        item.nextInstalment && (item.state === "active" || item.state === "arrears" || item.state === "proposed")
          ? `${money(item.nextInstalment.amountCents, item.currency)}, ${date(item.nextInstalment.dueDate)}`
          : null,
    })),
    olderHref: page.nextCursor ? `?cursor=${encodeURIComponent(page.nextCursor)}` : null,
    newestHref: cursor ? url.pathname : null,
  };
}

/** Read-only: a list of the account's schedules, each a link (decision 049). */
export const handle = STATIC_PAGE;

export default function PaymentSchedules() {
  const { businessName, items, olderHref, newestHref } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{t("schedules.list.title")}</h1>
      <p>{t("schedules.list.intro", { business: businessName })}</p>
      {items.length === 0 ? (
        <p>{t("schedules.list.none")}</p>
      ) : (
        <ScheduleList items={items} label={t("schedules.list.table")} />
      )}
      {olderHref || newestHref ? (
        <nav aria-label={t("schedules.list.pages")} className={table.pager}>
          {newestHref ? (
            <Link to={newestHref} className={table.pagerLink}>
              {t("schedules.list.newest")}
            </Link>
          ) : null}
          {olderHref ? (
            <Link to={olderHref} rel="next" className={table.pagerLink}>
              {t("schedules.list.older")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("schedules.list.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.schedules", data.businessName),
  ];
};
