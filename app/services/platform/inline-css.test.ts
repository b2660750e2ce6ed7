import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inlineCssFor, styleHashSource } from "./inline-css.server";
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
});
