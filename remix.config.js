import { flatRoutes } from "remix-flat-routes";

/**
 * Routes live in folders by audience, then feature (docs/architecture.md, decision 061):
 * `_public+/`, `_link+/` (emailed links), `_customer+/` (customer-style), `_portal+/`, `admin+/`,
 * `api+/` (with `back-office+/`), `sandbox+/`, `_test+/`. A folder whose name ends in `+` adds its
 * name to the file names inside it; one that starts with `_` adds nothing to the URL.
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  serverModuleFormat: "esm",
  // Remix's own convention reads nothing: remix-flat-routes defines every route.
  ignoredRouteFiles: ["**/*"],
  routes: async (defineRoutes) =>
    flatRoutes("routes", defineRoutes, {
      ignoredRouteFiles: ["**/.*", "**/*.test.*", "**/*.css.ts", "**/*.server.*"],
    }),
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
