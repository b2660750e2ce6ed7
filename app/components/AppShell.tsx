import { Form, Link } from "@remix-run/react";
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
  children,
}: {
  brand: ShellBrand;
  user?: ShellUser | null;
  accountBar?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <a className={styles.skipLink} href="#main">
        Skip to main content
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
            <nav aria-label="Your login" className={styles.userNav}>
              <span>
                Signed in as <span className={styles.userName}>{user.name || user.email}</span>
              </span>
              {user.hasPassword ? (
                <Link className={styles.headerAction} to="/auth/password">
                  Change password
                </Link>
              ) : null}
              <Form method="post" action="/auth/signout">
                <button type="submit" className={styles.headerAction}>
                  Sign out
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
          <nav aria-label="Legal">
            <ul className={styles.footerLinks}>
              <li>
                <Link className={styles.footerLink} to="/privacy-policy">
                  Privacy policy
                </Link>
              </li>
              <li>
                <Link className={styles.footerLink} to="/terms-and-conditions">
                  Terms and conditions
                </Link>
              </li>
            </ul>
          </nav>
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
