import { AsyncLocalStorage } from "node:async_hooks";
import diagnostics from "node:diagnostics_channel";
import type { LogEvent } from "kysely";

/**
 * What belongs to one HTTP request while it runs, kept in an AsyncLocalStorage so that
 * concurrent requests never mix:
 * - the SQL statements it sent (for the benchmark's "queries per page": every Kysely
 *   instance reports each statement, BEGIN and COMMIT included, through `countQuery`;
 *   BENCH_QUERY_COUNT=1 shows the count in the X-Query-Count response header);
 * - work its loaders share (`perRequest`): Remix gives the root loader and the route's
 *   loader each their own copy of the Request, so a cache keyed by the Request object
 *   alone never hits, and every page looked its host and session up twice.
 * Outside an HTTP request (start-up, scripts, tests calling a loader directly) there is
 * no scope: nothing is counted, and `perRequest` falls back to the Request object.
 */
type RequestScope = { statements: number; shared: Map<string, unknown> };

const storage = new AsyncLocalStorage<RequestScope>();

export const QUERY_COUNT_HEADER = "X-Query-Count";

/** Kysely's `log` option: called once per statement, after it ran (or failed). */
export function countQuery(event: LogEvent) {
  const scope = storage.getStore();
  if (scope && (event.level === "query" || event.level === "error")) scope.statements += 1;
}

/** Statements the current request has run so far, or undefined outside a request scope. */
export function currentQueryCount(): number | undefined {
  return storage.getStore()?.statements;
}

/** Runs `fn` in a scope of its own, as the server does for each request. */
export function withRequestScope<T>(fn: () => T): { scope: { readonly statements: number }; result: T } {
  const scope: RequestScope = { statements: 0, shared: new Map() };
  const result = storage.run(scope, fn);
  return { scope, result };
}

const byRequestObject = new WeakMap<Request, Map<string, unknown>>();

/**
 * `make()` once per request and `key`; later callers in the same request get the same
 * value (usually a promise). Only reads share: in a POST the action must see its own
 * writes, so there the value is kept on that Request object alone. The loaders that run
 * after an action get a GET request of their own and share among themselves.
 */
export function perRequest<T>(request: Request, key: string, make: () => T): T {
  const reading = request.method === "GET" || request.method === "HEAD";
  const scope = reading ? storage.getStore() : undefined;
  let shared = scope?.shared ?? byRequestObject.get(request);
  if (!shared) {
    shared = new Map();
    byRequestObject.set(request, shared);
  }
  // The URL is part of the key: one request never loads two documents, but a stray
  // call for another URL must not get this one's answer.
  const fullKey = `${key} ${request.url}`;
  if (shared.has(fullKey)) return shared.get(fullKey) as T;
  const value = make();
  shared.set(fullKey, value);
  return value;
}

/**
 * Gives every incoming HTTP request its own scope. remix-serve owns the HTTP server, so
 * (as request logging does) the portal listens on Node's `http.server.request.start`
 * channel, which is published synchronously just before the server's `request` event:
 * entering the store there puts Express, Remix and every loader of that request inside it.
 */
export function installRequestScope() {
  const globalKey = Symbol.for("portal.request-scope");
  const registry = globalThis as unknown as { [key: symbol]: boolean };
  if (registry[globalKey]) return;
  registry[globalKey] = true;
  diagnostics.subscribe("http.server.request.start", () => {
    storage.enterWith({ statements: 0, shared: new Map() });
  });
}
