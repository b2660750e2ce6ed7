import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { deflateSync, inflateSync } from "node:zlib";
import { PDFDocument } from "@cantoo/pdf-lib";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_DOCUMENT_BYTES } from "~/lib/credit-steps";
import {
  buildPdf,
  encryptedPdf,
  jpegWithExif,
  pdfOfSize,
  pdfOpeningAtFirstPage,
  pdfOpeningAWebPage,
  pdfWithCommentBeforeStreamKeyword,
  pdfWithEmbeddedFile,
  pdfWithHarmlessObjectStream,
  pdfWithHarmlessPredictedObjectStream,
  pdfWithJavaScript,
  pdfWithJavaScriptInObjectStream,
  pdfWithJavaScriptInPredictedObjectStream,
  pdfWithJavaScriptNameTree,
  pdfWithLaunchAction,
  pdfWithPageAdditionalActions,
  pdfWithXfa,
  plainPdf,
  plainPdfWithObjects,
  pngWithMetadata,
  stream,
  windowsExecutable,
} from "../../../tests/support/credit-files";
import { checkDocument, MAX_INFLATED_BYTES, MAX_PDF_OBJECTS } from "./document-checks.server";
import { filesystemDocumentStorage, newDocumentKey, STORAGE_KEY_PATTERN } from "./document-storage.server";

/**
 * Supporting documents judged by their bytes (decisions 038 and 057), and the filesystem adapter of
 * the storage port: what is stored is what was checked (a PDF parsed and written anew from the
 * objects inspected, an image re-encoded without its metadata), under a random key, readable by
 * the portal's user only.
 */
