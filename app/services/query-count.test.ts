import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSeededPglite } from "../../tests/support/test-db";
import type { DatabaseHandle } from "./db.server";
import { currentQueryCount, installQueryCounting, withQueryCounter } from "./query-count.server";

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

describe("query counting", () => {
  it("counts every statement sent inside a counter, and nothing outside one", async () => {
    await runQueries(1);
    expect(currentQueryCount()).toBeUndefined();
    const { counter, result } = withQueryCounter(async () => {
      await runQueries(2);
      await handle.db.selectFrom("businesses").select("id").execute();
      return currentQueryCount();
    });
    expect(await result).toBe(3);
    expect(counter.statements).toBe(3);
  });

  it("counts a transaction's BEGIN and COMMIT as statements", async () => {
    const { counter, result } = withQueryCounter(() =>
      handle.db.transaction().execute((tx) => tx.selectFrom("hosts").select("hostname").execute()),
    );
    await result;
    expect(counter.statements).toBe(3);
  });

  it("keeps concurrent counters apart", async () => {
    const a = withQueryCounter(() => runQueries(1));
    const b = withQueryCounter(() => runQueries(5));
    const c = withQueryCounter(() => runQueries(3));
    await Promise.all([a.result, b.result, c.result]);
    expect([a.counter.statements, b.counter.statements, c.counter.statements]).toEqual([1, 5, 3]);
  });

  it("gives each HTTP request its own count once installed", async () => {
    installQueryCounting();
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
