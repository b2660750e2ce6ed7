import { Form, Link, useLocation } from "@remix-run/react";
import * as styles from "./AccountSwitcher.css";
import { useT } from "./useT";

export type SwitcherAccount = { accountId: string; number: string; name: string; isChild: boolean };
export type ShellAccounts = { items: SwitcherAccount[]; selectedId: string | null; more: boolean };

function selectedAccount({ items, selectedId }: ShellAccounts) {
  return items.find((account) => account.accountId === selectedId) ?? items[0] ?? null;
}

/**
 * Choose the account the portal shows, on a wide screen: a select and a button in a plain
 * form (no JavaScript needed). Hidden below 900 px, where `AccountLink` stands in.
 */
export function AccountSwitcher({ accounts }: { accounts: ShellAccounts }) {
  const location = useLocation();
  const t = useT();
  const selected = selectedAccount(accounts);
  if (!selected) return null;
  return (
    <Form method="post" action="/select-account" className={styles.form}>
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <label htmlFor="account-switcher" className={styles.label}>
        {t("switcher.account")}
      </label>
      <select
        id="account-switcher"
        name="accountId"
        defaultValue={selected.accountId}
        className={styles.select}
        key={selected.accountId}
      >
        {accounts.items.map((account) => (
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
  );
}

/**
 * The phone's account line under the slim bar: which account the pages show, and (when
 * there is another to choose) one tap to the account chooser, which works without JavaScript.
 */
export function AccountLink({ accounts, canFind }: { accounts: ShellAccounts; canFind: boolean }) {
  const t = useT();
  const selected = selectedAccount(accounts);
  if (!selected) return null;
  const content = (
    <>
      <span className={styles.compactLabel}>{t("switcher.account")}</span>
      <span className={styles.compactName}>
        {selected.name} ({selected.number})
      </span>
      {canFind ? (
        <span className={styles.compactAction}>
          {t("switcher.change")}
          <span aria-hidden="true"> ▸</span>
        </span>
      ) : null}
    </>
  );
  return (
    <div className={styles.compact}>
      {canFind ? (
        <Link to="/accounts" className={styles.compactLink}>
          {content}
        </Link>
      ) : (
        <p className={styles.compactRow}>{content}</p>
      )}
    </div>
  );
}
