import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  getDb,
  findHostBranding,
  normalizeHostname,
  toBootstrap,
  apiError,
  apiJson,
  methodNotAllowed,
  logger,
} from "./host-api.server";

/**
 * GET /api/host/bootstrap?hostname= (spec §1, §7): the five branding fields a host needs
 * before anything else. Branding is public (it is on the host's own pages), so this
 * answers for any hostname, but only with those five fields.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const values = new URL(request.url).searchParams.getAll("hostname");
  if (values.length === 0 || values[0]!.trim() === "") {
    return apiError(400, "Missing hostname: pass the portal's host name, e.g. ?hostname=acme.localhost");
  }
  if (values.length > 1) return apiError(400, "Pass exactly one hostname");
  const hostname = normalizeHostname(values[0]);
  if (!hostname) return apiError(400, "Invalid hostname: use a host name such as acme.localhost");

  let branding;
  try {
    branding = await findHostBranding(await getDb(), hostname);
  } catch (error) {
    logger.error("bootstrap lookup failed", { error });
    return apiError(503, "The portal can't reach its database; try again shortly", { "Retry-After": "30" });
  }
  if (!branding) return apiError(404, "No portal is set up for this hostname");
  return apiJson(toBootstrap(branding), { headers: { "Cache-Control": "public, max-age=60" } });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
