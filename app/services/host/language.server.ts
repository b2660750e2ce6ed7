import { createCookie } from "@remix-run/node";
import { datesIn, type PageDates } from "~/lib/format";
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode, type Translate } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import { asksSignedOutPreview } from "~/lib/brand-preview";
import { isLinkPagePath } from "~/lib/link-paths";
import { firstContactAccounts, getFeatureToggles } from "../accounts/accounts.server";
import { hasPortalAccess } from "../auth/access.server";
import { getPageContext } from "../auth/auth.server";
import { isUuid } from "~/lib/ids";
import { logger } from "../platform/logger.server";
import { isSecureRequest } from "../platform/request-context.server";
import { perRequest } from "../platform/request-scope.server";
import type { HostBranding } from "./host.server";

/** The chosen language (spec §3, §6): kept in a cookie for a year, applied on the server. */
export const languageCookie = createCookie("portal_lang", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 365 * 24 * 3600,
});

/** The Set-Cookie value for a chosen language: Secure whenever the browser talks https. */
export function serializeLanguageCookie(request: Request, language: LanguageCode) {
  return languageCookie.serialize(language, { secure: isSecureRequest(request) });
}

export type FeatureToggle = { name: string; enabled: boolean; configurationValue: unknown };

/**
 * The page's language from the toggles already loaded: the cookie's choice when the
 * Language toggle is on, else the default. A forced cookie on a host without the toggle
 * is ignored.
 */
export async function languageFromToggles(request: Request, toggles: FeatureToggle[]) {
  const enabled = toggles.some((toggle) => toggle.name === "Language" && toggle.enabled);
  const chosen = await languageCookie.parse(request.headers.get("cookie")).catch(() => null);
  const language: LanguageCode = enabled && isLanguageCode(chosen) ? chosen : DEFAULT_LANGUAGE;
  return { language, enabled };
}

/**
 * The language of a response built outside the root loader (an action's email, a CSV):
 * the toggles of the account (or, signed out, of the business), as the root loader does.
 * Toggles that fail to load mean the default language, never a failed request (spec §8).
 */
export async function requestLanguage(
  request: Request,
  businessId: string,
  accountId: string | null | undefined,
): Promise<{ language: LanguageCode; t: Translate }> {
  const toggles = await getFeatureToggles(businessId, isUuid(accountId) ? accountId : null).catch((error: unknown) => {
    logger.warn("feature toggles could not be loaded", { error });
    return [];
  });
  const { language } = await languageFromToggles(request, toggles);
  return { language, t: translator(language) };
}

/**
 * The session the page is built for, the account whose toggles it uses, and those toggles, as the
 * root loader decides them: on an emailed link's page nobody is signed in (decision 031), nor on a
 * page a host admin previews as a signed-out visitor sees it, with their own preview running
 * (decision 082: the page forgets the session; no one is signed out). A contact with portal access
 * gets the selected account (or their first), anyone else the business's toggles. Shared within a
 * request (`perRequest`): the root loader and the page's loader read them once between them.
 */
export function pageToggles(request: Request) {
  return perRequest(request, "page-toggles", async () => {
    const { branding, session: signedIn } = await getPageContext(request);
    const url = new URL(request.url);
    const signedOutPreview = branding.preview !== null && asksSignedOutPreview(url);
    const session = isLinkPagePath(url.pathname) || signedOutPreview ? null : signedIn;
    const first =
      session && hasPortalAccess(session.contact)
        ? await firstContactAccounts(request, branding.businessId, session.contact.id, 1)
        : [];
    const selectedId = session?.data.selectedAccount ?? first[0]?.accountId ?? null;
    const accountId = session && isUuid(selectedId) && first.length > 0 ? selectedId : null;
    // If the toggles cannot be loaded the page still renders: default language, no tour (spec §8).
    const toggles: FeatureToggle[] = await getFeatureToggles(branding.businessId, accountId).catch((error: unknown) => {
      logger.warn("feature toggles could not be loaded", { error });
      return [];
    });
    return { session, selectedId, accountId, toggles };
  });
}

/**
 * The page's language, the root loader's decision (decision 014), for what a loader writes on the
 * server (dates, decision 078). Without a language cookie, or with the default's, it is the default
 * and costs nothing; a cookie asking for another reads the toggles the root loader reads in the same
 * request, so no page runs a statement more for it.
 */
export async function pageLanguage(request: Request): Promise<LanguageCode> {
  const chosen = await languageCookie.parse(request.headers.get("cookie")).catch(() => null);
  if (!isLanguageCode(chosen) || chosen === DEFAULT_LANGUAGE) return DEFAULT_LANGUAGE;
  return (await languageFromToggles(request, (await pageToggles(request)).toggles)).language;
}

/** A page's dates: the business's time zone and the page's language (decision 078, update 2026-12-04). */
export async function pageDates(request: Request, branding: Pick<HostBranding, "timeZone">): Promise<PageDates> {
  return datesIn({ timeZone: branding.timeZone, language: await pageLanguage(request) });
}
