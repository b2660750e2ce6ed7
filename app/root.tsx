import { cssBundleHref } from "@remix-run/css-bundle";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  useLoaderData,
  useMatches,
  useNavigation,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import type { ReactNode } from "react";
import { AppShell, NeutralShell, PAGE_END_ID } from "~/components/AppShell";
import { FullPageLoading } from "~/components/FullPageLoading";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { useNonce } from "~/components/nonce";
import { ProgressBar } from "~/components/ProgressBar";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import { SessionSync } from "~/components/SessionSync";
import {
  hasPortalAccess,
  isHostAdmin,
  firstContactAccounts,
  languageFromToggles,
  pageToggles,
  getPageContext,
  customerMenuFor,
  enhanceScriptSrc,
  messagesFile,
} from "./root.server";
import { LANGUAGES, translatorFrom, type LanguageCode } from "~/lib/i18n";
import { messagesIn } from "~/lib/i18n/runtime";
import { metaDescription } from "~/lib/meta";
import { ProductFruits, type ProductFruitsConfig } from "~/components/ProductFruits";
import { CUSTOM_BRAND_CLASS } from "~/lib/brand-class";
import { isLinkPagePath } from "~/lib/link-paths";
import { pageEnhanced, pageIsStatic } from "~/lib/client-runtime";
import { PageScripts } from "~/components/PageScripts";
import { INLINE_STYLES_ID, useInlineStyles } from "~/components/InlineStyles";

const SWITCHER_SIZE = 25;
import { neutralDocument } from "~/styles/global.css";
import { themeClass } from "~/themes/themes.css";

// The CSS bundle is sent inside the document (decision 049): the Layout links it only when its
// text is not at hand (a development build, or CSS_DELIVERY=link).
export const links: LinksFunction = () => [];

