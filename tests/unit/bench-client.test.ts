import { describe, expect, it } from "vitest";
import { runtimeOf } from "../../bench/bytes";
import { clientChecks, isBreach, type ClientBudgets } from "../../bench/lib/budget-checks";
import { inpOf, interactionsOf } from "../../bench/lib/inp";
import { combineRuns, failingAudits, summarize, type LhrLike } from "../../bench/lib/lighthouse-summary";
import { documentScripts, inlineBytes } from "../../bench/lib/scripts";
import { inlineStylesOf } from "../../bench/pages";

describe("documentScripts", () => {
  it("finds inline scripts, script files and module preloads, and skips data blocks", () => {
    const html = `<!doctype html><html><head>
      <link rel="modulepreload" href="/build/entry.client-A.js">
      <link rel="stylesheet" href="/build/css-bundle.css">
      <script type="application/ld+json">{"@type":"Organization"}</script>
      <script>window.__x = "é";</script>
    </head><body>
      <script type="module" src="/build/root-B.js"></script>
      <script src="/build/entry.client-A.js"></script>
    </body></html>`;
    const scripts = documentScripts(html);
    expect(scripts.inline).toEqual(['window.__x = "é";']);
    expect(scripts.files).toEqual(["/build/root-B.js", "/build/entry.client-A.js"]);
    expect(scripts.dataBlocks).toBe(1);
    // UTF-8 bytes, not characters: "é" is two.
    expect(inlineBytes(scripts)).toBe(18);
  });

  it("counts the scripts and preloads that wait in a template for the first paint (decision 087)", () => {
    const html = `<html><body><main>Pay</main>
      <template id="page-scripts">
        <link rel="modulepreload" href="/build/entry.client-A.js" fetchpriority="low">
        <link rel="modulepreload" href="/build/entry.client-A.js">
        <script>window.__remixContext = {};</script>
        <script type="module">import "/build/root-B.js";</script>
      </template>
      <script>start();</script>
    </body></html>`;
    const scripts = documentScripts(html);
    expect(scripts.inline).toEqual(["start();", "window.__remixContext = {};", 'import "/build/root-B.js";']);
    expect(scripts.files).toEqual(["/build/entry.client-A.js"]);
  });

  it("counts nothing on a document without script", () => {
    const scripts = documentScripts(
      '<html><head><style id="portal-styles">a{}</style></head><body><a href="/">Home</a></body></html>',
    );
    expect(scripts).toEqual({ inline: [], files: [], dataBlocks: 0 });
    expect(inlineBytes(scripts)).toBe(0);
  });
});

describe("inlineStylesOf", () => {
  it("reads the document's own inline stylesheet, and nothing else", () => {
    expect(
      inlineStylesOf(
        '<head><style>.x{}</style><style id="portal-styles" nonce="n">.a{color:red}.t1{--c:#000}</style></head>',
      ),
    ).toBe(".a{color:red}.t1{--c:#000}");
    expect(
      inlineStylesOf('<head><link rel="stylesheet" href="/build/css-bundle-A.css"><style>.x{}</style></head>'),
    ).toBeNull();
  });
});

describe("interactionsOf and inpOf", () => {
  it("groups events by interactionId, keeps the longest, and ignores non-interactions", () => {
    const interactions = interactionsOf([
      { name: "pointerdown", interactionId: 7, duration: 24, startTime: 100 },
      { name: "click", interactionId: 7, duration: 56, startTime: 101 },
      { name: "mouseover", interactionId: 0, duration: 300, startTime: 90 },
      { name: "keydown", interactionId: 9, duration: 32, startTime: 500 },
      { name: "keyup", interactionId: 9, duration: 16, startTime: 520 },
    ]);
    expect(interactions).toEqual([
      { id: 7, duration: 56, events: ["pointerdown", "click"], startTime: 100 },
      { id: 9, duration: 32, events: ["keydown", "keyup"], startTime: 500 },
    ]);
    expect(inpOf(interactions)).toBe(56);
  });

  it("has no INP without an interaction, and forgives one in 50 with many", () => {
    expect(inpOf([])).toBeNull();
    const many = Array.from({ length: 50 }, (_, i) => ({
      id: i + 1,
      duration: i === 0 ? 900 : 40,
      events: ["click"],
      startTime: i,
    }));
    expect(inpOf(many)).toBe(40);
  });
});

const lhr = (perf: number, failingSeo: boolean): LhrLike => ({
  categories: {
    performance: {
      score: perf,
      auditRefs: [
        { id: "largest-contentful-paint", weight: 25 },
        { id: "render-blocking-resources", weight: 0 },
        { id: "network-requests", weight: 0 },
      ],
    },
    seo: {
      score: failingSeo ? 0.91 : 1,
      auditRefs: [
        { id: "meta-description", weight: 1 },
        { id: "hreflang", weight: 1 },
      ],
    },
  },
  audits: {
    "largest-contentful-paint": { score: 0.95, scoreDisplayMode: "numeric", numericValue: 2100.4 },
    "render-blocking-resources": { score: 0.5, scoreDisplayMode: "metricSavings" },
    "network-requests": { score: null, scoreDisplayMode: "informative" },
    "meta-description": { score: failingSeo ? 0 : 1, scoreDisplayMode: "binary" },
    hreflang: { score: null, scoreDisplayMode: "notApplicable" },
    "first-contentful-paint": { score: 1, scoreDisplayMode: "numeric", numericValue: 900 },
    "total-blocking-time": { score: 1, scoreDisplayMode: "numeric", numericValue: 12 },
    "cumulative-layout-shift": { score: 1, scoreDisplayMode: "numeric", numericValue: 0.00012 },
    "speed-index": { score: 1, scoreDisplayMode: "numeric", numericValue: 1000 },
  },
});

