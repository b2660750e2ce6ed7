import fs from "node:fs";
import path from "node:path";

/**
 * Every route module, for the tests that sweep them all (cross-origin, hostile bodies, meta descriptions).
 * Routes live in folders by audience, then feature (decision 064); `name` is the route's flat name, the file
 * name Remix's own convention would give it (`api+/back-office+/payment-requests.ts` →
 * `api.back-office.payment-requests.ts`; the pathless audience folders add nothing), so a test can still tell
 * routes apart by URL shape.
 */
export type RouteModuleFile = { name: string; path: string };

export const ROUTES_DIR = path.join(process.cwd(), "app", "routes");

function isRouteModule(file: string) {
  return (
    /\.(ts|tsx)$/.test(file) && !file.includes(".test.") && !file.endsWith(".css.ts") && !file.includes(".server.")
  );
}

export function routeModuleFiles(): RouteModuleFile[] {
  const found: RouteModuleFile[] = [];
  const walk = (dir: string, prefix: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // A folder ending in `+` adds its name to its files'; any other folder holds a feature's own parts.
      if (entry.isDirectory()) {
        if (!entry.name.endsWith("+")) continue;
        const segment = entry.name.slice(0, -1);
        walk(full, segment.startsWith("_") ? prefix : [...prefix, segment]);
      } else if (dir !== ROUTES_DIR && isRouteModule(entry.name)) {
        found.push({ name: [...prefix, entry.name].join("."), path: full });
      }
    }
  };
  walk(ROUTES_DIR, []);
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