/**
 * Resolves the host's brand for every page, on the server, so that the first paint is
 * already branded (theme class, title, favicon, logo) with no script at all.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const context = await getPageContext(request);
  const { branding } = context;
  const url = new URL(request.url);
  const origin = url.origin;
  // A page opened by an emailed link shows that one record and nothing of whoever is signed in
  // in this browser: no name, no account switcher, no portal menu (decision 031). So does a page a
  // host admin previews as a signed-out visitor sees it (decision 082). `pageToggles` decides it
  // once per request, with the toggles the page's own loader reads.
  const { session, selectedId, accountId, toggles } = await pageToggles(request);
  const contact = session?.contact;
  // The account switcher: the first accounts of a contact with portal access (read once per request:
  // the customer-style home lists the same first accounts).
  const switcher =
    session && hasPortalAccess(session.contact)
      ? await firstContactAccounts(request, branding.businessId, session.contact.id, SWITCHER_SIZE + 1)
      : [];
  // A verified contact limited to customer-style routes gets their own small menu (decision 033).
  const customerMenu =
    session && session.contact.verified && !hasPortalAccess(session.contact)
      ? await customerMenuFor(branding, session.contact.id, request)
      : null;
  // Feature toggles of the selected account (or the business's, signed out), read once per request
  // with the page's loader, which writes its dates in the language they decide (decision 078).
  const { language, enabled: languageEnabled } = await languageFromToggles(request, toggles);
  const productFruits = session && accountId ? productFruitsFrom(toggles, session.contact, language) : null;
  // An emailed link's page: the business's email and phone, for the page that says the link is
  // not valid (or not found) to give a way to reach the business (issue 32); read with the host,
  // so no statement of its own.
  const linkContact = isLinkPagePath(url.pathname)
    ? { email: branding.supportEmail ?? null, phone: branding.supportPhone ?? null }
    : null;
  return {
    linkContact,
    productFruits,
    // A page without React that asks for the small shared conveniences (decision 084) loads this,
    // and tells other tabs whether it was drawn signed in — not a link page's nor a signed-out
    // preview's (their session is hidden on purpose, and is no news to the other tabs).
    enhance: {
      src: enhanceScriptSrc(),
      session: isLinkPagePath(url.pathname) || (session === null && context.session) ? null : session ? "in" : "out",
    },
    language,
    // The page's dictionary for the browser, versioned (decision 086): preloaded with its scripts.
    messagesHref: messagesFile(language).href,
    languages: languageEnabled ? LANGUAGES.map(({ code, label }) => ({ code, label })) : [],
    brand: {
      businessName: branding.businessName,
      businessLabel: branding.businessLabel,
      logoDirectory: branding.logoDirectory,
      logoUrl: branding.logoUrl,
      faviconUrl: branding.faviconUrl,
      faviconType: branding.faviconType,
      customCss: branding.customCss,
      theme: branding.theme,
      // A host admin's session previewing a draft brand (issue 16): the shell says so.
      preview: branding.preview !== null,
    },
    user: contact
      ? {
          name: `${contact.firstName} ${contact.lastName}`.trim(),
          email: contact.email,
          hasPassword: session.authMethod === "credentials",
          // The Admin menu (issue 32; decision 080): the session's own contact row, read per request, says so —
          // no query of its own, and a removed admin loses the menu on their next page. The pages check again.
          hostAdmin: contact.verified && contact.businessId === branding.businessId && isHostAdmin(contact),
        }
      : null,
    customerMenu,
    accounts: {
      items: switcher
        .slice(0, SWITCHER_SIZE)
        .map(({ accountId, number, name, isChild }) => ({ accountId, number, name, isChild })),
      more: switcher.length > SWITCHER_SIZE,
      selectedId,
    },
    // Sign-in and sign-out forms are redirected to the host's identity provider (CSP form-action).
    identityProviderOrigin:
      branding.authProvider === "auth0" && branding.auth0Domain ? `https://${branding.auth0Domain}` : null,
    // Where 'Go back' leads without JavaScript: the previous page, if it was ours.
    backHref: safeSameOriginPath(request.headers.get("referer"), origin, "/"),
  };
}

/** The tour's settings (spec §6): only with the ProductFruit toggle on and a workspace code. */
function productFruitsFrom(
  toggles: { name: string; enabled: boolean; configurationValue: unknown }[],
  contact: { email: string; position: string },
  language: LanguageCode,
): ProductFruitsConfig | null {
  const toggle = toggles.find((t) => t.name === "ProductFruit");
  const code = (toggle?.configurationValue as { workspaceCode?: unknown } | null)?.workspaceCode;
  if (!toggle?.enabled || typeof code !== "string" || code.trim() === "") return null;
  return {
    workspaceCode: code.trim(),
    language: language === "ID" ? "id" : "en",
    username: contact.email,
    role: contact.position,
  };
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>;

/**
 * The pay page's live total posts `intent=quote`, which changes nothing on the server: the
 * shell's data (session, brand, messages) need not be read again for every quote.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "quote" ? false : defaultShouldRevalidate;

function htmlLang(language: LanguageCode | undefined) {
  return LANGUAGES.find((l) => l.code === language)?.htmlLang ?? "en-AU";
}

/**
 * The base theme's class, and for a custom brand colour also `brand-custom`, which the brand's
 * stylesheet (`customCss`) sets every colour role for.
 */
function htmlClass(brand: { theme: RootLoaderData["brand"]["theme"]; customCss: string | null }) {
  return brand.customCss ? `${themeClass[brand.theme]} ${CUSTOM_BRAND_CLASS}` : themeClass[brand.theme];
}

/** Whether the document's inline stylesheet has `theme`'s preset (its rule starts with its class). */
function holdsPreset(text: string, theme: RootLoaderData["brand"]["theme"]) {
  return text.includes(`.${themeClass[theme]}{`);
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const brand = data?.brand;
  const inlineStyles = useInlineStyles();
  // A read-only page ships no script at all (decision 049). Once the runtime runs in a browser
  // (the document had it), it stays: a client navigation to a read-only page keeps its scripts.
  const matches = useMatches();
  const withScripts = typeof document !== "undefined" || !pageIsStatic(matches);
  // Such a page may ask for the small shared conveniences instead (decision 084): only ever in the
  // server's document, so no hydrated page's markup depends on it.
  const enhance = typeof document === "undefined" && data && pageEnhanced(matches) ? data.enhance : null;
  return (
    <html lang={htmlLang(data?.language)} className={brand ? htmlClass(brand) : neutralDocument}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* One first paint of the whole page, not its header first and then the rest (decision 085). */}
        <link rel="expect" href={`#${PAGE_END_ID}`} blocking="render" />
        <Meta />
        <link
          rel="icon"
          type={brand ? brand.faviconType : "image/svg+xml"}
          href={brand ? brand.faviconUrl : "/favicon.svg"}
        />
        {inlineStyles !== null ? (
          <style id={INLINE_STYLES_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: inlineStyles }} />
        ) : null}
        {/* The whole bundle when nothing is inline, or when the theme changed since the document
            came (a host admin published another): the inline text holds the document's theme only
            (decision 088). */}
        {cssBundleHref && (inlineStyles === null || (brand && !holdsPreset(inlineStyles, brand.theme))) ? (
          <link rel="stylesheet" href={cssBundleHref} />
        ) : null}
        <Links />
        {/* A custom brand colour's roles: a stylesheet we serve (CSP allows no inline style). */}
        {brand?.customCss ? <link rel="stylesheet" href={brand.customCss} /> : null}
      </head>
      <body>
        {children}
        {withScripts ? <PageScripts nonce={nonce} /> : null}
        {enhance ? <script src={enhance.src} defer nonce={nonce} data-session={enhance.session ?? undefined} /> : null}
      </body>
    </html>
  );
}

