import { createHash } from "node:crypto";
import { deflateSync, crc32 } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { BRAND_FORM_BODY_BYTES, edgeAnswer, edgeRefusal, maxBodyBytesFor } from "../../../scripts/edge.js";
import { BRAND_FORM_MAX_BYTES, BRAND_UPLOAD_LIMITS, type BrandUploadKind } from "~/lib/brand-uploads";
import type { DatabaseHandle } from "../platform/db.server";
import { checkBrandUpload, readBrandForm, storeBrandAsset, type CheckedBrandAsset } from "./brand-assets.server";

/**
 * Brand uploads (issue 16): files are judged by their bytes alone. The images are made here at
 * test time (sharp for the good ones, by hand for the hostile ones); nothing is read from disk.
 */

// jsdom as it is, counting the documents it parses: a test can tell "refused before parsing" by outcome.
const jsdomParses = vi.hoisted(() => ({ count: 0 }));
vi.mock("jsdom", async (importOriginal) => {
  const jsdom = await importOriginal<typeof import("jsdom")>();
  class CountedJSDOM extends jsdom.JSDOM {
    constructor(...args: ConstructorParameters<typeof jsdom.JSDOM>) {
      jsdomParses.count++;
      super(...args);
    }
  }
  return { ...jsdom, JSDOM: CountedJSDOM };
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const upload = (kind: BrandUploadKind, bytes: Uint8Array | string, name = "file.png", type = "image/png") =>
  checkBrandUpload(kind, { name, type, bytes: typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes });

async function ok(kind: BrandUploadKind, bytes: Uint8Array | string, name?: string, type?: string) {
  const result = await upload(kind, bytes, name, type);
  if (!result.ok) throw new Error(`refused: ${result.problem}`);
  return result.asset;
}

async function problem(kind: BrandUploadKind, bytes: Uint8Array | string, name?: string, type?: string) {
  const result = await upload(kind, bytes, name, type);
  return result.ok ? "accepted" : result.problem;
}

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 12, g: 90, b: 200, alpha: 0.8 } } });

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid-looking PNG header claiming these dimensions, with a few bytes of data. */
function pngClaiming(width: number, height: number) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(64))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const svg = (body: string, attributes = 'width="240" height="80" viewBox="0 0 240 80"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${attributes}>${body}</svg>`;

/**
 * A logo as a business would upload one: a mark and a wordmark, fine strokes and small text on white, 960×384
 * (six times the 160×64 it is drawn at on the branding page, three times a phone's 2× header).
 */
const LOGO_SVG = svg(
  `<rect width="960" height="384" fill="#ffffff"/>
   <rect x="24" y="48" width="288" height="288" rx="48" fill="#1f3a68"/>
   <path d="M88 280 L168 104 L248 280 M120 216 H216" stroke="#ffffff" stroke-width="28" fill="none"/>
   <text x="352" y="210" font-family="DejaVu Sans" font-weight="bold" font-size="150" fill="#1f3a68">ACME</text>
   <text x="356" y="300" font-family="DejaVu Sans" font-size="56" fill="#33475b">Plumbing Supplies</text>
   <path d="M352 330 H930" stroke="#c8102e" stroke-width="6"/>`,
  'width="960" height="384" viewBox="0 0 960 384"',
);

/** Luminance (0–1, linear) of each pixel of the image drawn at width × height, as a browser would scale it. */
async function drawnAt(bytes: Uint8Array, width: number, height: number) {
  const { data } = await sharp(bytes)
    .resize(width, height, { fit: "fill" })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const linear = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  const out = new Float64Array(width * height);
  for (let i = 0; i < out.length; i++) {
    out[i] = 0.2126 * linear(data[i * 3]!) + 0.7152 * linear(data[i * 3 + 1]!) + 0.0722 * linear(data[i * 3 + 2]!);
  }
  return out;
}

/** WCAG contrast between the image's darkest and lightest 2 % (its ink and its paper). */
function inkContrast(luminance: Float64Array) {
  const sorted = [...luminance].sort((a, b) => a - b);
  const dark = sorted[Math.floor(sorted.length * 0.02)]!;
  const light = sorted[Math.floor(sorted.length * 0.98)]!;
  return (light + 0.05) / (dark + 0.05);
}

/** Sharpness: the mean size of the Laplacian (how sudden its edges are), on the drawn pixels. */
function edgeEnergy(luminance: Float64Array, width: number, height: number) {
  let sum = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      sum += Math.abs(
        4 * luminance[i]! - luminance[i - 1]! - luminance[i + 1]! - luminance[i - width]! - luminance[i + width]!,
      );
    }
  }
  return sum / ((width - 2) * (height - 2));
}

