/**
 * The upload rules of a credit application's supporting documents (issue 17; decision 038).
 * Nothing the browser says about a file is trusted — not its name, not its declared type: the
 * bytes decide. A PDF, a PNG or a JPEG is recognised by its first bytes ("magic numbers");
 * anything else (an executable renamed .pdf, an HTML page, a Word file) is refused. A PDF is
 * refused when it can run or carry something: script, launching a program, embedded files, rich
 * media, XFA forms, submitting or importing data, or encryption (which hides what it holds). The
 * server (app/services/credit/document-checks.server.ts and pdf-check.server.ts) parses the PDF,
 * compressed object streams included, asks these rules of every dictionary, and writes the PDF
 * anew; it re-encodes images without their metadata (decision 057).
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
 * What makes a PDF do something rather than be read (ISO 32000-1 §12.6 actions, §12.6.3 additional
 * actions, §7.11 embedded files, §12.7.8 XFA; Adobe's RichMedia and 3D extensions). The server
 * (app/services/credit/pdf-check.server.ts) parses the file with a PDF parser and asks these of
 * every dictionary's keys and every name value, as the parser decoded them (`/J#61vaScript` is
 * `/JavaScript`), ignoring case as a lenient reader might.
 */
/** Keys whose presence is enough: script, additional actions, a script or file name tree, embedded files, XFA, rich media. */
export const PDF_ACTIVE_KEYS = [
  "js",
  "aa",
  "javascript",
  "embeddedfiles",
  "ef",
  "xfa",
  "richmediacontent",
  "richmediasettings",
] as const;

/** Names that, as any value (an action's /S, a /Type or /Subtype…), are active content. */
export const PDF_ACTIVE_NAMES = [
  "javascript",
  "launch",
  "embeddedfile",
  "embeddedfiles",
  "fileattachment",
  "richmedia",
  "richmediaexecute",
  "xfa",
  "submitform",
  "importdata",
  "gotoe",
  "gotor",
  "rendition",
  "movie",
  "sound",
  "3d",
  "goto3dview",
] as const;

/** The problems a PDF's content can have (being unreadable is the parser's to say). */
export type PdfContentProblem = "pdfActive" | "pdfEncrypted";

const ACTIVE_KEYS = new Set<string>(PDF_ACTIVE_KEYS);
const ACTIVE_NAMES = new Set<string>(PDF_ACTIVE_NAMES);

/** A dictionary key's problem: active, encrypting (/Encrypt hides what the file holds), or none. */
export function pdfKeyProblem(key: string): PdfContentProblem | null {
  const lower = key.toLowerCase();
  if (ACTIVE_KEYS.has(lower)) return "pdfActive";
  if (lower === "encrypt") return "pdfEncrypted";
  return null;
}

/** A name value's problem. */
export function pdfNameProblem(name: string): PdfContentProblem | null {
  return ACTIVE_NAMES.has(name.toLowerCase()) ? "pdfActive" : null;
}

/**
 * Whether an /OpenAction that is an action dictionary (rather than a destination array) may stay:
 * only a plain GoTo, with no further action chained after it (/Next).
 */
export function isPlainOpenAction(type: string | undefined, chained: boolean): boolean {
  return type === "GoTo" && !chained;
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
