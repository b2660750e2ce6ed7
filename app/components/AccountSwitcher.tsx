import { Form, Link, useLocation } from "@remix-run/react";
import * as styles from "./AccountSwitcher.css";
import { useT } from "./useT";

export type SwitcherAccount = { accountId: string; number: string; name: string; isChild: boolean };

/**
 * Choose the account the portal shows, from any page: a select and a button in a plain
 * form (no JavaScript needed), and a link to search when a contact has many accounts.
 */
export function AccountSwitcher({
  accounts,
  selectedId,
  more,
}: {
  accounts: SwitcherAccount[];
  selectedId: string | null;
  more: boolean;
}) {
  const location = useLocation();
  const t = useT();
  if (accounts.length === 0) return null;
  return (
    <div className={styles.bar}>
      <Form method="post" action="/select-account" className={styles.form}>
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <label htmlFor="account-switcher" className={styles.label}>
          {t("switcher.account")}
        </label>
        <select
          id="account-switcher"
          name="accountId"
          defaultValue={selectedId ?? undefined}
          className={styles.select}
          key={selectedId}
        >
          {accounts.map((account) => (
            <option key={account.accountId} value={account.accountId}>
              {account.isChild ? "↳ " : ""}
              {account.name} ({account.number})
            </option>
          ))}
        </select>
        <button type="submit" className={styles.button}>
          {t("switcher.switch")}
        </button>
      </Form>
      <nav aria-label={t("switcher.menu")} className={styles.links}>
        <Link to="/">{t("switcher.dashboard")}</Link>
        <Link to="/account">{t("switcher.details")}</Link>
        <Link to="/statements">{t("switcher.statements")}</Link>
        <Link to="/customer/invoices-and-payments/invoices">{t("switcher.invoices")}</Link>
        <Link to="/payment-methods">{t("switcher.paymentMethods")}</Link>
        {more || accounts.length > 1 ? <Link to="/accounts">{t("switcher.find")}</Link> : null}
      </nav>
    </div>
  );
}