/** Peak signal to noise between two drawings of one size, in dB (higher is closer). */
function psnr(a: Float64Array, b: Float64Array) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return 10 * Math.log10(1 / (sum / a.length));
}

describe("re-encoding at spec §9's quality 75 (decision 094)", () => {
  // Uploaded larger than drawn (the usual case), and exactly at the 2× size (the hardest: nothing is scaled away).
  const uploads = [
    { name: "a 960×384 upload", size: [960, 384] },
    { name: "a 320×128 upload", size: [320, 128] },
  ] as const;
  for (const format of ["jpeg", "webp"] as const) {
    for (const { name, size } of uploads) {
      it(`${format}, ${name}: a third fewer bytes than at 90; at a phone's 2× the same contrast, as sharp`, async () => {
        const source = sharp(Buffer.from(LOGO_SVG)).resize(size[0], size[1]);
        const upload = await (
          format === "jpeg" ? source.jpeg({ quality: 100 }) : source.webp({ lossless: true })
        ).toBuffer();
        const stored = await ok("logo", upload, `logo.${format}`, `image/${format}`);
        expect(stored.contentType).toBe(`image/${format}`);
        const at90 = await (
          format === "jpeg" ? sharp(upload).jpeg({ quality: 90, mozjpeg: true }) : sharp(upload).webp({ quality: 90 })
        ).toBuffer();
        expect(stored.bytes.length).toBeLessThan(at90.length * 0.75);
        // Drawn at 2×: 80 px high in a phone's header, 320 × 128 on the branding page.
        for (const [width, height] of [
          [200, 80],
          [320, 128],
        ] as const) {
          const label = `${format} ${name} drawn at ${width}×${height}`;
          const before = await drawnAt(upload, width, height);
          const after = await drawnAt(stored.bytes, width, height);
          // Contrast: the ink stays as dark against its paper (WCAG's 4.5:1 for the wordmark's text).
          expect(inkContrast(after), label).toBeGreaterThan(4.5);
          expect(inkContrast(after) / inkContrast(before), label).toBeGreaterThan(0.97);
          // Sharpness: no softening of the edges (quality 60 loses 8 % of their energy on the 320×128 JPEG).
          expect(edgeEnergy(after, width, height) / edgeEnergy(before, width, height), label).toBeGreaterThan(0.95);
          // Scaled down at least twofold, what is left of the re-encoding is under 40 dB's "no eye sees it"
          // (quality 20 falls to 36 dB on the JPEG drawn 80 px high).
          if (size[0] >= width * 2) expect(psnr(after, before), label).toBeGreaterThan(40);
        }
      });
    }
  }
});

