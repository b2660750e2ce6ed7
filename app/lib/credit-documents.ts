/**
 * The upload rules of a credit application's supporting documents (issue 17; decision 038).
 * Nothing the browser says about a file is trusted — not its name, not its declared type: the
 * bytes decide. A PDF, a PNG or a JPEG is recognised by its first bytes ("magic numbers");
 * anything else (an executable renamed .pdf, an HTML page, a Word file) is refused. A PDF is
 * refused when it can run or carry something: script, launching a program, embedded files, rich
 * media, XFA forms, submitting or importing data, or encryption (which hides what it holds). The
 * server (app/services/credit/document-checks.server.ts) also reads the PDF's compressed object
 * streams with these same rules, and re-encodes images without their metadata.
 *
 * Pure: no I/O, no Node-only modules, so the rules are unit tested on their own.
 */
import type { MessageKey } from "./i18n";

export const DOCUMENT_TYPES = ["application/pdf", "image/png", "image/jpeg"] as const;
export type DocumentContentType = (typeof DOCUMENT_TYPES)[number];

/** Why a file was refused (the documents step says which at the file field). */
export type DocumentProblem =
  | "empty"
  | "tooLarge"
  | "type"
  | "pdfActive"
  | "pdfEncrypted"
  | "pdfUnreadable"
  | "imageUnreadable"
  | "pixels"
  | "tooMany";

export const DOCUMENT_PROBLEM_MESSAGES: Record<DocumentProblem, MessageKey> = {
  empty: "credit.documents.error.empty",
  tooLarge: "credit.documents.error.tooLarge",
  type: "credit.documents.error.type",
  pdfActive: "credit.documents.error.pdfActive",
  pdfEncrypted: "credit.documents.error.pdfEncrypted",
  pdfUnreadable: "credit.documents.error.pdfUnreadable",
  imageUnreadable: "credit.documents.error.imageUnreadable",
  pixels: "credit.documents.error.pixels",
  tooMany: "credit.documents.error.tooMany",
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The type the bytes are, or null. A PDF starts with `%PDF-` and a version digit (at the very
 * start: readers that look further in are what polyglot files exploit); a PNG with its 8-byte
 * signature; a JPEG with a start-of-image marker followed by another marker.
 */
export function sniffDocumentType(bytes: Uint8Array): DocumentContentType | null {
  const starts = (signature: number[]) =>
    bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d]) && bytes.length > 5 && bytes[5]! >= 0x31 && bytes[5]! <= 0x32) {
    return "application/pdf";
  }
  if (starts(PNG_SIGNATURE)) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  return null;
}

/**
 * The PDF names that make a document do something rather than be read (ISO 32000-1 §12.6
 * actions, §7.11 embedded files, §12.7.8 XFA; Adobe's RichMedia extension). Compared after the
 * name's `#xx` escapes are decoded (`/J#61vaScript` is `/JavaScript`) and ignoring case.
 */
export const PDF_ACTIVE_NAMES = [
  "javascript",
  "js",
  "launch",
  "embeddedfile",
  "embeddedfiles",
  "richmedia",
  "xfa",
  "submitform",
  "importdata",
  "gotoe",
  "gotor",
  "rendition",
  "movie",
  "sound",
] as const;

const ACTIVE = new Set<string>(PDF_ACTIVE_NAMES);

/** A PDF name: `/` and the regular characters after it (PDF's delimiters and white space end it). */
const NAME = /\/([^\s/<>[\](){}%]*)/g;

/** A name as the reader sees it: `#xx` escapes decoded. */
export function decodePdfName(raw: string): string {
  return raw.replace(/#([0-9A-Fa-f]{2})/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Every name in a stretch of PDF text (read as Latin-1, one character a byte), decoded. */
export function pdfNames(text: string): string[] {
  return Array.from(text.matchAll(NAME), (match) => decodePdfName(match[1]!));
}

export type PdfTextCheck = { ok: true } | { ok: false; problem: "pdfActive" | "pdfEncrypted"; name: string };

/** The first active or encrypting name in a stretch of PDF text. */
export function checkPdfText(text: string): PdfTextCheck {
  for (const name of pdfNames(text)) {
    const lower = name.toLowerCase();
    if (ACTIVE.has(lower)) return { ok: false, problem: "pdfActive", name };
    if (lower === "encrypt") return { ok: false, problem: "pdfEncrypted", name };
  }
  return { ok: true };
}

/**
 * The compressed object streams of a PDF (`/Type /ObjStm`): where a PDF 1.5+ writer puts most of
 * its dictionaries, so a scan of the file's raw text alone would not see an action hidden in one.
 * Gives each stream's dictionary and the offsets of its data, for the server to decompress and
 * scan with the same rules.
 */
export function pdfObjectStreams(text: string): { dictionary: string; start: number; end: number }[] {
  const streams: { dictionary: string; start: number; end: number }[] = [];
  const keyword = /stream(\r\n|\n|\r)/g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const at = match.index;
    // "endstream" also ends in "stream", and only a dictionary's ">>" comes right before a stream.
    if (text.slice(Math.max(0, at - 3), at) === "end") continue;
    const before = text.slice(Math.max(0, at - 4096), at);
    if (!/>>\s*$/.test(before)) continue;
    const objectStart = before.lastIndexOf("obj");
    const dictionary = objectStart >= 0 ? before.slice(objectStart + 3) : before;
    const start = at + match[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) break;
    keyword.lastIndex = end + "endstream".length;
    const names = pdfNames(dictionary).map((name) => name.toLowerCase());
    if (names.includes("objstm")) streams.push({ dictionary, start, end });
  }
  return streams;
}

/** Whether a stream dictionary asks for FlateDecode alone (what the server can decompress). */
export function isFlateOnly(dictionary: string): boolean {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]]+)/.exec(dictionary)?.[1];
  if (!filter) return false;
  const names = pdfNames(filter).map((name) => name.toLowerCase());
  return names.length === 1 && (names[0] === "flatedecode" || names[0] === "fl");
}

const FORBIDDEN_IN_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * The name a file is listed under: the last part of what the browser sent (some send a path),
 * without control or formatting characters (a right-to-left override would make
 * "invoice‮fdp.exe" read as "invoiceexe.pdf"), trimmed, at most 200 characters. Shown as text,
 * never used in a path.
 */
export function documentDisplayName(raw: string, type: DocumentContentType): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const cleaned = [...base.normalize("NFC").replace(FORBIDDEN_IN_NAME, "").trim()].slice(0, 200).join("");
  if (cleaned !== "") return cleaned;
  return type === "application/pdf" ? "document.pdf" : type === "image/png" ? "image.png" : "image.jpg";
}
