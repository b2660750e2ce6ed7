import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineRoutes } from "@remix-run/dev/dist/config/routes.js";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import { routeAccess, type RouteAccess } from "~/services/auth/access.server";

/**
 * The route tree is filed by audience (docs/architecture.md "Routes"): the folder a route sits in
 * says who may open it, and the access table in auth/access.server.ts decides it. This reads the
 * routes as Remix will (remix.config.js) and fails when the two disagree.
 */
type Route = { id: string; path?: string; index?: boolean; file: string; parentId?: string };

const APP = path.resolve(__dirname, "../../app");

async function routeTree(): Promise<Route[]> {
  const manifest = (await remixConfig.routes!(defineRoutes)) as Record<string, Route>;
  return Object.values(manifest);
}

/** A URL the route answers: each `:param` and splat filled with a plain value. */
function sampleUrl(route: Route): string {
  const segments = (route.path ?? "")
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith(":") || segment === "*" ? "sample" : segment));
  return `/${segments.join("/")}`;
}

/** The audience folder: the first folder under app/routes. */
function audienceOf(route: Route): string {
  const [first, ...rest] = route.file.replace(/^routes\//, "").split("/");
  return rest.length === 0 || first === undefined ? "(top level)" : first;
}

const PAGE_AUDIENCES: Record<string, RouteAccess> = {
  "_public+": "public",
  "_link+": "public",
  "_customer+": "customer",
  "_portal+": "portal",
  "admin+": "portal",
};

const URL_AUDIENCES: Record<string, RegExp> = {
  "api+": /^\/api\//,
  "sandbox+": /^\/sandbox\//,
  "_test+": /^\/__test\//,
};

describe("route folders and the access table", () => {
  it("files every route in one audience folder", async () => {
    const routes = await routeTree();
    expect(routes.length).toBeGreaterThan(100);
    const unfiled = routes.filter((route) => {
      const audience = audienceOf(route);
      return !(audience in PAGE_AUDIENCES) && !(audience in URL_AUDIENCES);
    });
    expect(unfiled.map((route) => route.file)).toEqual([]);
  });

  it("keeps every route a child of the root, so moving a file never nests a page in another's layout", async () => {
    const routes = await routeTree();
    expect(routes.filter((route) => route.parentId !== "root").map((route) => route.file)).toEqual([]);
  });

  it("puts a page where the access table says who may open it", async () => {
    const routes = await routeTree();
    const disagreements: string[] = [];
    for (const route of routes) {
      const expected = PAGE_AUDIENCES[audienceOf(route)];
      if (!expected) continue;
      // The catch-all answers any URL nobody else claims with 'Page not found', whoever asks.
      if (route.path === "*") continue;
      const url = sampleUrl(route);
      const access = routeAccess(url);
      if (access !== expected)
        disagreements.push(`${route.file}: ${url} is "${access}", the folder says "${expected}"`);
    }
    expect(disagreements).toEqual([]);
  });

  it("keeps API, sandbox and test-hook routes under their own URL prefix", async () => {
    const routes = await routeTree();
    const misplaced = routes.filter((route) => {
      const prefix = URL_AUDIENCES[audienceOf(route)];
      return prefix !== undefined && !prefix.test(sampleUrl(route));
    });
    expect(misplaced.map((route) => route.file)).toEqual([]);
  });

  it("guards each admin page with the host-admin check and each back-office call with its API key", async () => {
    const routes = await routeTree();
    const unguarded: string[] = [];
    for (const route of routes) {
      const source = readFileSync(path.join(APP, route.file), "utf8");
      if (route.file.startsWith("routes/admin+/") && !source.includes("requireHostAdminPage("))
        unguarded.push(route.file);
      const backOffice = route.file.startsWith("routes/api+/back-office+/") && route.path !== "api/back-office/*";
      // A back-office route asks for the API key itself, or through a factory that asks for each part's scope (decision 067).
      const byFactory =
        /\b(collectionRoute|itemRoute|verbRoute)\.(loader|action)\(/.test(source) && /\bscope: "/.test(source);
      if (backOffice && !source.includes("requireCaller(") && !byFactory) unguarded.push(route.file);
    }
    expect(unguarded).toEqual([]);
  });

  it("gives each route folder at most one .server module: the front door its routes import (decision 065)", () => {
    const doors = new Map<string, string[]>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.server\.tsx?$/.test(entry.name)) doors.set(dir, [...(doors.get(dir) ?? []), entry.name]);
      }
    };
    walk(path.join(APP, "routes"));
    expect(doors.size).toBeGreaterThan(10);
    expect([...doors].filter(([, files]) => files.length > 1)).toEqual([]);
  });

  it("knows a misfiled page when it sees one", () => {
    // A customer-style page filed as public, and a portal page filed as customer-style.
    const misfiled: Route[] = [
      { id: "a", path: "payment/complete/:slug", file: "routes/_public+/payment.complete.$slug.tsx" },
      { id: "b", path: "statements", file: "routes/_customer+/statements.tsx" },
    ];
    const verdicts = misfiled.map((route) => routeAccess(sampleUrl(route)) === PAGE_AUDIENCES[audienceOf(route)]);
    expect(verdicts).toEqual([false, false]);
  });
});
