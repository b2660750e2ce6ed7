import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSeededPglite } from "../../../tests/support/test-db";
import type { DatabaseHandle } from "./db.server";
import { currentQueryCount, installRequestScope, perRequest, withRequestScope } from "./request-scope.server";

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openSeededPglite();
});

afterAll(async () => {
  await handle.close();
});

async function runQueries(count: number) {
  for (let i = 0; i < count; i += 1) {
    // A yield between statements lets a concurrent caller interleave with this one.
    await new Promise((resolve) => setImmediate(resolve));
    await sql`select ${i}::int as n`.execute(handle.db);
  }
}

describe("counting statements per request", () => {
  it("counts every statement sent inside a counter, and nothing outside one", async () => {
    await runQueries(1);
    expect(currentQueryCount()).toBeUndefined();
    const { scope, result } = withRequestScope(async () => {
      await runQueries(2);
      await handle.db.selectFrom("businesses").select("id").execute();
      return currentQueryCount();
    });
    expect(await result).toBe(3);
    expect(scope.statements).toBe(3);
  });

  it("counts a transaction's BEGIN and COMMIT as statements", async () => {
    const { scope, result } = withRequestScope(() =>
      handle.db.transaction().execute((tx) => tx.selectFrom("hosts").select("hostname").execute()),
    );
    await result;
    expect(scope.statements).toBe(3);
  });

  it("keeps concurrent counters apart", async () => {
    const a = withRequestScope(() => runQueries(1));
    const b = withRequestScope(() => runQueries(5));
    const c = withRequestScope(() => runQueries(3));
    await Promise.all([a.result, b.result, c.result]);
    expect([a.scope.statements, b.scope.statements, c.scope.statements]).toEqual([1, 5, 3]);
  });

  it("gives each HTTP request its own count once installed", async () => {
    installRequestScope();
    const server = http.createServer((request, response) => {
      const wanted = Number(new URL(request.url ?? "/", "http://x").searchParams.get("n"));
      void runQueries(wanted).then(() => {
        response.end(String(currentQueryCount()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const get = (n: number) =>
      new Promise<string>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: `/?n=${n}`, agent }, (response) => {
            let body = "";
            response.on("data", (chunk) => (body += chunk));
            response.on("end", () => resolve(body));
          })
          .on("error", reject);
      });
    try {
      // Six requests over two kept-alive connections, so connections are reused mid-run.
      const counts = await Promise.all([4, 0, 2, 6, 1, 3].map(get));
      expect(counts).toEqual(["4", "0", "2", "6", "1", "3"]);
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("perRequest", () => {
  const url = "http://acme.localhost/statements";
  const counting = () => {
    let calls = 0;
    return { make: () => (calls += 1), calls: () => calls };
  };

  it("shares one value among the copies of a GET request inside one request scope", () => {
    const shared = counting();
    withRequestScope(() => {
      // Remix hands each loader its own copy of the Request.
      expect(perRequest(new Request(url), "k", shared.make)).toBe(1);
      expect(perRequest(new Request(url), "k", shared.make)).toBe(1);
      expect(perRequest(new Request(url), "other", shared.make)).toBe(2);
    });
    withRequestScope(() => {
      expect(perRequest(new Request(url), "k", shared.make)).toBe(3);
    });
  });

  it("never shares a POST's value with another Request object, so an action sees its own writes", () => {
    const shared = counting();
    withRequestScope(() => {
      const post = new Request(url, { method: "POST" });
      expect(perRequest(post, "k", shared.make)).toBe(1);
      expect(perRequest(post, "k", shared.make)).toBe(1);
      expect(perRequest(new Request(url, { method: "POST" }), "k", shared.make)).toBe(2);
      // The loaders after the action read afresh.
      expect(perRequest(new Request(url), "k", shared.make)).toBe(3);
    });
  });

  it("outside a request scope, shares only within the same Request object", () => {
    const shared = counting();
    const request = new Request(url);
    expect(perRequest(request, "k", shared.make)).toBe(1);
    expect(perRequest(request, "k", shared.make)).toBe(1);
    expect(perRequest(new Request(url), "k", shared.make)).toBe(2);
  });
});