export default function App() {
  const { brand, user, accounts, customerMenu, productFruits, language, languages } = useLoaderData<typeof loader>();
  const nonce = useNonce();
  const navigation = useNavigation();
  // Going home re-runs the start-up (host, session, accounts): show spec §2's full-page
  // loading state while it is pending. Other navigations get the slim progress bar.
  const startingUp = navigation.state === "loading" && navigation.location.pathname === "/";
  // Stand-ins for third parties (the PayTo sandbox's bank) draw their own page, not the portal's.
  const matches = useMatches();
  const standalone = matches.some((match) => (match.handle as { standalone?: boolean } | undefined)?.standalone);
  if (standalone) return <Outlet />;
  // The tour is a script of its own, not React's: a read-only page has none (decision 049), a page
  // with the small shared conveniences keeps it (decision 084: the dashboard is one).
  const withTour =
    productFruits !== null && (typeof document !== "undefined" || !pageIsStatic(matches) || pageEnhanced(matches));
  return (
    <>
      <ProgressBar />
      {startingUp ? <FullPageLoading /> : null}
      <SessionSync signedIn={user !== null} />
      <AppShell
        brand={brand}
        user={user}
        accounts={accounts}
        customerMenu={customerMenu}
        language={language}
        languages={languages}
      >
        <Outlet />
      </AppShell>
      {withTour && productFruits ? <ProductFruits config={productFruits} nonce={nonce} /> : null}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => {
  const status = isRouteErrorResponse(error) ? error.status : null;
  return [
    {
      title:
        data?.brand.businessName ??
        // With no brand (the host lookup failed), the tab says what the page says.
        translatorFrom(messagesIn(data?.language))(
          status === 503 ? "errors.unavailable.title" : "errors.notFound.title",
        ),
    },
    // The fallback of every page with no `meta` of its own, and of the error screens.
    metaDescription(
      matches,
      status === 503 ? "meta.unavailable" : status === 404 || error ? "meta.notFound" : "meta.host",
      data?.brand.businessName,
    ),
  ];
};

export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("root");
  if (!data) {
    return (
      <NeutralShell>
        <GeneralErrorBoundary />
      </NeutralShell>
    );
  }
  return (
    <AppShell
      brand={data.brand}
      user={data.user}
      customerMenu={data.customerMenu}
      language={data.language}
      languages={data.languages}
    >
      <GeneralErrorBoundary backHref={data.backHref} />
    </AppShell>
  );
}