describe("checkDocument", () => {
  it("keeps a plain PDF written anew from what was inspected, with its hash and a display name", async () => {
    const file = plainPdf();
    const result = await checkDocument({ name: "Statements 2026.pdf", bytes: file });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const stored = result.document.bytes;
    expect(result.document.contentType).toBe("application/pdf");
    expect(result.document.byteSize).toBe(stored.length);
    expect(result.document.sha256).toBe(createHash("sha256").update(stored).digest("hex"));
    expect(result.document.fileName).toBe("Statements 2026.pdf");
    // Still the one page with its text, and what is stored passes the check as it is.
    expect(stored.includes(Buffer.from("(Financial statements 2026) Tj"))).toBe(true);
    expect((await PDFDocument.load(stored, { throwOnInvalidObject: true })).getPageCount()).toBe(1);
    const again = await checkDocument({ name: "again.pdf", bytes: stored });
    expect(again.ok && again.document.bytes.equals(stored)).toBe(true);
  });

  it.each([
    ["harmless object streams", pdfWithHarmlessObjectStream()],
    ["a harmless object stream with a PNG predictor", pdfWithHarmlessPredictedObjectStream()],
    ["an OpenAction that goes to the first page", pdfOpeningAtFirstPage()],
    [
      "many objects, with a name that merely looks like /JS in a string",
      plainPdfWithObjects([
        "(call /JS later)",
        "<< /JSON 1 /Launcher 2 /JavaScripts 3 >>",
        "[1 2 3 << /A /B >>]",
        "<< /S /URI /URI (https://example.com) >>",
      ]),
    ],
  ])("keeps a PDF with %s, written without object streams", async (_what, file) => {
    const result = await checkDocument({ name: "modern.pdf", bytes: file });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.bytes.includes(Buffer.from("/ObjStm"))).toBe(false);
    const doc = await PDFDocument.load(result.document.bytes, { throwOnInvalidObject: true });
    expect(doc.getPageCount()).toBe(1);
  });

  it("reads the objects of a predicted object stream, as a reader does", async () => {
    const result = await checkDocument({ name: "info.pdf", bytes: pdfWithHarmlessPredictedObjectStream() });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // The info dictionary, in the object stream, is there in plain text once written anew.
    expect(result.document.bytes.includes(Buffer.from("/Title (Statements)"))).toBe(true);
    expect(result.document.bytes.includes(Buffer.from("/Info 7 0 R"))).toBe(true);
  });

  it("is given a predicted object stream whose script a decoder blind to predictors cannot see", () => {
    const file = pdfWithJavaScriptInPredictedObjectStream();
    const start = file.indexOf("stream\n", file.indexOf("/ObjStm")) + "stream\n".length;
    const end = file.indexOf("\nendstream", start);
    const inflated = inflateSync(file.subarray(start, end));
    expect(inflated.includes(Buffer.from("JavaScript"))).toBe(false);
  });

  it.each([
    ["an executable renamed .pdf", "invoice.pdf", windowsExecutable(), "type"],
    ["an HTML page named .png", "photo.png", Buffer.from("<html><script>x</script></html>"), "type"],
    ["a JavaScript action", "form.pdf", pdfWithJavaScript(), "pdfActive"],
    ["a hex-escaped JavaScript action", "form.pdf", pdfWithJavaScript(true), "pdfActive"],
    ["an embedded file", "bundle.pdf", pdfWithEmbeddedFile(), "pdfActive"],
    ["JavaScript hidden in a compressed object stream", "modern.pdf", pdfWithJavaScriptInObjectStream(), "pdfActive"],
    [
      "JavaScript in a PNG-predicted object stream (issue 28)",
      "modern.pdf",
      pdfWithJavaScriptInPredictedObjectStream(),
      "pdfActive",
    ],
    [
      "JavaScript in an object stream after a comment (issue 28)",
      "modern.pdf",
      pdfWithCommentBeforeStreamKeyword(),
      "pdfActive",
    ],
    ["additional actions on a page", "page.pdf", pdfWithPageAdditionalActions(), "pdfActive"],
    ["a /Names /JavaScript name tree", "names.pdf", pdfWithJavaScriptNameTree(), "pdfActive"],
    ["a Launch action", "launch.pdf", pdfWithLaunchAction(), "pdfActive"],
    ["an XFA form", "xfa.pdf", pdfWithXfa(), "pdfActive"],
    ["an OpenAction that opens a web page", "uri.pdf", pdfOpeningAWebPage(), "pdfActive"],
    ["rich media", "media.pdf", plainPdfWithObjects(["<< /Type /Annot /Subtype /RichMedia >>"]), "pdfActive"],
    [
      "a form that submits itself",
      "form.pdf",
      plainPdfWithObjects(["<< /S /SubmitForm /F (https://evil.example) >>"]),
      "pdfActive",
    ],
    ["a name in other letter case", "case.pdf", plainPdfWithObjects(["<< /S /javascript /js (x) >>"]), "pdfActive"],
    [
      "a name written entirely in escapes",
      "escaped.pdf",
      plainPdfWithObjects(["<< /S /#4C#61#75#6E#63#68 >>"]),
      "pdfActive",
    ],
    [
      "a link to javascript:",
      "link.pdf",
      plainPdfWithObjects(["<< /S /URI /URI (javascript:app.alert\\(1\\)) >>"]),
      "pdfActive",
    ],
    ["a truncated PDF", "cut.pdf", plainPdf().subarray(0, 300), "pdfUnreadable"],
    [
      "a PDF header on garbage",
      "junk.pdf",
      Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(200, 0x7b)]),
      "pdfUnreadable",
    ],
    ["a PDF with no catalog", "nocatalog.pdf", buildPdf(["<< /Type /Page >>"]), "pdfUnreadable"],
    ["an encrypted PDF", "locked.pdf", encryptedPdf(), "pdfEncrypted"],
    ["an empty file", "empty.pdf", Buffer.alloc(0), "empty"],
    ["a file over 10 MB", "big.pdf", pdfOfSize(MAX_DOCUMENT_BYTES + 1), "tooLarge"],
    [
      "a PNG signature on garbage",
      "broken.png",
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]),
      "imageUnreadable",
    ],
    ["a truncated JPEG", "cut.jpg", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]), "imageUnreadable"],
  ])("refuses %s", async (_what, name, bytes, problem) => {
    expect(await checkDocument({ name, bytes })).toEqual({ ok: false, problem });
  });

  it("keeps a PDF of exactly 10 MB", async () => {
    const result = await checkDocument({ name: "max.pdf", bytes: pdfOfSize(MAX_DOCUMENT_BYTES) });
    expect(result.ok).toBe(true);
  });

  it("refuses an object stream in a filter it cannot read, or one that is corrupt", async () => {
    const lzw = buildPdf(["<< /Type /Catalog >>", stream("/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode", "abc")]);
    expect(await checkDocument({ name: "lzw.pdf", bytes: lzw })).toEqual({ ok: false, problem: "pdfUnreadable" });
    const corrupt = buildPdf([
      "<< /Type /Catalog >>",
      stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", "not zlib"),
    ]);
    expect(await checkDocument({ name: "bad.pdf", bytes: corrupt })).toEqual({ ok: false, problem: "pdfUnreadable" });
  });

  it("refuses a PDF with more objects than any statement has, as unreadable", async () => {
    const objects = Array.from({ length: MAX_PDF_OBJECTS + 1 }, () => "null");
    objects[0] = "<< /Type /Catalog >>";
    const file = buildPdf(objects);
    expect(file.length).toBeLessThan(MAX_DOCUMENT_BYTES);
    expect(await checkDocument({ name: "many.pdf", bytes: file })).toEqual({ ok: false, problem: "pdfUnreadable" });
  });

  it("refuses nesting deeper than any real dictionary, as unreadable (not a stack overflow)", async () => {
    const file = buildPdf(["<< /Type /Catalog /X " + "[".repeat(100_000) + "]".repeat(100_000) + " >>"]);
    expect(await checkDocument({ name: "deep.pdf", bytes: file })).toEqual({ ok: false, problem: "pdfUnreadable" });
  });

  it("refuses a PDF whose object streams inflate past the budget (a zip bomb)", async () => {
    const bomb = deflateSync(Buffer.alloc(MAX_INFLATED_BYTES + 1024, 0x20), { level: 9 });
    const file = buildPdf(["<< /Type /Catalog >>", stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", bomb)]);
    expect(file.length).toBeLessThan(MAX_DOCUMENT_BYTES);
    expect(await checkDocument({ name: "bomb.pdf", bytes: file })).toEqual({ ok: false, problem: "pdfUnreadable" });
  });

  it("re-encodes a PNG without its metadata", async () => {
    const original = await pngWithMetadata();
    expect(original.includes(Buffer.from("secret-camera-note"))).toBe(true);
    const result = await checkDocument({ name: "scan.png", bytes: original });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.contentType).toBe("image/png");
    expect(result.document.bytes.includes(Buffer.from("secret-camera-note"))).toBe(false);
    const meta = await sharp(result.document.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["png", 40, 30, undefined]);
  });

  it("re-encodes a JPEG without its EXIF (the camera's note and GPS position)", async () => {
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const result = await checkDocument({ name: "licence.jpg", bytes: original });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.contentType).toBe("image/jpeg");
    expect(result.document.bytes.includes(Buffer.from("secret-camera-note"))).toBe(false);
    expect(result.document.bytes.includes(Buffer.from("PhoneCam"))).toBe(false);
    expect((await sharp(result.document.bytes).metadata()).exif).toBeUndefined();
  });

  it("refuses an image that claims more pixels than any scan has, before decoding it", async () => {
    // A 1×1 PNG whose header is rewritten to claim 100,000 × 100,000 pixels.
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const forged = Buffer.from(png);
    forged.writeUInt32BE(100_000, 16);
    forged.writeUInt32BE(100_000, 20);
    const result = await checkDocument({ name: "bomb.png", bytes: forged });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(["pixels", "imageUnreadable"]).toContain(result.problem);
  });
});

