import { describe, expect, it } from "vitest";
import { plainPdf, windowsExecutable } from "../../tests/support/credit-files";
import {
  documentDisplayName,
  isPlainOpenAction,
  pdfKeyProblem,
  pdfNameProblem,
  sniffDocumentType,
} from "./credit-documents";
import { DOCUMENT_FORM_MAX_BYTES, MAX_DOCUMENT_BYTES } from "./credit-steps";
import { CREDIT_DOCUMENT_BODY_BYTES, edgeAnswer, maxBodyBytesFor } from "../../scripts/edge.js";

/**
 * The credit application's upload rules (decision 038), on their own: the type comes from the
 * bytes, never the name; which PDF keys and names are active content (the server parses the
 * file and asks these of every dictionary, decision 057); a file's name is only ever text to show.
 */
const bytes = (...values: number[]) => new Uint8Array(values);

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

describe("a PDF's active content, by key and by name", () => {
  it.each(["JS", "AA", "JavaScript", "EmbeddedFiles", "EF", "XFA", "RichMediaContent", "js", "aa"])(
    "refuses a dictionary with the key /%s",
    (key) => {
      expect(pdfKeyProblem(key)).toBe("pdfActive");
    },
  );

  it.each([
    "JavaScript",
    "Launch",
    "EmbeddedFile",
    "RichMedia",
    "SubmitForm",
    "ImportData",
    "GoToE",
    "GoToR",
    "Rendition",
    "Movie",
    "Sound",
    "3D",
    "javascript",
  ])("refuses the name /%s as a value", (name) => {
    expect(pdfNameProblem(name)).toBe("pdfActive");
  });

  it("calls /Encrypt encrypted, and leaves other keys and names alone", () => {
    expect(pdfKeyProblem("Encrypt")).toBe("pdfEncrypted");
    for (const other of ["JSON", "Launcher", "JavaScripts", "Type", "S", "URI", "OpenAction", "Names"]) {
      expect(pdfKeyProblem(other)).toBeNull();
    }
    for (const other of ["GoTo", "URI", "Named", "Catalog", "Page", "Link", "Widget", "FlateDecode"]) {
      expect(pdfNameProblem(other)).toBeNull();
    }
  });

  it("lets an OpenAction be a plain GoTo only", () => {
    expect(isPlainOpenAction("GoTo", false)).toBe(true);
    expect(isPlainOpenAction("GoTo", true)).toBe(false);
    expect(isPlainOpenAction("URI", false)).toBe(false);
    expect(isPlainOpenAction("Named", false)).toBe(false);
    expect(isPlainOpenAction(undefined, false)).toBe(false);
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