describe("Lighthouse summary", () => {
  it("names the audits that cost points or that Lighthouse shows as failed", () => {
    expect(failingAudits(lhr(0.97, true), "performance")).toEqual([
      "largest-contentful-paint",
      "render-blocking-resources",
    ]);
    expect(failingAudits(lhr(0.97, true), "seo")).toEqual(["meta-description"]);
    expect(failingAudits(lhr(0.97, false), "seo")).toEqual([]);
  });

  it("scores out of 100, leaves out categories not run, and rounds metrics", () => {
    const run = summarize(lhr(0.97, true));
    expect(run.scores).toEqual({ performance: 97, seo: 91 });
    expect(run.metrics).toEqual({ fcp: 900, lcp: 2100, tbt: 12, cls: 0.0001, speedIndex: 1000 });
    expect(() => summarize({ ...lhr(1, false), runtimeError: { code: "NO_FCP", message: "no paint" } })).toThrow(
      /NO_FCP/,
    );
  });

  it("combines runs by median, keeping audits that failed in at least half of them", () => {
    const combined = combineRuns([summarize(lhr(0.9, true)), summarize(lhr(0.99, false)), summarize(lhr(0.97, false))]);
    expect(combined.scores).toEqual({ performance: 97, seo: 100 });
    expect(combined.failing.seo).toEqual([]);
    expect(combined.failing.performance).toEqual(["largest-contentful-paint", "render-blocking-resources"]);
  });
});

describe("clientChecks", () => {
  const budgets: ClientBudgets = {
    lighthouse: { pages: ["sign-in"], minScore: 100 },
    lowEnd: { lcpMs: 1500, tbtMs: 30 },
    inp: { pages: ["pay"], maxMs: 100 },
    readOnly: { maxJsBytes: 0 },
    journey: { journeys: ["request-link-new-card"], receiptMs: 6000, maxRefused: 0 },
  };
  const run = summarize(lhr(0.97, true));

  it("fails each budget over its limit, naming the failing audits", () => {
    const checks = clientChecks(
      budgets,
      {
        lighthouse: [{ page: "sign-in", path: "/auth/signin", runs: [run], median: run }],
        lowEndApplied: [{ page: "sign-in", median: { fcp: 900, lcp: 2100, tbt: 12, cls: 0, load: 3000 } }],
        inp: [{ page: "pay", path: "/pay", runs: [], inp: 120 }],
        // Fast enough, but one tap was refused on the way: a breach all the same.
        journey: [{ journey: "request-link-new-card", runs: [], receiptMs: 4200, refused: 1 }],
        readOnly: [
          { page: "terms", path: "/terms", htmlGzip: 1, inlineScripts: 1, inlineBytes: 10, files: [], jsBytes: 10 },
        ],
      },
      { lowEndPages: ["sign-in"], readOnlyPages: ["terms"] },
    );
    const breaches = checks.filter(isBreach).map((check) => `${check.budget} ${check.subject} ${check.value}`);
    expect(breaches).toEqual([
      "Lighthouse performance (mobile preset, median) sign-in (failing: largest-contentful-paint, render-blocking-resources) 97",
      // The fixture ran two categories only: the missing two are breaches, not passes.
      "Lighthouse accessibility (mobile preset, median) sign-in NaN",
      "Lighthouse best-practices (mobile preset, median) sign-in NaN",
      "Lighthouse seo (mobile preset, median) sign-in (failing: meta-description) 91",
      "low-end LCP (applied in Chromium, median) sign-in 2100",
      "Interaction to Next Paint on the low-end phone (median) pay 120",
      "Refused taps on the journey (all runs) request-link-new-card 1",
      "JavaScript on a read-only page (inline + files) terms 10",
    ]);
  });

  it("treats a page that was not measured as a breach", () => {
    const checks = clientChecks(budgets, {}, { lowEndPages: ["dashboard"], readOnlyPages: ["receipt"] });
    expect(checks).toHaveLength(4 + 2 + 1 + 2 + 1);
    expect(checks.every(isBreach)).toBe(true);
  });
});

describe("runtimeOf", () => {
  it("reads whether a route's documents load its JavaScript from its handle", () => {
    expect(runtimeOf("export const handle = STATIC_PAGE;\nexport default function A() {}")).toBe("never");
    expect(runtimeOf("export const handle = { hydrate: false };")).toBe("never");
    expect(runtimeOf("export const handle = ENHANCED_PAGE;\nexport default function A() {}")).toBe("never");
    expect(
      runtimeOf('export const handle: HydrateHandle = {\n  hydrate: (data) => (data as X).kind === "open",\n};'),
    ).toBe("data");
    expect(runtimeOf("export const handle = { standalone: true };")).toBe("always");
    expect(runtimeOf("export default function B() {}")).toBe("always");
  });
});
