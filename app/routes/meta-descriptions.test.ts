import { routeModuleFiles } from "../../tests/support/route-modules";
import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/i18n/catalog";
import type { LanguageCode } from "~/lib/i18n";
import { provideMessages } from "~/lib/i18n/runtime";
import { meta as rootMeta } from "~/root";

/**
 * Every page says what it is for in a meta description (issue 19): search engines and link
 * previews show it, and Lighthouse's SEO audit fails a page without one. This walks the
 * route files, so a new page that forgets its description fails here rather than in a
 * Lighthouse run weeks later. Each page's `meta` is called in both languages, with page
 * data in each of its states (open, closed, invoice, invalid …) and with none at all (the
 * page's loader threw), and must give exactly one description, in that language, naming
 * the business, and never a reference or number from the page's data (an emailed link's
 * page must not leak what the link is for into a preview).
 */

/** Route modules that render no page of their own, so have no description to give. */
const NOT_PAGES: Record<string, string> = {
  // Any unclaimed path: the loader throws 404 and the root's error screen (and meta) answers.
  "$.tsx": "404 via the root",
  // Actions and loaders that only redirect.
  "auth.auth0.tsx": "redirect",
  "auth.signout.tsx": "redirect",
  "customer.agreement._index.tsx": "redirect",
  "language.tsx": "redirect",
  "select-account.tsx": "redirect",
  "user.login.tsx": "redirect",
  // The payer's-bank stand-in is not the portal: English only, no business to name. Its
  // description is checked on its own below.
  "sandbox.payto-bank.tsx": "stand-in",
};

const BUSINESS = "Acme Plumbing Supplies";
const OTHER_BUSINESS = "Harbour Energy";

/** Values of the page data that a description must never repeat. */
const SECRETS = ["INV-SECRET-1001", "PR-SECRET-0001", "PS-SECRET-0002", "PAY-SECRET-0003", "Secret Offer Title"];

/** Page data with every field any page's `meta` reads; `kind` and `reason` vary per state. */
function pageData(kind: string | undefined, businessName: string) {
  return {
    kind,
    reason: "expired",
    businessName,
    published: { businessName },
    account: { name: "Coastal Builders Group" },
    offer: { title: "Secret Offer Title" },
    invoice: { number: "INV-SECRET-1001" },
    request: { reference: "PR-SECRET-0001" },
    schedule: { reference: "PS-SECRET-0002" },
    receipt: { reference: "PAY-SECRET-0003" },
    question: { businessName, kind: "statement" },
    terms: { title: "Terms of trade" },
    step: "business",
    open: true,
    mode: "change",
    applicant: "Tasman Timber",
    topic: "statements",
    enabled: true,
  };
}

const STATES = [undefined, "open", "closed", "invoice", "link-closed", "invalid", "progress"];

function matchesFor(language: LanguageCode) {
  return [
    {
      id: "root",
      params: {},
      pathname: "/",
      data: { language, brand: { businessName: BUSINESS } },
    },
  ];
}

type Descriptor = Record<string, unknown>;
type Meta = (args: Record<string, unknown>) => Descriptor[] | undefined;

function descriptionsOf(result: Descriptor[] | undefined): string[] {
  return (result ?? []).filter((tag) => tag.name === "description").map((tag) => String(tag.content ?? ""));
}

const routeFiles = routeModuleFiles().filter((route) => route.name.endsWith(".tsx"));
const pageFiles = routeFiles.map((route) => route.name);
const modulePath = (name: string) => routeFiles.find((route) => route.name === name)!.path;

describe("meta descriptions", () => {
  // The server holds both dictionaries from start-up (entry.server); so does this test.
  beforeAll(() => {
    for (const [language, messages] of Object.entries(MESSAGES)) provideMessages(language as LanguageCode, messages);
  });

  it("knows every route file (an unlisted non-page would fail below; a listed one must still exist)", () => {
    for (const file of Object.keys(NOT_PAGES)) expect(pageFiles).toContain(file);
    expect(pageFiles.filter((file) => !(file in NOT_PAGES)).length).toBeGreaterThan(50);
  });

  for (const file of pageFiles.filter((name) => !(name in NOT_PAGES))) {
    it(`${file}: one description naming the business, in each language, in every state`, async () => {
      const module = (await import(modulePath(file))) as { meta?: Meta };
      expect(module.meta, `${file} has no meta export`).toBeTypeOf("function");
      const meta = module.meta!;
      for (const language of ["en-AU", "ID"] as const) {
        // The page's own data names the business (a preview may name a draft's): use another
        // name there, so the test sees which one the description took.
        for (const kind of STATES) {
          const data = pageData(kind, OTHER_BUSINESS);
          const result = meta({ data, matches: matchesFor(language), params: {}, location: { pathname: "/" } });
          const descriptions = descriptionsOf(result);
          expect(descriptions, `${file} ${language} ${kind}`).toHaveLength(1);
          const content = descriptions[0] ?? "";
          expect(content, `${file} ${language} ${kind}`).toContain(OTHER_BUSINESS);
          expect(content.length, `${file} ${language} ${kind}: "${content}"`).toBeLessThanOrEqual(160);
          expect(content).not.toMatch(/\{\w+\}/);
          for (const secret of SECRETS) expect(content, `${file} ${language} ${kind}`).not.toContain(secret);
        }
        // The loader threw: no page data, so the host's name from the root.
        const failed = descriptionsOf(meta({ data: undefined, matches: matchesFor(language), params: {} }));
        expect(failed, `${file} ${language} without data`).toHaveLength(1);
        expect(failed[0]).toContain(BUSINESS);
      }
      // Indonesian is not English: the same state reads differently in the two languages.
      const en = descriptionsOf(meta({ data: pageData("open", BUSINESS), matches: matchesFor("en-AU"), params: {} }));
      const id = descriptionsOf(meta({ data: pageData("open", BUSINESS), matches: matchesFor("ID"), params: {} }));
      expect(id[0]).not.toBe(en[0]);
    });
  }

  it("the root's description: the host's portal, its 404 and 503 screens, and an unknown host", () => {
    const call = (data: unknown, error: unknown) =>
      descriptionsOf(
        (rootMeta as unknown as Meta)({ data, error, matches: [{ id: "root", params: {}, pathname: "/", data }] }),
      );
    const rootData = (language: LanguageCode) => ({ language, brand: { businessName: BUSINESS } });
    const notFound = { status: 404, statusText: "Not Found", internal: false, data: null };
    const unavailable = { status: 503, statusText: "Service Unavailable", internal: false, data: null };
    for (const language of ["en-AU", "ID"] as const) {
      const host = call(rootData(language), undefined);
      const missing = call(rootData(language), notFound);
      const down = call(rootData(language), unavailable);
      for (const result of [host, missing, down]) {
        expect(result).toHaveLength(1);
        expect(result[0]).toContain(BUSINESS);
      }
      expect(new Set([host[0], missing[0], down[0]]).size).toBe(3);
    }
    // The host lookup failed: no business to name, but still a sentence.
    const unknown = call(undefined, notFound);
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toBe(MESSAGES["en-AU"]["meta.noHost"]);
  });

  it("the sandbox bank stand-in has a description of its own", async () => {
    const module = (await import(modulePath("sandbox.payto-bank.tsx"))) as { meta: Meta };
    const descriptions = descriptionsOf(module.meta({ data: undefined, matches: [], params: {} }));
    expect(descriptions).toHaveLength(1);
    expect(descriptions[0]).toMatch(/bank/);
  });
});
