import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, type FocusEvent, type KeyboardEvent, type ReactNode } from "react";
import type { LanguageCode, MessageKey } from "~/lib/i18n";
import { AccountLink, AccountSwitcher, type ShellAccounts } from "./AccountSwitcher";
import * as styles from "./AppShell.css";
import { BrandingPreviewBanner } from "./BrandingPreviewBanner";
import { useT } from "./useT";

export type ShellBrand = {
  businessName: string;
  businessLabel: string;
  /** The header's logo (an uploaded one, or the logo directory's logo.svg). */
  logoUrl: string;
  /** This session previews a draft brand (issue 16): a banner says customers do not see it. */
  preview?: boolean;
};

export type ShellUser = {
  name: string;
  email: string;
  hasPassword: boolean;
  /** A host admin of this host's business (issue 32): the menu has an Admin section. */
  hostAdmin?: boolean;
};

/** The Admin section of the menu (decision 080): Branding is one tap from the menu. */
const ADMIN_LINKS = [
  { to: "/admin", key: "shell.admin.home", end: true },
  { to: "/admin/branding", key: "shell.admin.branding", end: false },
  { to: "/admin/admins", key: "shell.admin.admins", end: false },
] as const;

/**
 * The menu of a contact limited to customer-style routes (decisions 033 and 073): their home and
 * the customer-style pages that would open for them. A null href is a page they would meet as
 * "Page not found" or "Accounts not found", so it is not offered. The root loader decides.
 */
export type ShellCustomerMenu = {
  homeHref: string;
  invoicesHref: string | null;
  requestsHref: string;
  schedulesHref: string;
  agreementsHref: string;
  adhocHref: string | null;
};

/** The portal's sections, in the order of the menu. Shown once the contact has an account. */
const SECTIONS = [
  { to: "/", key: "switcher.dashboard", end: true },
  { to: "/account", key: "switcher.details", end: false },
  { to: "/statements", key: "switcher.statements", end: false },
  { to: "/customer/invoices-and-payments/invoices", key: "switcher.invoices", end: false },
  { to: "/customer/payment-schedule", key: "switcher.schedules", end: false },
  { to: "/payment-methods", key: "switcher.paymentMethods", end: false },
  { to: "/customer/agreement/all", key: "switcher.agreements", end: false },
] as const;

/**
 * The branded frame of every page: skip link, header, the main landmark that the skip link
 * moves focus to, and the footer.
 *
 * Phone first (docs/decisions/021-compact-shell.md): below 900 px the header is a slim bar
 * (brand and a Menu button, a `<details>` that opens without JavaScript) over one line naming
 * the account, which leads to the account chooser in one tap. From 900 px the same things sit
 * in a full horizontal bar: the login's actions, the account switcher form and the sections.
 * Each layout hides the other's copy with `display: none`, so assistive technology meets one.
 */
