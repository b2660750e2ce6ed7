import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The declared layers (docs/architecture.md), read from the source, static and dynamic imports alike:
 *
 * - `app/services/platform/` is the floor every service folder stands on, so it imports no domain folder and
 *   no seed data;
 * - between the folders of `app/`, only the arrows that page lists: a route never imports another route, a
 *   service never a route or a component, and `lib` and `components` (which reach the browser) no service.
 */
const ROOT = path.resolve(__dirname, "../..");
const PLATFORM = path.join(ROOT, "app/services/platform");
const SERVICES = path.join(ROOT, "app/services");

/** The folders of `app/` and the folders each may import (besides itself and packages). */
const ARROWS: Record<string, readonly string[]> = {
  "app/routes": ["app/services", "app/components", "app/lib", "app/themes", "app/styles"],
  "app/services": ["app/lib", "app/themes", "db/migrations"],
  "app/components": ["app/lib", "app/themes", "app/styles"],
  "app/styles": ["app/themes", "app/components"],
  "app/lib": ["app/themes"],
  "app/themes": [],
};

/**
 * The edges between the service folders (`payments/payto/` and `payments/gateway/` count as folders of their own;
 * `platform/` is left out, every folder may use it), as docs/architecture.md lists them. A new edge fails until it
 * is named here and there; an edge that is gone fails too, so the list stays true.
 */
const DOMAIN_EDGES: Record<string, readonly string[]> = {
  accounts: ["auth", "host"],
  agreements: ["accounts", "auth", "communication", "host", "links", "requests"],
  auth: ["communication", "host"],
  backoffice: ["auth"],
  branding: ["agreements", "auth", "host", "payments", "requests", "schedules"],
  communication: ["auth", "backoffice", "host", "links", "requests"],
  credit: ["auth", "host", "links"],
  documents: ["agreements", "branding", "host", "payments"],
  host: ["accounts", "auth", "branding"],
  jobs: ["credit", "documents", "payments", "payments/payto", "schedules"],
  links: ["accounts", "auth", "host", "payment-methods", "payments", "payments/payto"],
  "payment-methods": ["accounts", "auth", "payments/gateway"],
  payments: [
    "accounts",
    "communication",
    "host",
    "links",
    "payment-methods",
    "payments/gateway",
    "payments/payto",
    "schedules",
  ],
  "payments/payto": ["communication", "host", "payments"],
  requests: ["communication", "host", "links"],
  responses: ["accounts", "communication", "host", "links", "requests"],
  schedules: [
    "accounts",
    "auth",
    "communication",
    "host",
    "links",
    "payment-methods",
    "payments",
    "payments/payto",
    "requests",
  ],
};

function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const found = [...source.matchAll(/(?:from\s+|import\s*\(\s*)["']([^"']+)["']/g)].map((match) => match[1]!);
  return found.filter((specifier) => specifier.startsWith(".") || specifier.startsWith("~/"));
}

function resolved(file: string, specifier: string) {
  const target = specifier.startsWith("~/")
    ? path.join(ROOT, "app", specifier.slice(2))
    : path.resolve(path.dirname(file), specifier);
  return path.relative(ROOT, target);
}

const within = (target: string, folder: string) => target === folder || target.startsWith(folder + path.sep);

/** The source files of a folder, tests left out, every level down. */
function sourcesIn(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourcesIn(file);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.(ts|tsx)$/.test(entry.name) ? [file] : [];
  });
}

/** Platform's imports into a domain folder or the seed data, as `name -> target`. */
function platformEdges(file: string): string[] {
  const edges: string[] = [];
  for (const specifier of importsOf(file)) {
    const target = resolved(file, specifier);
    const inPlatform = within(target, path.relative(ROOT, PLATFORM));
    const inServices = within(target, path.relative(ROOT, SERVICES));
    if ((inServices && !inPlatform) || within(target, path.join("db", "seed"))) {
      edges.push(`${path.basename(file)} -> ${target}`);
    }
  }
  return edges;
}

/** The service folder a path under app/services/ is in (null: platform/, or a file at the top). */
function serviceFolder(target: string): string | null {
  const parts = path.relative(path.relative(ROOT, SERVICES), target).split(path.sep);
  if (parts.length < 2 || parts[0] === ".." || parts[0] === "platform") return null;
  return parts[0] === "payments" && (parts[1] === "payto" || parts[1] === "gateway")
    ? `payments/${parts[1]}`
    : parts[0]!;
}

