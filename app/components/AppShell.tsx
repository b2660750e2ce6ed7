import { Form, Link, useLocation } from "@remix-run/react";
import type { LanguageCode } from "~/lib/i18n";
import { useT } from "./useT";
import type { ReactNode } from "react";
import * as styles from "./AppShell.css";

export type ShellBrand = {
  businessName: string;
  businessLabel: string;
  logoDirectory: string;
};

/**
 * The branded frame of every page: skip link, header (logo and business name), the main
 * landmark that the skip link and route changes move focus to, and the footer.
 */
export type ShellUser = { name: string; email: string; hasPassword: boolean };

export function AppShell({
  brand,
  user,
  accountBar,
  language,
  languages = [],
  children,
}: {
  brand: ShellBrand;
  user?: ShellUser | null;
  accountBar?: ReactNode;
  language?: LanguageCode;
  languages?: { code: string; label: string }[];
  children: ReactNode;
}) {
  const t = useT();
  const location = useLocation();
  return (
    <>
      <a className={styles.skipLink} href="#main">
        {t("shell.skip")}
      </a>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <Link to="/" className={styles.brandLink}>
            {/* Decorative next to the visible business name, so alt is empty. */}
            <img className={styles.logo} src={`${brand.logoDirectory}/logo.svg`} alt="" width={40} height={40} />
            <span className={styles.businessName}>
              {brand.businessName}
              {brand.businessLabel ? <span className={styles.businessLabel}>{brand.businessLabel}</span> : null}
            </span>
          </Link>
          {user ? (
            <nav aria-label={t("shell.yourLogin")} className={styles.userNav}>
              <span className={styles.userName}>{t("shell.signedInAs", { name: user.name || user.email })}</span>
              {user.hasPassword ? (
                <Link className={styles.headerAction} to="/auth/password">
                  {t("shell.changePassword")}
                </Link>
              ) : null}
              <Form method="post" action="/auth/signout">
                <button type="submit" className={styles.headerAction}>
                  {t("shell.signOut")}
                </button>
              </Form>
            </nav>
          ) : null}
        </div>
        {accountBar}
      </header>
      <main id="main" tabIndex={-1} className={styles.main}>
        {children}
      </main>
      <footer className={styles.footer}>
        <div className={styles.footerInner}>
          <nav aria-label={t("shell.legal")}>
            <ul className={styles.footerLinks}>
              <li>
                <Link className={styles.footerLink} to="/privacy-policy">
                  {t("shell.privacy")}
                </Link>
              </li>
              <li>
                <Link className={styles.footerLink} to="/terms-and-conditions">
                  {t("shell.terms")}
                </Link>
              </li>
            </ul>
          </nav>
          {languages.length > 1 ? (
            <Form method="post" action="/language" className={styles.language}>
              <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
              <label htmlFor="language">{t("shell.language")}</label>
              <select id="language" name="language" defaultValue={language} key={language}>
                {languages.map((option) => (
                  <option key={option.code} value={option.code}>
                    {option.label}
                  </option>
                ))}
              </select>
              <button type="submit">{t("shell.languageChange")}</button>
            </Form>
          ) : null}
          <p className={styles.copyright}>
            © {new Date().getFullYear()} {brand.businessName}
          </p>
        </div>
      </footer>
    </>
  );
}

/** The frame for unknown hosts and failures before a brand is known: no logo, no name. */
export function NeutralShell({ children }: { children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className={styles.main}>
      {children}
    </main>
  );
}