export function AppShell({
  brand,
  user,
  accounts,
  customerMenu,
  language,
  languages = [],
  children,
}: {
  brand: ShellBrand;
  user?: ShellUser | null;
  accounts?: ShellAccounts;
  customerMenu?: ShellCustomerMenu | null;
  language?: LanguageCode;
  languages?: { code: string; label: string }[];
  children: ReactNode;
}) {
  const t = useT();
  const location = useLocation();
  const hasAccounts = Boolean(user && accounts && accounts.items.length > 0);
  const canFind = Boolean(accounts && (accounts.more || accounts.items.length > 1));
  const languageLabel = languages.find((option) => option.code === language)?.label;

  const sectionLinks = (className: string) =>
    SECTIONS.map((section) => (
      <NavLink key={section.to} to={section.to} end={section.end} className={className}>
        {t(section.key)}
      </NavLink>
    ));
  const customer = user && !hasAccounts ? (customerMenu ?? null) : null;
  const adminLinks = (className: string) =>
    ADMIN_LINKS.map((link) => (
      <NavLink key={link.to} to={link.to} end={link.end} className={className}>
        {t(link.key)}
      </NavLink>
    ));
  // A link to a place within a page (a #fragment) is not a page of its own to mark as current.
  const customerLink = (to: string | null, key: MessageKey, className: string) =>
    to === null ? null : to.includes("#") ? (
      <Link key={key} to={to} className={className}>
        {t(key)}
      </Link>
    ) : (
      <NavLink key={key} to={to} end={key === "shell.customer.home"} className={className}>
        {t(key)}
      </NavLink>
    );
  const customerLinks = (menu: ShellCustomerMenu, className: string) => [
    customerLink(menu.homeHref, "shell.customer.home", className),
    customerLink(menu.invoicesHref, "shell.customer.invoices", className),
    customerLink(menu.requestsHref, "shell.customer.requests", className),
    customerLink(menu.schedulesHref, "shell.customer.schedules", className),
    customerLink(menu.agreementsHref, "shell.customer.agreements", className),
    customerLink(menu.adhocHref, "shell.customer.adhoc", className),
  ];

  return (
    <>
      <a className={styles.skipLink} href="#main">
        {t("shell.skip")}
      </a>
      {brand.preview ? <BrandingPreviewBanner /> : null}
      <header className={styles.header}>
        <div className={styles.headerInner}>
          {/* A customer-style contact's home is theirs; "/" would only send them on to it. */}
          <Link to={customer ? customer.homeHref : "/"} className={styles.brandLink}>
            {/* Decorative next to the visible business name, so alt is empty. */}
            <img className={styles.logo} src={brand.logoUrl} alt="" width={40} height={40} loading="eager" />
            <span className={styles.businessName}>
              {brand.businessName}
              {brand.businessLabel ? <span className={styles.businessLabel}>{brand.businessLabel}</span> : null}
            </span>
          </Link>
          {user ? (
            <>
              <nav aria-label={t("shell.yourLogin")} className={styles.userNav}>
                <span className={styles.userName}>{t("shell.signedInAs", { name: user.name || user.email })}</span>
                {/* The login's own settings: which messages this person gets (decision 039). */}
                <Link className={styles.headerAction} to="/communication">
                  {t("shell.communication")}
                </Link>
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
              <CompactMenu>
                <p className={styles.menuUser}>{t("shell.signedInAs", { name: user.name || user.email })}</p>
                {hasAccounts ? (
                  <nav aria-label={t("switcher.menu")} className={styles.menuGroup}>
                    {sectionLinks(styles.menuItem)}
                    {canFind ? (
                      <NavLink to="/accounts" className={styles.menuItem}>
                        {t("switcher.find")}
                      </NavLink>
                    ) : null}
                  </nav>
                ) : null}
                {customer ? (
                  <nav aria-label={t("shell.customer.menu")} className={styles.menuGroup}>
                    {customerLinks(customer, styles.menuItem)}
                  </nav>
                ) : null}
                {user.hostAdmin ? (
                  <nav aria-labelledby="menu-admin" className={styles.menuGroup}>
                    <p id="menu-admin" className={styles.menuGroupTitle}>
                      {t("shell.admin.menu")}
                    </p>
                    {adminLinks(styles.menuItem)}
                  </nav>
                ) : null}
                <div className={styles.menuGroup}>
                  <NavLink className={styles.menuItem} to="/communication">
                    {t("shell.communication")}
                  </NavLink>
                  {user.hasPassword ? (
                    <NavLink className={styles.menuItem} to="/auth/password">
                      {t("shell.changePassword")}
                    </NavLink>
                  ) : null}
                  {languages.length > 1 ? (
                    <a className={styles.menuItem} href="#language">
                      {t("shell.language")}
                      {languageLabel ? <span className={styles.menuValue}>{languageLabel}</span> : null}
                    </a>
                  ) : null}
                  <Form method="post" action="/auth/signout">
                    <button type="submit" className={styles.menuItem}>
                      {t("shell.signOut")}
                    </button>
                  </Form>
                </div>
              </CompactMenu>
            </>
          ) : null}
        </div>
        {hasAccounts && accounts ? (
          <>
            <AccountLink accounts={accounts} canFind={canFind} />
            <div className={styles.wideBar}>
              <div className={styles.wideBarInner}>
                <AccountSwitcher accounts={accounts} />
                <nav aria-label={t("switcher.menu")} className={styles.wideLinks}>
                  {sectionLinks(styles.wideLink)}
                  {canFind ? (
                    <NavLink to="/accounts" className={styles.wideLink}>
                      {t("switcher.find")}
                    </NavLink>
                  ) : null}
                </nav>
              </div>
            </div>
          </>
        ) : null}
        {customer ? (
          <div className={styles.wideBar}>
            <div className={styles.wideBarInner}>
              <nav aria-label={t("shell.customer.menu")} className={styles.wideLinks}>
                {customerLinks(customer, styles.wideLink)}
              </nav>
            </div>
          </div>
        ) : null}
        {user?.hostAdmin ? (
          <div className={styles.wideBar}>
            <div className={styles.wideBarInner}>
              <nav aria-labelledby="wide-admin" className={styles.wideLinks}>
                <span id="wide-admin" className={styles.wideGroupTitle}>
                  {t("shell.admin.menu")}
                </span>
                {adminLinks(styles.wideLink)}
              </nav>
            </div>
          </div>
        ) : null}
      </header>
      <main id="main" tabIndex={-1} className={styles.main}>
        {children}
      </main>
      {/* The end of the page's own content, which the document waits for before its first paint (root.tsx). */}
      <footer id={PAGE_END_ID} className={styles.footer}>
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
            // A whole new document: the browser holds only its page's language's dictionary (decision 050).
            <Form method="post" action="/language" className={styles.language} reloadDocument>
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

/**
 * The phone's menu: a native `<details>`, so the Menu button opens and closes it with no
 * script at all (and announces its state). With JavaScript it also closes after a navigation
 * (the page underneath changed) and on Escape, giving focus back to the button.
 */
function CompactMenu({ children }: { children: ReactNode }) {
  const t = useT();
  const location = useLocation();
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [location.key]);
  const closeOnEscape = (event: KeyboardEvent<HTMLDetailsElement>) => {
    if (event.key !== "Escape" || !details.current?.open) return;
    details.current.open = false;
    details.current.querySelector("summary")?.focus();
  };
  // The open panel lies over the page: when focus moves on past it (Tab after its last item) or
  // the page is tapped elsewhere, it closes, so what has focus is never hidden under it (WCAG 2.4.11).
  const closeWhenFocusLeaves = (event: FocusEvent<HTMLDetailsElement>) => {
    const next = event.relatedTarget as Node | null;
    if (details.current?.open && next && !details.current.contains(next)) details.current.open = false;
  };
  useEffect(() => {
    const closeOnTapOutside = (event: PointerEvent) => {
      if (details.current?.open && !details.current.contains(event.target as Node)) details.current.open = false;
    };
    document.addEventListener("pointerdown", closeOnTapOutside);
    return () => document.removeEventListener("pointerdown", closeOnTapOutside);
  }, []);
  return (
    // Escape and focus moves on the menu's own button or links bubble up to here; the details
    // element itself gets no behaviour a keyboard user would miss.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <details ref={details} data-menu="" className={styles.menu} onKeyDown={closeOnEscape} onBlur={closeWhenFocusLeaves}>
      <summary className={styles.menuButton}>
        <span className={styles.menuIcon} aria-hidden="true" />
        {t("shell.menu")}
      </summary>
      <div className={styles.menuPanel}>{children}</div>
    </details>
  );
}

/** The footer's id: the first paint waits until the parser has reached it (decision 085). */
export const PAGE_END_ID = "page-end";

/** The frame for unknown hosts and failures before a brand is known: no logo, no name. */
export function NeutralShell({ children }: { children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className={styles.main}>
      {children}
    </main>
  );
}