/** The edges between service folders, as `from -> to`, read from every source file under app/services/. */
function domainEdges(): string[] {
  const edges = new Set<string>();
  for (const file of sourcesIn(SERVICES)) {
    const from = serviceFolder(path.relative(ROOT, file));
    if (!from) continue;
    for (const specifier of importsOf(file)) {
      const target = resolved(file, specifier);
      const to = within(target, path.relative(ROOT, SERVICES)) ? serviceFolder(target) : null;
      if (to && to !== from) edges.add(`${from} -> ${to}`);
    }
  }
  return [...edges].sort();
}

/**
 * A route module: a file directly in one of app/routes' `+` folders that Remix reads as a route (decision 064).
 * Beside the routes sit their folder's front door (`*.server.ts`, decision 065) and, in plain subfolders, the parts
 * that one feature's routes alone use (components, styles).
 */
function isRouteModule(target: string): boolean {
  return (
    /^app\/routes\/(.+\/)?[^/]+\+\/[^/]+$/.test(target) && !/\.(server|test|css)(\.|$)/.test(path.basename(target))
  );
}

/** Imports of `file` (in `folder`) that land in a folder of `app/` or `db/` that `folder` may not import. */
function undeclaredArrows(folder: string, file: string): string[] {
  const relative = path.relative(ROOT, file);
  // A route's own parts (not the route, not its door) reach the browser as components do: the components' arrows.
  const part =
    folder === "app/routes" && !isRouteModule(relative.replace(/\.(ts|tsx)$/, "")) && !/\.server\./.test(relative);
  const allowed = part ? ["app/routes", "app/components", ...ARROWS["app/components"]!] : [folder, ...ARROWS[folder]!];
  return importsOf(file)
    .map((specifier) => resolved(file, specifier))
    .filter((target) => (within(target, "app") || within(target, "db")) && !allowed.some((to) => within(target, to)))
    .concat(
      // A route imports no other route: within app/routes only the doors and the features' parts are targets.
      folder === "app/routes"
        ? importsOf(file)
            .map((specifier) => resolved(file, specifier))
            .filter((target) => within(target, "app/routes") && isRouteModule(target))
        : [],
    )
    .map((target) => `${relative} -> ${target}`);
}

describe("layers", () => {
  it("tells a route module from its folder's door and parts", () => {
    expect(isRouteModule("app/routes/_portal+/_index")).toBe(true);
    expect(isRouteModule("app/routes/_public+/credit+/business")).toBe(true);
    expect(isRouteModule("app/routes/_public+/credit+/credit.server")).toBe(false);
    expect(isRouteModule("app/routes/_public+/credit+/components/CreditPage")).toBe(false);
    expect(isRouteModule("app/routes/_customer+/components/PaymentSchedule.css")).toBe(false);
  });

  it("platform/ imports no domain folder and no seed data", () => {
    const edges = sourcesIn(PLATFORM).flatMap(platformEdges);
    expect(edges).toEqual([]);
  });

  it("the folders of app/ import only along the declared arrows", () => {
    const undeclared = Object.keys(ARROWS).flatMap((folder) =>
      sourcesIn(path.join(ROOT, folder)).flatMap((file) => undeclaredArrows(folder, file)),
    );
    expect(undeclared).toEqual([]);
  });

  it("the service folders import each other only along the edges named", () => {
    const declared = Object.entries(DOMAIN_EDGES).flatMap(([from, tos]) => tos.map((to) => `${from} -> ${to}`));
    expect(domainEdges()).toEqual(declared.sort());
  });

  describe("the checks can fail", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "layers-"));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("finds an edge when there is one", () => {
      const file = path.join(PLATFORM, "example.server.ts");
      expect(resolved(file, "../payments/payments.server")).toBe("app/services/payments/payments.server");
      expect(resolved(file, "~/services/credit/credit.server")).toBe("app/services/credit/credit.server");
      const example = path.join(dir, "example.server.ts");
      fs.writeFileSync(
        example,
        'import { a } from "~/services/payments/receipts.server";\nconst b = await import("~/routes/_index");\n',
      );
      expect(importsOf(example)).toEqual(["~/services/payments/receipts.server", "~/routes/_index"]);
      expect(platformEdges(example)).toEqual(["example.server.ts -> app/services/payments/receipts.server"]);
      expect(undeclaredArrows("app/services", example)).toEqual([
        `${path.relative(ROOT, example)} -> app/routes/_index`,
      ]);
      expect(undeclaredArrows("app/lib", example)).toHaveLength(2);
      expect(serviceFolder("app/services/payments/payto/webhook.server")).toBe("payments/payto");
      expect(serviceFolder("app/services/payments/receipts.server")).toBe("payments");
      expect(serviceFolder("app/services/platform/mail.server")).toBeNull();
    });
  });
});