describe("the filesystem storage adapter", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "credit-documents-"));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const storage = filesystemDocumentStorage(root);

  it("puts, gets and deletes by a random key, files readable by the portal's user only", async () => {
    const key = newDocumentKey("0B6F3C2A-1111-4222-8333-444455556666");
    expect(key).toMatch(STORAGE_KEY_PATTERN);
    expect(key).toMatch(/^credit\/0b6f3c2a-1111-4222-8333-444455556666\/[0-9a-f]{32}$/);
    expect(newDocumentKey("x")).not.toBe(newDocumentKey("x"));
    await storage.put(key, Buffer.from("hello"));
    expect((await storage.get(key))?.toString()).toBe("hello");
    const file = path.join(root, ...key.split("/"));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    // No temporary file is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await storage.delete(key);
  });

  it.each([
    "../etc/passwd",
    "/etc/passwd",
    "credit/../../x",
    "credit//double",
    "UPPER/case/key/abcdef",
    "short",
    "credit/with.dot/abcdefgh",
  ])("refuses the key %j (never a path outside its folder)", async (key) => {
    await expect(storage.put(key, Buffer.from("x"))).rejects.toThrow(/malformed key/);
    await expect(storage.get(key)).rejects.toThrow(/malformed key/);
    await expect(storage.delete(key)).rejects.toThrow(/malformed key/);
  });
});
