import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Decision 078, enforced: a record's calendar date is the business's date in its own time zone
 * (`businessToday(timeZone)`, `businessTodayOf(db, businessId)`), never the UTC date of an instant
 * and never the database server's `current_date`. App and seed code (not tests) may not:
 * - take the date of an instant with `toISOString().slice(0, 10)` — unless a `date-rule:` comment on
 *   that line or one of the two above says why it is not an instant's date (calendar arithmetic on UTC
 *   midnights, the card network's date for card expiry);
 * - use SQL's `current_date`, which is the database session's zone and the database's clock;
 * - call `todayIn(zone)` without an instant, which reads the system clock instead of the portal's.
 */
const ROOTS = ["app", "db"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

function offences(): string[] {
  const found: string[] = [];
  for (const file of ROOTS.flatMap(sourceFiles)) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.forEach((line, index) => {
      const where = `${file}:${index + 1}: ${line.trim()}`;
      const excused = lines.slice(Math.max(0, index - 2), index + 1).some((near) => /date-rule:/.test(near));
      if (
        /toISOString\(\)\s*\.\s*(slice|substring)\(\s*0\s*,\s*10\s*\)|toISOString\(\)\.split\("T"\)/.test(line) &&
        !excused
      )
        found.push(where);
      if (/\bcurrent_date\b/i.test(line) && !/^\s*(\*|\/\/)/.test(line)) found.push(where);
      if (/\btodayIn\(\s*[\w.]+\s*\)/.test(line)) found.push(where);
    });
  }
  return found;
}

/**
 * One display format from one formatter (decision 078): dates on pages and emails come from
 * `formatDate`/`formatDateTime`/`formatDateIn` of `app/lib/format.ts`. These modules may build their
 * own: the formatters themselves, the business-date helpers, the downloadable agreement record's
 * exact time (seconds and offset), and the health page's clock.
 */
const OWN_DATE_FORMATTERS = new Set([
  "app/lib/format.ts",
  "app/lib/dates.ts",
  "app/lib/agreements.ts",
  "app/routes/_public+/heartbeat.tsx",
]);

function ownDateFormatting(): string[] {
  return sourceFiles("app")
    .filter((file) => !OWN_DATE_FORMATTERS.has(file.split(path.sep).join("/")))
    .flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .map((line, index) => ({ line, where: `${file}:${index + 1}: ${line.trim()}` }))
        .filter(({ line }) =>
          /Intl\.DateTimeFormat|toLocale(Date|Time)String\(|Date\([^)]*\)\.toLocaleString\(/.test(line),
        )
        .map(({ where }) => where),
    );
}

describe("decision 078: calendar dates are the business's", () => {
  it("no page or email formats a date but through app/lib/format.ts", () => {
    expect(ownDateFormatting()).toEqual([]);
  });

  it("no app or seed code takes a record's date from UTC, the database's current_date or the system clock", () => {
    expect(offences()).toEqual([]);
  });
});
