import { AsyncLocalStorage } from "node:async_hooks";
import diagnostics from "node:diagnostics_channel";
import type { LogEvent } from "kysely";

/**
 * How many SQL statements one HTTP request ran, for the benchmark's "queries per page"
 * (bench/, docs/performance.md). Every Kysely instance reports each statement it sends,
 * BEGIN and COMMIT included, through `countQuery`; the count lands in the store of the
 * request whose code sent it, so concurrent requests never mix. Outside a request
 * (start-up, scripts, tests that do not ask) there is no store and nothing is counted.
 *
 * Off by default: only with BENCH_QUERY_COUNT=1 does the server give requests a counter
 * (installQueryCounting) and report it in the X-Query-Count response header. Without it,
 * the hook costs one AsyncLocalStorage lookup per statement and does nothing else.
 */
export type QueryCounter = { statements: number };

const storage = new AsyncLocalStorage<QueryCounter>();

export const QUERY_COUNT_HEADER = "X-Query-Count";

/** Kysely's `log` option: called once per statement, after it ran (or failed). */
export function countQuery(event: LogEvent) {
  const counter = storage.getStore();
  if (counter && (event.level === "query" || event.level === "error")) counter.statements += 1;
}

/** Runs `fn` with a fresh counter; what it (and everything it awaits) sends to the database is counted there. */
export function withQueryCounter<T>(fn: () => T): { counter: QueryCounter; result: T } {
  const counter: QueryCounter = { statements: 0 };
  const result = storage.run(counter, fn);
  return { counter, result };
}

/** Statements the current request has run so far, or undefined outside a counted request. */
export function currentQueryCount(): number | undefined {
  return storage.getStore()?.statements;
}

/**
 * Gives every incoming HTTP request its own counter. remix-serve owns the HTTP server, so
 * (as request logging does) the portal listens on Node's `http.server.request.start`
 * channel, which is published synchronously just before the server's `request` event:
 * entering the store there puts Express, Remix and every loader of that request inside it.
 */
export function installQueryCounting() {
  const globalKey = Symbol.for("portal.query-counting");
  const registry = globalThis as unknown as { [key: symbol]: boolean };
  if (registry[globalKey]) return;
  registry[globalKey] = true;
  diagnostics.subscribe("http.server.request.start", () => {
    storage.enterWith({ statements: 0 });
  });
}
