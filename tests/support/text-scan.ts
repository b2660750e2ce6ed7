/**
 * The words check of issue 32: slips a person would notice in text the portal shows, found in the
 * visible text of every page the e2e journeys open (tests/e2e/fixtures.ts) and of every email
 * (app/services/platform/email-words.test.tsx). Pure, so it is unit-tested on its own
 * (text-scan.test.ts).
 *
 * - "Supplies's", "'s's": a possessive tacked onto a name that cannot take it (write "terms of
 *   trade of Acme Plumbing Supplies").
 * - ".." ending a sentence ("Contact Kiwi Freight Co.."); an ellipsis ("...") is fine.
 * - A card brand in lower case ("visa •••• 1111"): the labels of app/lib/card.ts.
 * - "sandbox" on a page a customer sees (the provider's internal name); the sandbox bank's own
 *   pages and the back office are not customer pages.
 * - An ISO timestamp ("2026-12-03T23:15"): dates are shown in the spec's one format.
 */
export type TextFinding = { rule: string; excerpt: string };

type Rule = { rule: string; pattern: RegExp; customerOnly?: boolean };

const RULES: Rule[] = [
  { rule: "possessive 's after 's", pattern: /['’]s['’]s\b/g },
  // A capitalised name ending in "s" with "'s" added: "Acme Plumbing Supplies's" (never "business's").
  { rule: "possessive 's after a name ending in s", pattern: /\b[A-Z][\w&-]*s['’]s\b/g },
  { rule: "double full stop", pattern: /(?<!\.)\.\.(?![.\w/])/g },
  { rule: "lower-case card brand", pattern: /(?<![\w@./-])(?:visa|mastercard|amex)(?![\w@-]|\.\w)/g },
  { rule: "'sandbox' on a customer page", pattern: /\bsandbox\b/gi, customerOnly: true },
  { rule: "ISO timestamp", pattern: /\d{4}-\d\d-\d\dT\d\d:\d\d/g },
];

/** Addresses are not words: an email or URL may spell a brand in lower case ("visa.example"). */
const ADDRESSES = /\b[\w.+-]+@[\w.-]+\.\w+\b|\bhttps?:\/\/\S+|\bwww\.\S+/g;

/** The text around a finding, on one line, to say where it is. */
function excerptAt(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 40);
  const end = Math.min(text.length, index + length + 40);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/g, " ").trim()}${end < text.length ? "…" : ""}`;
}

export function scanText(text: string, options: { customerPage: boolean }): TextFinding[] {
  // Addresses become spaces of the same length, so excerpts still show the text as it is.
  const words = text.replace(ADDRESSES, (address) => " ".repeat(address.length));
  const findings: TextFinding[] = [];
  for (const { rule, pattern, customerOnly } of RULES) {
    if (customerOnly && !options.customerPage) continue;
    for (const match of words.matchAll(pattern)) {
      findings.push({ rule, excerpt: excerptAt(text, match.index, match[0].length) });
    }
  }
  return findings;
}

/**
 * Pages a customer does not see: the PayTo sandbox's stand-in bank (`/sandbox/…`, a third party's
 * page in the demo), the host admin's pages (`/admin…`) and the back office's API.
 */
export function isCustomerPage(url: string): boolean {
  const path = new URL(url).pathname;
  return !/^\/(sandbox|admin)(\/|$)/.test(path) && !path.startsWith("/api/back-office");
}

/** The findings as a test failure says them: rule, then the text around it. */
export function describeFindings(where: string, findings: TextFinding[]): string[] {
  return findings.map(({ rule, excerpt }) => `${rule} on ${where}: "${excerpt}"`);
}
