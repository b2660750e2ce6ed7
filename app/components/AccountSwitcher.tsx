import { Form, Link, useLocation } from "@remix-run/react";
import * as styles from "./AccountSwitcher.css";

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
  if (accounts.length === 0) return null;
  return (
    <div className={styles.bar}>
      <Form method="post" action="/select-account" className={styles.form}>
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <label htmlFor="account-switcher" className={styles.label}>
          Account
        </label>
        <select id="account-switcher" name="accountId" defaultValue={selectedId ?? undefined} className={styles.select} key={selectedId}>
          {accounts.map((account) => (
            <option key={account.accountId} value={account.accountId}>
              {account.isChild ? "↳ " : ""}
              {account.name} ({account.number})
            </option>
          ))}
        </select>
        <button type="submit" className={styles.button}>
          Switch
        </button>
      </Form>
      <nav aria-label="Account menu" className={styles.links}>
        <Link to="/">Dashboard</Link>
        <Link to="/account">Details</Link>
        <Link to="/statements">Statements</Link>
        {more || accounts.length > 1 ? <Link to="/accounts">Find an account</Link> : null}
      </nav>
    </div>
  );
}
