import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import {
  pageDates,
  resolveSelectedAccount,
  agreementHref,
  listOffersFor,
  hasPortalAccess,
  requireSession,
  updateSessionData,
} from "./agreement.server";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { StackedTable } from "~/components/StackedTable";

/**
 * A signed-in contact's agreements (spec §2 customer-style `/customer/agreement/[...slug]`; issue
 * 15; decision 036), newest first, a page at a time: for a contact with portal access, every
 * offer on the selected account (they may act for it); for a customer-style contact, who has no
 * account switcher, the offers addressed to them on accounts they may still see. Each row opens
 * its agreement: one waiting for a decision on its acceptance page, any other as its record.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireSession(request);
  const url = new URL(request.url);
  const after = url.searchParams.get("after");
  const account = hasPortalAccess(session.contact)
    ? await resolveSelectedAccount(branding.businessId, session, (accountId) =>
        updateSessionData(session, { selectedAccount: accountId }),
      )
    : null;
  const page = await listOffersFor(
    branding.businessId,
    account ? { accountId: account.accountId } : { contactId: session.contact.id },
    { after },
  );
  const { date } = await pageDates(request, branding);
  return {
    businessName: branding.businessName,
    account: account ? `${account.name} (${account.number})` : null,
    items: page.items.map((item) => ({
      reference: item.reference,
      title: item.title,
      account: `${item.accountName} (${item.accountNumber})`,
      state: item.state,
      version: item.version,
      date: date(item.at),
      href: agreementHref(item),
    })),
    olderHref: page.nextAfter ? `?after=${encodeURIComponent(page.nextAfter)}` : null,
    newestHref: after ? url.pathname : null,
  };
}

/** Read-only: a list of the account's agreements, each a link (decision 049). */
export const handle = STATIC_PAGE;

export default function Agreements() {
  const data = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{t("agreements.title")}</h1>
      <p>
        {data.account
          ? t("agreements.intro.account", { business: data.businessName, account: data.account })
          : t("agreements.intro.contact", { business: data.businessName })}
      </p>
      {data.items.length === 0 ? (
        <p>{t("agreements.none")}</p>
      ) : (
        <div className={styles.scroll} tabIndex={0} role="region" aria-label={t("agreements.table")}>
          <StackedTable
            rows={data.items}
            rowKey={(item) => item.reference}
            columns={[
              {
                label: t("agreements.agreement"),
                kind: "title",
                cell: (item) => (
                  <>
                    <Link to={item.href}>{item.title}</Link> <span>{item.reference}</span>
                  </>
                ),
              },
              { label: t("agreements.account"), cell: (item) => item.account },
              {
                label: t("agreements.state"),
                cell: (item) => <span className={styles.badge}>{t(`agreements.state.${item.state}`)}</span>,
              },
              { label: t("agreements.version"), cell: (item) => item.version ?? "–" },
              { label: t("agreements.date"), cell: (item) => item.date },
            ]}
          />
        </div>
      )}
      {data.olderHref || data.newestHref ? (
        <nav aria-label={t("agreements.pages")} className={styles.pager}>
          {data.newestHref ? (
            <Link to={data.newestHref} className={styles.pagerLink}>
              {t("agreements.newest")}
            </Link>
          ) : null}
          {data.olderHref ? (
            <Link to={data.olderHref} rel="next" className={styles.pagerLink}>
              {t("agreements.older")}
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
    { title: `${t("agreements.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.agreements", data.businessName),
  ];
};
