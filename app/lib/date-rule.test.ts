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

/**
 * Every date a page shows follows the page's language (decision 078, update 2026-12-04): pages get
 * `pageDates(request, branding)` (or `datesIn`), which passes the language. Outside these modules a
 * call of `formatDate(` (English only) is refused, and a call of `formatDateTime(` or `formatDateIn(`
 * must pass a `language`. Each module here says why it writes English dates.
 */
const ENGLISH_DATES = new Map([
  ["app/lib/format.ts", "the formatters themselves"],
  // Emails are sent in the default language (decision 014); an email that takes a language
  // (instalment emails) passes it and is not listed.
  ["app/services/schedules/schedule-email.server.tsx", "an email"],
  ["app/services/agreements/agreement-email.server.tsx", "an email"],
  ["app/services/credit/trade-reference-email.server.tsx", "an email"],
  ["app/services/credit/credit-email.server.tsx", "an email"],
  ["app/services/credit/credit-decision-email.server.tsx", "an email"],
  ["app/services/requests/request-email.server.tsx", "an email"],
  ["app/services/responses/response-email.server.tsx", "an email"],
  ["app/services/payments/receipts.server.ts", "the receipt email"],
  ["app/services/branding/email-previews.server.ts", "the emails as an admin previews them, in the emails' language"],
  ["app/services/payments/payto/payid-receipt-email.server.ts", "the PayID receipt email"],
  // Not the portal's pages: the operators' health page and the sandbox's stand-in bank.
  ["app/routes/_public+/heartbeat.tsx", "the health page"],
  ["app/routes/sandbox+/payto-bank.tsx", "the sandbox bank"],
]);

/** The argument text of each call of `name(` in `text`, up to its closing parenthesis. */
function callsOf(text: string, name: string): { line: number; args: string }[] {
  const calls: { line: number; args: string }[] = [];
  const pattern = new RegExp(`\\b${name}\\(`, "g");
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (end < text.length && depth > 0) {
      if (text[end] === "(") depth += 1;
      if (text[end] === ")") depth -= 1;
      end += 1;
    }
    const before = text.slice(0, match.index);
    // A declaration or a comment names the function without calling it.
    const lineStart = before.lastIndexOf("\n") + 1;
    const lineText = text.slice(lineStart, match.index);
    if (/function\s*$/.test(lineText) || /^\s*(\*|\/\/)/.test(lineText)) continue;
    calls.push({ line: before.split("\n").length, args: text.slice(match.index + match[0].length, end - 1) });
  }
  return calls;
}

function datesWithoutLanguage(): { offences: string[]; english: Set<string> } {
  const offences: string[] = [];
  const english = new Set<string>();
  for (const file of sourceFiles("app")) {
    const name = file.split(path.sep).join("/");
    const text = fs.readFileSync(file, "utf8");
    const found = [
      ...callsOf(text, "formatDate").map((call) => ({ ...call, fn: "formatDate" })),
      ...callsOf(text, "formatDateTime")
        .concat(callsOf(text, "formatDateIn"))
        .filter((call) => !/\blanguage\b/.test(call.args))
        .map((call) => ({ ...call, fn: "formatDateTime/In without a language" })),
    ];
    if (found.length === 0) continue;
    if (ENGLISH_DATES.has(name)) {
      english.add(name);
      continue;
    }
    offences.push(...found.map((call) => `${name}:${call.line}: ${call.fn}(${call.args.replace(/\s+/g, " ")})`));
  }
  return { offences, english };
}

describe("decision 078: calendar dates are the business's", () => {
  it("no page or email formats a date but through app/lib/format.ts", () => {
    expect(ownDateFormatting()).toEqual([]);
  });

  it("no app or seed code takes a record's date from UTC, the database's current_date or the system clock", () => {
    expect(offences()).toEqual([]);
  });

  it("every date a page shows is in the page's language: English-only dates only where this test says why", () => {
    const { offences, english } = datesWithoutLanguage();
    expect(offences).toEqual([]);
    // A listed module that no longer writes English dates leaves the list.
    expect([...ENGLISH_DATES.keys()].filter((name) => !english.has(name))).toEqual([]);
  });
});
