import { createCookie } from "@remix-run/node";

/** The chosen language (spec §3, §6): kept in a cookie for a year, applied on the server. */
export const languageCookie = createCookie("portal_lang", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 365 * 24 * 3600,
});