describe("checkBrandUpload: PNG, JPEG and WebP are re-encoded by sharp", () => {
  it("takes a PNG: its dimensions, re-encoded bytes, the hash of what is stored", async () => {
    const input = await picture(300, 120).png().toBuffer();
    const asset = await ok("logo", input);
    expect(asset).toMatchObject({ contentType: "image/png", width: 300, height: 120, byteSize: asset.bytes.length });
    expect(asset.sha256).toBe(sha256(asset.bytes));
    expect(asset.sha256).not.toBe(sha256(input));
    expect((await sharp(asset.bytes).metadata()).format).toBe("png");
  });

  it("takes a JPEG with EXIF (even named .png): turned upright, the EXIF gone", async () => {
    const input = await picture(200, 100)
      .jpeg()
      .withExif({ IFD0: { Artist: "Secret Person", Copyright: "GPS 1.2,3.4" } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const before = await sharp(input).metadata();
    expect(before.exif).toBeDefined();
    expect(before.orientation).toBe(6);
    const asset = await ok("logo", input, "logo.png", "image/png");
    expect(asset.contentType).toBe("image/jpeg");
    // Orientation 6 is a quarter turn: the stored picture is as the admin saw it.
    expect([asset.width, asset.height]).toEqual([100, 200]);
    const after = await sharp(asset.bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(asset.bytes.includes(Buffer.from("Secret Person"))).toBe(false);
    expect(sha256(asset.bytes)).not.toBe(sha256(input));
  });

  it("takes a WebP, as a favicon", async () => {
    const input = await picture(64, 64).webp().toBuffer();
    const asset = await ok("favicon", input, "icon.webp", "image/webp");
    expect(asset).toMatchObject({ contentType: "image/webp", width: 64, height: 64 });
    expect(sha256(asset.bytes)).not.toBe(sha256(input));
  });

  it("refuses an HTML page named .png, and other formats sharp knows (GIF)", async () => {
    const html = "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>";
    expect(await problem("logo", html, "logo.png", "image/png")).toBe("notImage");
    expect(await problem("logo", "GIF89a but not really", "logo.gif", "image/gif")).toBe("notImage");
    expect(await problem("logo", await picture(20, 20).gif().toBuffer(), "logo.png", "image/png")).toBe("notImage");
    expect(await problem("logo", Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe("notImage");
  });

  it("refuses a PNG cut short after its header", async () => {
    const input = await sharp({
      create: {
        width: 400,
        height: 400,
        channels: 3,
        background: "#000",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(await problem("logo", input.subarray(0, Math.floor(input.length / 2)))).toBe("notImage");
  });

  it("refuses a pixel bomb (a small PNG claiming 100000×100000) from its header", async () => {
    const bomb = pngClaiming(100_000, 100_000);
    expect(bomb.length).toBeLessThan(200);
    expect(await problem("logo", bomb)).toBe("pixels");
    expect(await problem("favicon", bomb)).toBe("pixels");
  });

  it("refuses images over the kind's pixel limits, and files over its byte limit or empty", async () => {
    const { logo, favicon } = BRAND_UPLOAD_LIMITS;
    expect(
      await problem(
        "logo",
        await picture(logo.maxWidth + 1, 10)
          .png()
          .toBuffer(),
      ),
    ).toBe("pixels");
    expect(
      await problem(
        "favicon",
        await picture(favicon.maxWidth + 1, 16)
          .png()
          .toBuffer(),
      ),
    ).toBe("pixels");
    expect(
      await problem(
        "favicon",
        await picture(16, favicon.maxHeight + 1)
          .webp()
          .toBuffer(),
      ),
    ).toBe("pixels");
    const ok512 = await ok("favicon", await picture(512, 512).png().toBuffer());
    expect([ok512.width, ok512.height]).toEqual([512, 512]);
    expect(await problem("logo", new Uint8Array(0))).toBe("empty");
    expect(await problem("favicon", new Uint8Array(favicon.maxBytes + 1))).toBe("tooLarge");
    expect(await problem("logo", new Uint8Array(logo.maxBytes + 1))).toBe("tooLarge");
  });
});

describe("checkBrandUpload: SVG", () => {
  it("takes a plain SVG: the sanitiser's output is stored, with its declared size", async () => {
    const input = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generator: an editor -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
${svg(
  `<metadata>made by someone</metadata><defs><linearGradient id="g"><stop offset="0" stop-color="#0a5"/></linearGradient></defs>
<style>.mark { fill: url(#g) }</style><rect class="mark" width="80" height="80" rx="8"/><text x="90" y="50" fill="#123">Acme &amp; Co</text>`,
  'width="240" height="80" viewBox="0 0 240 80" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.3"',
)}`;
    const asset = await ok("logo", input, "logo.svg", "image/svg+xml");
    expect(asset).toMatchObject({ contentType: "image/svg+xml", width: 240, height: 80 });
    const text = asset.bytes.toString("utf8");
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(text).toContain("Acme &amp; Co");
    expect(text).toContain("url(#g)");
    expect(text).not.toContain("inkscape");
    expect(text).not.toContain("DOCTYPE");
    expect(asset.sha256).toBe(sha256(asset.bytes));
    expect((await sharp(asset.bytes).metadata()).format).toBe("svg");
  });

  it("takes an SVG named .png and one sized by its viewBox alone", async () => {
    const asset = await ok("favicon", svg('<circle cx="16" cy="16" r="14"/>', 'viewBox="0 0 32 32"'), "x.png");
    expect(asset).toMatchObject({ contentType: "image/svg+xml", width: 32, height: 32 });
  });

  const attacks: [string, string][] = [
    ["<script>", svg("<script>alert(1)</script><rect width='5' height='5'/>")],
    ["<script> in CDATA", svg("<script><![CDATA[alert(1)]]></script>")],
    ["onload=", svg('<rect width="5" height="5"/>', 'width="10" height="10" onload="alert(1)"')],
    ["an onclick on a child", svg('<g onclick="alert(1)"><rect width="5" height="5"/></g>')],
    ['xlink:href="https://…"', svg('<image xlink:href="https://evil.example/x.png" width="5" height="5"/>')],
    ['href="https://…" on <use>', svg('<use href="https://evil.example/sprite.svg#a"/>')],
    ["a data: image", svg('<image href="data:image/svg+xml;base64,PHN2Zy8+" width="5" height="5"/>')],
    [
      "<foreignObject>",
      svg('<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'),
    ],
    [
      'style="background:url(https://…)"',
      svg('<rect width="5" height="5" style="background:url(https://evil.example/t)"/>'),
    ],
    ["fill=url(https://…)", svg('<rect width="5" height="5" fill="url(https://evil.example/p.svg#g)"/>')],
    ["<style> @import", svg("<style>@import url(https://evil.example/x.css);</style>")],
    ["<style> url(//…)", svg("<style>rect { fill: url('//evil.example/g.svg#a') }</style>")],
    ["a CSS escape", svg("<style>rect { fill: u\\72l(https://evil.example/g) }</style>")],
    ['<a href="javascript:…">', svg('<a href="javascript:alert(1)"><text>x</text></a>')],
    ["javascript: with a tab", svg('<a xlink:href="java&#x09;script:alert(1)"><text>x</text></a>')],
    ["<set> to a javascript: href", svg('<a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>')],
    ["an XHTML script", svg('<html:script xmlns:html="http://www.w3.org/1999/xhtml">alert(1)</html:script>')],
    ["<iframe>", svg('<iframe src="https://evil.example"/>')],
    [
      "an entity (billion laughs)",
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>${svg("<text>&b;</text>")}`,
    ],
    ["an external entity", `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${svg("<text>&x;</text>")}`],
    [
      "<?xml-stylesheet?>",
      `<?xml version="1.0"?><?xml-stylesheet href="https://evil.example/s.css"?>${svg("<rect/>")}`,
    ],
    // Presentation attributes are CSS too: an escape there spells url( without the letters.
    ["an escaped url( in fill", svg('<rect width="5" height="5" fill="\\000075rl(https://evil.example/p.svg#g)"/>')],
    ["an escaped url( in filter", svg('<rect width="5" height="5" filter="\\75 rl(https://evil.example/f.svg#f)"/>')],
    // Far more than any logo: refused before it is parsed (parsing would hold the process for seconds).
    ["60,000 elements", svg('<rect x="1"/>'.repeat(60_000))],
    [
      "one element with 40,000 attributes",
      svg(`<rect ${Array.from({ length: 40_000 }, (_, i) => `a${i}="1"`).join(" ")}/>`),
    ],
    ["100,000 nested groups", svg(`${"<g>".repeat(100_000)}${"</g>".repeat(100_000)}`)],
    [
      "2,000 elements of 10 attributes",
      svg(`<rect ${Array.from({ length: 10 }, (_, i) => `a${i}="1"`).join(" ")}/>`.repeat(2_000)),
    ],
  ];

  it("refuses an over-complex SVG at once, without parsing it", async () => {
    // "At once" means the cheap scan refused it and the parser (seconds on such a document) never ran:
    // counted, not timed.
    jsdomParses.count = 0;
    expect(await problem("logo", svg('<rect x="1"/>'.repeat(60_000)), "logo.svg", "image/svg+xml")).toBe("svgUnsafe");
    expect(await problem("logo", svg(`${"<g>".repeat(100_000)}${"</g>".repeat(100_000)}`))).toBe("svgUnsafe");
    expect(jsdomParses.count).toBe(0);
    // The counter does see parsing: a logo is parsed (and its sanitised copy parsed again).
    await ok("favicon", svg('<circle cx="16" cy="16" r="14"/>', 'viewBox="0 0 32 32"'), "x.svg", "image/svg+xml");
    expect(jsdomParses.count).toBeGreaterThan(0);
  });

  it.each(attacks)("refuses an SVG with %s", async (_name, input) => {
    expect(await problem("logo", input, "logo.svg", "image/svg+xml")).toBe("svgUnsafe");
  });

  it("refuses an SVG that is not well-formed, not SVG, or too large in pixels", async () => {
    expect(await problem("logo", '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>')).toBe("notImage");
    expect(await problem("logo", "<svg><rect/></svg>")).toBe("notImage");
    expect(await problem("logo", svg("<rect/>", 'width="100000" height="100000"'))).toBe("pixels");
    expect(await problem("favicon", svg("<rect/>", 'width="600" height="10"'))).toBe("pixels");
  });
});

describe("readBrandForm: multipart with hard limits", () => {
  const url = "http://acme.localhost/admin/branding";

  it("gives the text fields and the two files; an empty file input is no file", async () => {
    const form = new FormData();
    form.set("businessName", "Acme <b>Plumbing</b>");
    form.set("theme", "navy-blue");
    form.set("logo", new File([new Uint8Array([1, 2, 3])], "logo.png", { type: "image/png" }));
    form.set("favicon", new File([], "", { type: "application/octet-stream" }));
    const result = await readBrandForm(new Request(url, { method: "POST", body: form }), BRAND_FORM_MAX_BYTES);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect({ ...result.fields }).toEqual({ businessName: "Acme <b>Plumbing</b>", theme: "navy-blue" });
    expect(Object.keys(result.files)).toEqual(["logo"]);
    expect(result.files.logo).toMatchObject({ name: "logo.png", type: "image/png" });
    expect([...result.files.logo!.bytes]).toEqual([1, 2, 3]);
  });

  it("reads URL-encoded posts too (no files)", async () => {
    const result = await readBrandForm(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "intent=save&theme=base",
      }),
      BRAND_FORM_MAX_BYTES,
    );
    expect(result).toMatchObject({ ok: true, files: {} });
  });

  it("refuses a 30 MB upload having read no more than the limit", async () => {
    const chunkSize = 64 * 1024;
    let pulled = 0;
    const head = new TextEncoder().encode(
      '--b\r\nContent-Disposition: form-data; name="logo"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n',
    );
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 30 * 1024 * 1024) return controller.close();
        const next = pulled === 0 ? head : new Uint8Array(chunkSize);
        pulled += next.byteLength;
        controller.enqueue(next);
      },
    });
    const request = new Request(url, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(await readBrandForm(request, BRAND_FORM_MAX_BYTES)).toEqual({ ok: false, problem: "tooLarge" });
    expect(pulled).toBeLessThan(BRAND_FORM_MAX_BYTES + 4 * chunkSize);

    // A declared length over the limit is refused unread.
    const declared = new Request(url, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=b", "content-length": String(30 * 1024 * 1024) },
      body: "--b--",
    });
    expect(await readBrandForm(declared, BRAND_FORM_MAX_BYTES)).toEqual({ ok: false, problem: "tooLarge" });
  });

  const post = (body: BodyInit, contentType?: string) =>
    readBrandForm(
      new Request(url, { method: "POST", body, ...(contentType ? { headers: { "content-type": contentType } } : {}) }),
      BRAND_FORM_MAX_BYTES,
    );

  it("refuses broken or unexpected bodies as malformed", async () => {
    expect(await post("--zzz\r\nbroken", "multipart/form-data; boundary=zzz")).toEqual({
      ok: false,
      problem: "malformed",
    });
    expect(await post('{"theme":"base"}', "application/json")).toEqual({ ok: false, problem: "malformed" });
    const other = new FormData();
    other.set("script", new File(["x"], "x.js"));
    expect(await post(other)).toEqual({ ok: false, problem: "malformed" });
    const twice = new FormData();
    twice.append("logo", new File(["a"], "a.png"));
    twice.append("logo", new File(["b"], "b.png"));
    expect(await post(twice)).toEqual({ ok: false, problem: "malformed" });
    const control = new FormData();
    control.set("businessName", "Acme\u0000");
    expect(await post(control)).toEqual({ ok: false, problem: "malformed" });
  });

  it("keeps in step with the edge's limit for /admin/branding, which names the limits", () => {
    expect(BRAND_FORM_BODY_BYTES).toBe(BRAND_FORM_MAX_BYTES);
    expect(BRAND_FORM_MAX_BYTES).toBeGreaterThan(
      BRAND_UPLOAD_LIMITS.logo.maxBytes + BRAND_UPLOAD_LIMITS.favicon.maxBytes,
    );
    expect(maxBodyBytesFor("/admin/branding")).toBe(BRAND_FORM_BODY_BYTES);
    expect(maxBodyBytesFor("/admin/branding?index")).toBe(BRAND_FORM_BODY_BYTES);
    // The same POST sent by the page's script (Remix's single fetch): with JavaScript on, too.
    expect(maxBodyBytesFor("/admin/branding.data?index")).toBe(BRAND_FORM_BODY_BYTES);
    expect(maxBodyBytesFor("/admin/branding/preview.data")).toBe(64 * 1024);
    expect(maxBodyBytesFor("/admin/branding/preview")).toBe(64 * 1024);
    expect(maxBodyBytesFor("/admin/brandingx")).toBe(64 * 1024);
    expect(edgeRefusal("POST", "/admin/branding", { "content-length": String(30 * 1024 * 1024) })).toBe(413);
    expect(edgeRefusal("POST", "/admin/branding", { "content-length": String(BRAND_FORM_BODY_BYTES) })).toBeNull();
    expect(edgeRefusal("POST", "/", { "content-length": String(BRAND_FORM_BODY_BYTES) })).toBe(413);
    const answer = edgeAnswer(413, "/admin/branding");
    expect(answer.body).toContain("a logo may be at most 1 MB and a favicon at most 256 KB");
    expect(answer.body).toContain('href="/admin/branding"');
  });
});

function storeSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let asset: CheckedBrandAsset;
  beforeAll(async () => {
    ({ handle, close } = await open());
    asset = await ok("logo", await picture(120, 40).png().toBuffer());
  });
  afterAll(async () => close());

  it("stores a checked asset for the business, byte for byte", async () => {
    const business = await handle.db
      .selectFrom("hosts")
      .select("business_id")
      .where("hostname", "=", "acme.localhost")
      .executeTakeFirstOrThrow();
    const id = await storeBrandAsset(handle.db, {
      businessId: business.business_id,
      contactId: null,
      kind: "logo",
      asset,
    });
    const row = await handle.db.selectFrom("brand_assets").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      business_id: business.business_id,
      kind: "logo",
      content_type: "image/png",
      byte_size: asset.byteSize,
      width: 120,
      height: 40,
      sha256: asset.sha256,
    });
    expect(Buffer.from(row.bytes).equals(asset.bytes)).toBe(true);
  });
}

describe("storeBrandAsset on PGlite", () => {
  storeSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("storeBrandAsset on PostgreSQL (TEST_DATABASE_URL)", () => {
  storeSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
