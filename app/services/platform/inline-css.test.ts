import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { themeClass } from "~/themes/themes.css";
import { inlineCssFor, styleHashSource, withOnePreset } from "./inline-css.server";
import { securityHeaders } from "./security-headers.server";

describe("the stylesheet inside the document (decision 049)", () => {
  let directory: string;
  let cwd: string;
  beforeAll(() => {
    cwd = process.cwd();
    directory = mkdtempSync(join(tmpdir(), "inline-css-"));
    mkdirSync(join(directory, "public", "build"), { recursive: true });
    writeFileSync(join(directory, "public", "build", "css-bundle-A.css"), ".a{color:red}");
    writeFileSync(join(directory, "public", "build", "css-bundle-B.css"), ".b{content:'</style><script>'}");
    // Every theme's preset, as vanilla-extract writes them, among other rules.
    const presets = Object.values(themeClass).map((name, index) => `.${name}{--c:#${index}0${index};--s:#fff}`);
    writeFileSync(
      join(directory, "public", "build", "css-bundle-T.css"),
      `.a{color:red}${presets.join("")}.z{color:var(--c)}`,
    );
    process.chdir(directory);
  });
  afterAll(() => {
    process.chdir(cwd);
    rmSync(directory, { recursive: true, force: true });
  });

  it("reads the built bundle's text once, by its build path", () => {
    expect(inlineCssFor("/build/css-bundle-A.css")).toBe(".a{color:red}");
  });

  it("links the file instead when the text is missing, outside the build, or could end the element", () => {
    expect(inlineCssFor(undefined)).toBeNull();
    expect(inlineCssFor("/build/css-bundle-missing.css")).toBeNull();
    expect(inlineCssFor("/build/../package.json")).toBeNull();
    expect(inlineCssFor("/etc/passwd")).toBeNull();
    expect(inlineCssFor("/build/css-bundle-B.css")).toBeNull();
  });

  it("allows exactly that text by its hash in style-src, beside the page's nonce", () => {
    const source = styleHashSource(".a{color:red}");
    const digest = createHash("sha256").update(".a{color:red}").digest("base64");
    expect(source).toBe(`'sha256-${digest}'`);
    const csp = securityHeaders(new Request("http://acme.localhost/"), "n", { styleSources: [source] })[
      "Content-Security-Policy"
    ];
    expect(csp).toContain(`style-src 'self' 'nonce-n' ${source}`);
    // Anything that is not a hash source is dropped, so no caller can widen the policy by mistake.
    const widened = securityHeaders(new Request("http://acme.localhost/"), "n", {
      styleSources: ["'unsafe-inline'", "https://evil.example"],
    })["Content-Security-Policy"];
    expect(widened).toContain("style-src 'self' 'nonce-n';");
  });

  it("keeps the host theme's preset only, and none in a document without a brand (decision 088)", () => {
    const whole = inlineCssFor("/build/css-bundle-T.css")!;
    const base = inlineCssFor("/build/css-bundle-T.css", "base")!;
    const violet = inlineCssFor("/build/css-bundle-T.css", "electric-violet")!;
    for (const [name, text] of [
      ["base", base],
      ["electric-violet", violet],
    ] as const) {
      const kept = Object.entries(themeClass).filter(([, className]) => text.includes(`.${className}{`));
      expect(kept.map(([theme]) => theme)).toEqual([name]);
      expect(text.startsWith(".a{color:red}")).toBe(true);
      expect(text.endsWith(".z{color:var(--c)}")).toBe(true);
    }
    expect(base.length).toBeLessThan(whole.length / 4);
    const none = inlineCssFor("/build/css-bundle-T.css", null)!;
    expect(none).toBe(".a{color:red}.z{color:var(--c)}");
  });

  it("keeps the text whole when a preset is not one rule of its own class", () => {
    expect(withOnePreset(".a{}.t1{--c:red}.t2{--c:blue}", "t1", ["t1", "t2"])).toBe(".a{}.t1{--c:red}");
    expect(withOnePreset(".t2{--c:blue}.t1{--c:red}", "t1", ["t1", "t2"])).toBe(".t1{--c:red}");
    // Missing, twice, or inside another selector: no rule is dropped.
    expect(withOnePreset(".a{}.t1{--c:red}", "t1", ["t1", "t2"])).toBe(".a{}.t1{--c:red}");
    expect(withOnePreset(".t1{--c:red}.t2{--c:blue}.t2{--d:0}", "t1", ["t1", "t2"])).toBe(
      ".t1{--c:red}.t2{--c:blue}.t2{--d:0}",
    );
    expect(withOnePreset(".t1{--c:red}.x .t2{--c:blue}", "t1", ["t1", "t2"])).toBe(".t1{--c:red}.x .t2{--c:blue}");
    // A class name that only starts like a preset's is another class.
    expect(withOnePreset(".t1{--c:red}.t2{--c:blue}.t20{--c:green}", "t1", ["t1", "t2"])).toBe(
      ".t1{--c:red}.t20{--c:green}",
    );
  });
});
