import { createHash } from "node:crypto";
import { inflateSync } from "node:zlib";
import sharp from "sharp";
import {
  checkPdfText,
  documentDisplayName,
  isFlateOnly,
  pdfObjectStreams,
  sniffDocumentType,
  type DocumentContentType,
  type DocumentProblem,
} from "~/lib/credit-documents";
import { MAX_DOCUMENT_BYTES } from "~/lib/credit-steps";

/**
 * A supporting document judged by its bytes alone (issue 17; decision 038; the rules are
 * app/lib/credit-documents.ts):
 * - a PDF is kept byte for byte once neither its text nor any of its compressed object streams
 *   names an active feature (script, launch, embedded files, rich media, XFA…) or encryption;
 * - a PNG or JPEG is re-encoded by sharp (libvips) in its own format: what is stored is sharp's
 *   output, with every piece of metadata (EXIF with its GPS position, XMP, comments) gone, and
 *   the picture turned the way the camera said;
 * - anything else is refused, whatever its name or declared type.
 */
export type CheckedDocument = {
  contentType: DocumentContentType;
  bytes: Buffer;
  byteSize: number;
  sha256: string;
  fileName: string;
};

export type DocumentCheck = { ok: true; document: CheckedDocument } | { ok: false; problem: DocumentProblem };

/** A scan of a page is a few thousand pixels a side: far more is a decompression bomb. */
export const MAX_IMAGE_PIXELS = 60_000_000;

/**
 * How much the object streams of one PDF may inflate to, in all. Dictionaries are small: a
 * 10 MB statement's object streams inflate to a few megabytes. Past this the file is refused as
 * unreadable rather than decompressed without end (a "zip bomb").
 */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

export async function checkDocument(file: { name: string; bytes: Uint8Array }): Promise<DocumentCheck> {
  const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  if (bytes.byteLength === 0) return { ok: false, problem: "empty" };
  if (bytes.byteLength > MAX_DOCUMENT_BYTES) return { ok: false, problem: "tooLarge" };
  const type = sniffDocumentType(bytes);
  if (!type) return { ok: false, problem: "type" };
  const checked = type === "application/pdf" ? checkPdf(bytes) : await reencodeImage(bytes, type);
  if (!checked.ok) return checked;
  if (checked.bytes.byteLength > MAX_DOCUMENT_BYTES) return { ok: false, problem: "tooLarge" };
  return {
    ok: true,
    document: {
      contentType: type,
      bytes: checked.bytes,
      byteSize: checked.bytes.byteLength,
      sha256: createHash("sha256").update(checked.bytes).digest("hex"),
      fileName: documentDisplayName(file.name, type),
    },
  };
}

type Checked = { ok: true; bytes: Buffer } | { ok: false; problem: DocumentProblem };

function checkPdf(bytes: Buffer): Checked {
  // Latin-1: one character a byte, so offsets in the text are offsets in the file.
  const text = bytes.toString("latin1");
  const outer = checkPdfText(text);
  if (!outer.ok) return { ok: false, problem: outer.problem };
  let budget = MAX_INFLATED_BYTES;
  for (const stream of pdfObjectStreams(text)) {
    // Another filter (LZW, ASCII85 chains…) could hide dictionaries we cannot read: refused.
    if (!isFlateOnly(stream.dictionary)) return { ok: false, problem: "pdfUnreadable" };
    let data = bytes.subarray(stream.start, stream.end);
    // The line break before "endstream" is not part of the data.
    if (data.at(-1) === 0x0a) data = data.subarray(0, -1);
    if (data.at(-1) === 0x0d) data = data.subarray(0, -1);
    let inflated: Buffer;
    try {
      inflated = inflateSync(data, { maxOutputLength: budget });
    } catch {
      return { ok: false, problem: "pdfUnreadable" };
    }
    budget -= inflated.byteLength;
    const inner = checkPdfText(inflated.toString("latin1"));
    if (!inner.ok) return { ok: false, problem: inner.problem };
  }
  return { ok: true, bytes };
}

async function reencodeImage(bytes: Buffer, type: "image/png" | "image/jpeg"): Promise<Checked> {
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header only: its dimensions are read before anything is decoded.
    ({ format, width, height } = await sharp(bytes, { failOn: "error", limitInputPixels: false }).metadata());
  } catch {
    return { ok: false, problem: "imageUnreadable" };
  }
  const expected = type === "image/png" ? "png" : "jpeg";
  if (format !== expected) return { ok: false, problem: "imageUnreadable" };
  if (!width || !height || width * height > MAX_IMAGE_PIXELS) return { ok: false, problem: "pixels" };
  try {
    // sharp keeps no metadata unless told to; autoOrient applies the EXIF rotation first.
    let pipeline = sharp(bytes, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS }).autoOrient();
    pipeline =
      type === "image/png" ? pipeline.png({ compressionLevel: 9 }) : pipeline.jpeg({ quality: 90, mozjpeg: true });
    return { ok: true, bytes: await pipeline.toBuffer() };
  } catch {
    return { ok: false, problem: "imageUnreadable" };
  }
}
