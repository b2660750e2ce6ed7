/**
 * Which routes need what (spec §2, §4 step 7). One table: public routes need nothing;
 * customer-style routes need a session; every other route also needs a verified contact
 * with the accessCustomerPortal permission, else the page-not-found screen (404), so
 * nothing about the route is revealed.
 */
export type RouteAccess = "public" | "customer" | "portal";

export const PORTAL_PERMISSION = "accessCustomerPortal";

/** Spec §2 "Public routes, reachable without a session". */
export const PUBLIC_ROUTES = [
  "/auth/signin",
  "/auth/password",
  "/auth/password/reset",
  "/auth/verify",
  "/user/login",
  "/heartbeat",
  "/communication",
  "/customer/invoices-and-payments/[...slug]",
  "/customer/payment-request/[...slug]",
  "/credit",
  "/credit-trade-reference",
  "/response/[...slug]",
  "/response/complete/[slug]",
  "/privacy-policy",
  "/terms-and-conditions",
] as const;

/** Spec §2 "Routes a user limited to customer-style access may open". */
export const CUSTOMER_STYLE_ROUTES = [
  "/payment/payment-request/[slug]",
  "/payment/complete/[slug]",
  "/payment/adhoc/[slug]",
  "/payment-schedule/acceptance/[...slug]",
  "/agreements/acceptance/[slug]",
  "/customer/invoices-and-payments/[...slug]",
  "/customer/payment-request/[...slug]",
  "/customer/payment-schedule/[...slug]",
  "/customer/adhoc/[slug]",
  "/customer/agreement/[...slug]",
  "/communication",
] as const;

/**
 * (The back-office API, /api/back-office/*, is not in this table: it serves a business's systems,
 * not a person, and is authenticated by the business's API key alone; decision 032.)
 *
 * Sign-in plumbing (spec §2: /api/auth/*, /error) is public too, and so is the PayTo sandbox's
 * stand-in for the payer's bank (decision 027; it 404s unless PAYTO_PROVIDER=sandbox).
 */
const AUTH_PLUMBING = ["/error", "/api/auth/[...slug]", "/auth/auth0", "/auth/signout", "/sandbox/payto-bank"] as const;

function toMatcher(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .map((segment) => {
      if (segment === "[...slug]") return "[^/]+(?:/[^/]+)*";
      if (segment === "[slug]") return "[^/]+";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/**
 * The public forms' own sub-paths (issue 17): the credit application's steps (`/credit/<step>`),
 * a trade referee's link (`/credit-trade-reference/<token>`) and the preference centre's signed
 * links (`/communication/<…>`, including RFC 8058 one-click unsubscribe). Public as their spec
 * routes are; each page checks its own token or draft.
 */
const PUBLIC_FORM_PATHS = ["/credit/[...slug]", "/credit-trade-reference/[slug]", "/communication/[...slug]"] as const;

/**
 * What any visitor of a host fetches beside its pages: the language choice (a plain form in the footer),
 * a brand version's files, the favicon and the browser's dictionary (decision 086, the same on every
 * host). Each checks the host itself where it has one; nothing here needs a session.
 */
const HOST_FILES_AND_CHOICES = ["/language", "/brand-assets/[...slug]", "/favicon.ico", "/i18n/[slug]"] as const;

/**
 * A receipt email's signed link (issue 31; decision 076): one receipt, no session, and its PDF (issue
 * 34). Public as the other emailed links are: the page checks its own token.
 */
const RECEIPT_LINKS = ["/customer/receipt/[slug]", "/customer/receipt/[slug]/pdf"] as const;

/**
 * The customer-style pages' own addresses beside the spec's list: an accepted agreement's download
 * (`/agreements/acceptance/<slug>/download`), a receipt's PDF (issue 34: the receipt's own access) and
 * the two lists' bare addresses, which lead a signed-in contact to their list (decisions 034 and 036).
 * Each asks for a session itself.
 */
const CUSTOMER_STYLE_PATHS = [
  "/agreements/acceptance/[slug]/download",
  "/payment/complete/[slug]/pdf",
  "/customer/agreement",
  "/customer/payment-schedule",
] as const;

const PUBLIC_MATCHERS = [
  ...PUBLIC_ROUTES,
  ...AUTH_PLUMBING,
  ...PUBLIC_FORM_PATHS,
  ...HOST_FILES_AND_CHOICES,
  ...RECEIPT_LINKS,
].map(toMatcher);
const CUSTOMER_MATCHERS = [...CUSTOMER_STYLE_ROUTES, ...CUSTOMER_STYLE_PATHS].map(toMatcher);

/** How much a path needs. Public wins where a path is on both lists (spec §2 lists some twice). */
export function routeAccess(pathname: string): RouteAccess {
  if (PUBLIC_MATCHERS.some((m) => m.test(pathname))) return "public";
  if (CUSTOMER_MATCHERS.some((m) => m.test(pathname))) return "customer";
  return "portal";
}

/** The auth routes: a verified user there is sent home (spec §4 step 6). */
export function isAuthRoute(pathname: string) {
  return /^\/(auth\/(signin|verify)|user\/login)\/?$/.test(pathname);
}

export function hasPortalAccess(contact: { verified: boolean; permissions: string[] }) {
  return contact.verified && contact.permissions.includes(PORTAL_PERMISSION);
}

/**
 * A host admin of the contact's business (issue 16): may open /admin/* of its own host, edit,
 * preview and publish its brand. Permissions are per business (contacts are per business); the
 * caller also checks the contact is verified and enabled.
 */
export const HOST_ADMIN_PERMISSION = "hostAdmin";

export function isHostAdmin(contact: { permissions: string[] }): boolean {
  return contact.permissions.includes(HOST_ADMIN_PERMISSION);
}
