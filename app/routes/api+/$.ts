import { apiError, requireSameOrigin } from "./api.server";

/**
 * Any /api/* path no other route claims (calls not built yet, such as /api/payTo/*, or typos):
 * a JSON 404 with a message, for every method, instead of the HTML page-not-found screen. It
 * names no host or route, so it reveals nothing about the tenant.
 */
function notFound(request: Request) {
  const path = new URL(request.url).pathname.slice(0, 200);
  return apiError(404, `Not found: there is no API call at ${path}.`);
}

export function loader({ request }: { request: Request }) {
  return notFound(request);
}

export function action({ request }: { request: Request }) {
  requireSameOrigin(request);
  return notFound(request);
}
