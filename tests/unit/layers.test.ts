import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The declared layers (docs/architecture.md): `app/services/platform/` is the floor every service folder stands
 * on, so it imports no domain folder and no seed data. Read from the source, static and dynamic imports alike.
 * The two edges still to be turned round are listed with their reason; an entry that is no longer needed fails
 * too, so the list only shrinks.
 */
const ROOT = path.resolve(__dirname, "../..");
const PLATFORM = path.join(ROOT, "app/services/platform");
const SERVICES = path.join(ROOT, "app/services");

const STILL_TO_TURN: Record<string, string> = {
  // The outbox renders a receipt when it sends it (the receipt is stored as what to render it from); loaded lazily.
  "mail-outbox.server.ts -> app/services/payments/receipts.server": "render at send",
  // A brand-new embedded database is seeded with the demo hosts on first start.
  "database.server.ts -> db/seed/demo": "demo data on first start",
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

describe("layers", () => {
  it("platform/ imports no domain folder and no seed data, but for the edges listed", () => {
    const edges: string[] = [];
    for (const name of fs.readdirSync(PLATFORM)) {
      if (!/\.(ts|tsx)$/.test(name) || /\.test\.(ts|tsx)$/.test(name)) continue;
      const file = path.join(PLATFORM, name);
      for (const specifier of importsOf(file)) {
        const target = resolved(file, specifier);
        const inPlatform = target.startsWith(path.relative(ROOT, PLATFORM) + path.sep);
        const inServices = target.startsWith(path.relative(ROOT, SERVICES) + path.sep);
        if ((inServices && !inPlatform) || target.startsWith(`db${path.sep}seed`)) edges.push(`${name} -> ${target}`);
      }
    }
    expect(edges.filter((edge) => !(edge in STILL_TO_TURN))).toEqual([]);
    expect(Object.keys(STILL_TO_TURN).filter((edge) => !edges.includes(edge))).toEqual([]);
  });

  it("finds an edge when there is one (the check can fail)", () => {
    const file = path.join(PLATFORM, "example.server.ts");
    expect(resolved(file, "../payments/payments.server")).toBe("app/services/payments/payments.server");
    expect(resolved(file, "~/services/credit/credit.server")).toBe("app/services/credit/credit.server");
    expect(importsOf(path.join(PLATFORM, "mail-outbox.server.ts"))).toContain("../payments/receipts.server");
  });
});
