/**
 * The front door to the services for root.tsx: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export { firstContactAccounts } from "~/services/accounts/accounts.server";
export { customerMenuFor } from "~/services/accounts/customer-home.server";
export { hasPortalAccess, isHostAdmin } from "~/services/auth/access.server";
export { getPageContext } from "~/services/auth/auth.server";
export { languageFromToggles, pageToggles } from "~/services/host/language.server";
export { messagesFile } from "~/services/host/messages-file.server";
export { enhanceScriptSrc } from "~/services/platform/enhance-script.server";
