import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import * as styles from "~/components/Table.css";
import { formatNumber } from "~/lib/format";
import { noAccounts, searchAccounts, requirePageAccess } from "./portal.server";
import { metaTranslator } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

const PAGE_SIZE = 20;

/**
 * Find and choose an account (spec §7 accounts-search semantics): text over name and
 * number, sort, paging in SQL, "only my accounts". Query-string driven: works without
 * JavaScript (a Search button); with it, the list filters as you type, 500 ms after the
 * last key (spec §9).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requirePageAccess(request);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const sort = params.get("sort") === "number" ? "number" : "name";
  const mine = params.get("mine") === "1";
  const pageNumber = Number(params.get("page"));
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 100_000 ? pageNumber : 1;
  const result = await searchAccounts(branding.businessId, session!.contact.id, {
    text: q,
    sort: { field: sort, dir: "asc" },
    skip: (page - 1) * PAGE_SIZE,
    take: PAGE_SIZE,
    myAccounts: mine,
    parent: true,
    children: true,
  });
  // Unfiltered and still empty: the contact has no accounts at all, so this page shows
  // 'Accounts not found' like every other account page (spec §4 step 4).
  if (result.total === 0 && !q && !mine) throw noAccounts();
  return {
    businessName: branding.businessName,
    query: { q, sort, mine, page },
    total: result.total,
    pages: Math.max(1, Math.ceil(result.total / PAGE_SIZE)),
    selectedId: session!.data.selectedAccount ?? null,
    accounts: result.items.map(({ accountId, number, name, isChild }) => ({ accountId, number, name, isChild })),
  };
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function Accounts() {
  const { query, total, pages, accounts, selectedId } = useLoaderData<typeof loader>();
  const t = useT();
  const location = useLocation();
  const pageLink = (page: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(page));
    return `/accounts?${params}`;
  };
  return (
    <>
      <h1>{t("accounts.title")}</h1>
      {/* The Search button searches; no search as you type, which would need the runtime (decision 084). */}
      <Form method="get" className={styles.filters} role="search">
        <div className={formStyles.field}>
          <label className={formStyles.label} htmlFor="q">
            {t("accounts.query")}
          </label>
          <input id="q" name="q" type="search" defaultValue={query.q} maxLength={100} className={formStyles.input} />
        </div>
        <div className={formStyles.field}>
          <label className={formStyles.label} htmlFor="sort">
            {t("accounts.sortBy")}
          </label>
          <select id="sort" name="sort" defaultValue={query.sort} className={formStyles.input}>
            <option value="name">{t("accounts.sort.name")}</option>
            <option value="number">{t("accounts.sort.number")}</option>
          </select>
        </div>
        <div className={formStyles.field}>
          <label>
            <input type="checkbox" name="mine" value="1" defaultChecked={query.mine} /> {t("accounts.mine")}
          </label>
        </div>
        <div className={styles.filterActions}>
          <button type="submit" className={button}>
            {t("accounts.search")}
          </button>
        </div>
      </Form>
      <p role="status">
        {total === 0
          ? t("accounts.none")
          : total === 1
            ? t("accounts.count.one")
            : t("accounts.count.other", { count: formatNumber(total) })}
      </p>
      {accounts.length > 0 ? (
        <ul className={styles.list}>
          {accounts.map((account) => (
            <li key={account.accountId} className={styles.listItem}>
              <span>
                {account.isChild ? <span className={styles.badge}>{t("accounts.branch")}</span> : null}{" "}
                <strong>{account.name}</strong> ({account.number})
              </span>
              {account.accountId === selectedId ? (
                <span>{t("accounts.selected")}</span>
              ) : (
                <Form method="post" action="/select-account">
                  <input type="hidden" name="accountId" value={account.accountId} />
                  <input type="hidden" name="redirectTo" value="/" />
                  <button
                    type="submit"
                    className={button}
                    aria-label={t("accounts.chooseLabel", { name: account.name })}
                  >
                    {t("accounts.choose")}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <nav aria-label={t("accounts.pages")} className={styles.pager}>
        {query.page > 1 ? <Link to={pageLink(query.page - 1)}>{t("pager.previous")}</Link> : null}
        <span>{t("pager.position", { page: query.page, pages })}</span>
        {query.page < pages ? <Link to={pageLink(query.page + 1)}>{t("pager.next")}</Link> : null}
      </nav>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("accounts.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.accounts", data.businessName),
  ];
};
