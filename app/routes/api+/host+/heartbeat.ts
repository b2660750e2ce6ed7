import { checkHealth, apiJson, methodNotAllowed } from "./host-api.server";

/** GET /api/host/heartbeat (spec §7): 200 when the database answers, 503 when it does not. */
export async function loader() {
  const health = await checkHealth();
  return apiJson(
    { status: health.ok ? "ok" : "unavailable", database: health.database, checkedAt: health.checkedAt },
    { status: health.ok ? 200 : 503, headers: health.ok ? {} : { "Retry-After": "30" } },
  );
}

export function action() {
  return methodNotAllowed(["GET"]);
}
