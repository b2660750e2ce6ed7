import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { routeModuleFiles } from "../../tests/support/route-modules";
import { openSeededPglite } from "../../tests/support/test-db";

/**
 * Every action in the portal refuses a state-changing request from another site (403),
 * or does not take that method at all (405). New routes are covered automatically.
 *
 * The back-office API (`api.back-office.*`, decision 032) is the one exception to the 403: it
 * reads no cookie, only a bearer key a browser never adds by itself, so a cross-site request
 * without the key is a 401 (404 for a path it does not know), and one with the key is a
 * business's own server calling, whatever Origin it sends.
 */
const KEY_AUTHENTICATED = /^api\.back-office\./;
const routeFiles = routeModuleFiles();
const modules = routeFiles.map((route) => route.name);
const modulePath = (name: string) => routeFiles.find((route) => route.name === name)!.path;

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function statusOf(run: () => unknown): Promise<number> {
  try {
    const result = await run();
    if (result instanceof Response) return result.status;
    const init = result as { init?: { status?: number } } | undefined;
    return init?.init?.status ?? 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    const init = thrown as { init?: { status?: number } };
    if (init?.init?.status) return init.init.status;
    throw thrown;
  }
}

describe("cross-site requests change nothing", () => {
  it("finds the route modules", () => {
    expect(modules.length).toBeGreaterThan(10);
  });

  for (const file of modules) {
    for (const [label, headers] of [
      ["another origin", { origin: "http://evil.example" }],
      ["a sibling tenant", { origin: "http://kiwi.localhost:3000" }],
      ["an opaque origin", { origin: "null" }],
      ["cross-site fetch metadata", { "sec-fetch-site": "cross-site" }],
    ] as const) {
      it(`${file}: a POST from ${label} is refused`, async () => {
        const mod = (await import(modulePath(file))) as { action?: (args: unknown) => unknown };
        if (!mod.action) return;
        for (const method of ["POST", "PUT", "DELETE"]) {
          const request = new Request("http://acme.localhost:3000/some/path?x=1", {
            method,
            headers: { host: "acme.localhost:3000", "content-type": "application/x-www-form-urlencoded", ...headers },
            body: "email=olivia%40coastal.example&password=x&intent=request",
          });
          const status = await statusOf(() => mod.action!({ request, params: { provider: "auth0" }, context: {} }));
          const refused = KEY_AUTHENTICATED.test(file) ? [401, 404, 405] : [403, 405];
          expect(refused, `${method} ${file} answered ${status}`).toContain(status);
        }
      });
    }
  }
});
