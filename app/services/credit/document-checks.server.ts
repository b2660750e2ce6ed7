import { createHash } from "node:crypto";
import sharp from "sharp";
import {
  documentDisplayName,
  sniffDocumentType,
  type DocumentContentType,
  type DocumentProblem,
} from "~/lib/credit-documents";
import { MAX_DOCUMENT_BYTES } from "~/lib/credit-steps";
import { checkPdf } from "./pdf-check.server";

export { MAX_INFLATED_BYTES, MAX_PDF_OBJECTS } from "./pdf-check.server";

/**
 * A supporting document judged by its bytes alone (issue 17; decision 038; the rules are
 * app/lib/credit-documents.ts):
 * - a PDF is parsed by a PDF parser (@cantoo/pdf-lib), its compressed object streams included;
 *   refused if any dictionary holds an active feature (script, additional actions, launch,
 *   embedded files, rich media, XFA…) or encryption, or if it cannot be read whole; otherwise
 *   what is stored is the PDF written anew from the objects inspected (pdf-check.server.ts;
 *   decision 057);
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

export async function checkDocument(file: { name: string; bytes: Uint8Array }): Promise<DocumentCheck> {
  const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  if (bytes.byteLength === 0) return { ok: false, problem: "empty" };
  if (bytes.byteLength > MAX_DOCUMENT_BYTES) return { ok: false, problem: "tooLarge" };
  const type = sniffDocumentType(bytes);
  if (!type) return { ok: false, problem: "type" };
  const checked = type === "application/pdf" ? await checkPdf(bytes) : await reencodeImage(bytes, type);
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
