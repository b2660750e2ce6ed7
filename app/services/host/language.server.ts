import { createCookie } from "@remix-run/node";
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode, type Translate } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import { getFeatureToggles } from "../accounts/accounts.server";
import { isUuid } from "~/lib/ids";
import { logger } from "../platform/logger.server";
import { isSecureRequest } from "../platform/request-context.server";

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
