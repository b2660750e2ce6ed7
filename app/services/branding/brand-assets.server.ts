import { createHash } from "node:crypto";
import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";
import sharp from "sharp";
import {
  BRAND_UPLOAD_LIMITS,
  BRAND_UPLOAD_KINDS,
  type BrandUploadKind,
  type BrandUploadProblem,
} from "~/lib/brand-uploads";
import type { Db } from "../platform/db.server";
import type { BrandAssetType } from "../platform/db-schema.server";
import { hasControlCharacters, parseFormBody, readCapped } from "../platform/http.server";

/**
 * A host admin's logo and favicon (issue 16; decision 037). Nothing about a file is trusted
 * but its bytes: PNG, JPEG and WebP are identified, measured and re-encoded by sharp (libvips),
 * so what is stored is sharp's own output with every piece of metadata (EXIF, XMP, comments)
 * gone; an SVG is refused when it carries script, event handlers, `javascript:`,
 * `foreignObject` or any reference outside itself, and what is stored is DOMPurify's output
 * even then. The pixel limits are checked from the header before anything is decoded.
 */

/**
 * Spec §9's image default quality, for the lossy formats an upload is re-encoded in (JPEG, WebP; PNG stays
 * lossless). Decision 094 measured a logo at 75 against 90: a third fewer bytes, the same contrast and
 * sharpness at the size a phone draws it (brand-assets.test.ts holds that).
 */
export const BRAND_IMAGE_QUALITY = 75;

export type CheckedBrandAsset = {
  contentType: BrandAssetType;
  bytes: Buffer;
  width: number;
  height: number;
  byteSize: number;
  sha256: string;
};

export type BrandUploadFile = { name: string; type: string; bytes: Uint8Array };

export type BrandUploadCheck = { ok: true; asset: CheckedBrandAsset } | { ok: false; problem: BrandUploadProblem };

const RASTER_TYPES = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" } as const;

/** Checks an uploaded file by its content and gives what to store, or why it is refused. */
export async function checkBrandUpload(kind: BrandUploadKind, file: BrandUploadFile): Promise<BrandUploadCheck> {
  const limits = BRAND_UPLOAD_LIMITS[kind];
  const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  if (bytes.byteLength === 0) return { ok: false, problem: "empty" };
  if (bytes.byteLength > limits.maxBytes) return { ok: false, problem: "tooLarge" };
  const result = looksLikeSvg(bytes) ? await checkSvg(bytes, limits) : await checkRaster(bytes, limits);
  if (!result.ok) return result;
  // What is stored (re-encoded or sanitised) must itself be within the limit.
  if (result.asset.byteSize > limits.maxBytes) return { ok: false, problem: "tooLarge" };
  return result;
}

type Limits = { maxBytes: number; maxWidth: number; maxHeight: number };

function withinPixels(width: number | undefined, height: number | undefined, limits: Limits) {
  return (
    Number.isInteger(width) &&
    Number.isInteger(height) &&
    width! >= 1 &&
    height! >= 1 &&
    width! <= limits.maxWidth &&
    height! <= limits.maxHeight
  );
}

function asset(contentType: BrandAssetType, bytes: Buffer, width: number, height: number): CheckedBrandAsset {
  return {
    contentType,
    bytes,
    width,
    height,
    byteSize: bytes.byteLength,
    sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}

/* -------------------------------------------------------------------------- */
/* PNG, JPEG and WebP                                                         */
/* -------------------------------------------------------------------------- */

async function checkRaster(bytes: Buffer, limits: Limits): Promise<BrandUploadCheck> {
  const options = {
    failOn: "error" as const,
    // A second line behind the header check below: libvips itself refuses more pixels.
    limitInputPixels: limits.maxWidth * limits.maxHeight,
  };
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header only: nothing is decoded yet, so its dimensions are read whatever they claim
    // (libvips' own pixel limit would make a pixel bomb "not an image" rather than "too many pixels").
    ({ format, width, height } = await sharp(bytes, { failOn: "error", limitInputPixels: false }).metadata());
  } catch {
    return { ok: false, problem: "notImage" };
  }
  if (format !== "png" && format !== "jpeg" && format !== "webp") return { ok: false, problem: "notImage" };
  if (!withinPixels(width, height, limits)) return { ok: false, problem: "pixels" };
  try {
    // Re-encoded in its own format: sharp keeps no metadata unless told to (EXIF, XMP, IPTC and
    // comments are dropped; colours are converted to sRGB); autoOrient applies the EXIF rotation
    // first so the picture still looks the way the admin saw it. An animated WebP keeps its first frame.
    let pipeline = sharp(bytes, options).autoOrient();
    if (format === "png") pipeline = pipeline.png({ compressionLevel: 9 });
    else if (format === "jpeg") pipeline = pipeline.jpeg({ quality: BRAND_IMAGE_QUALITY, mozjpeg: true });
    else pipeline = pipeline.webp({ quality: BRAND_IMAGE_QUALITY });
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    if (!withinPixels(info.width, info.height, limits)) return { ok: false, problem: "pixels" };
    return { ok: true, asset: asset(RASTER_TYPES[format], data, info.width, info.height) };
  } catch {
    // Truncated or corrupt past its header.
    return { ok: false, problem: "notImage" };
  }
}

/* -------------------------------------------------------------------------- */
/* SVG                                                                        */
/* -------------------------------------------------------------------------- */

const SVG_NS = "http://www.w3.org/2000/svg";
const XHTML_NS = "http://www.w3.org/1999/xhtml";
const MATHML_NS = "http://www.w3.org/1998/Math/MathML";

/**
 * Markup that may be an SVG document: it starts with `<` and has an `<svg` tag early on (past an
 * XML declaration, a DOCTYPE and a generator's comments). It is then judged as XML: a hazard is
 * "unsafe", any other root than SVG's "not an image". Anything else (an HTML page named .png)
 * goes to sharp and is refused there as not an image.
 */
function looksLikeSvg(bytes: Buffer): boolean {
  const start = bytes.subarray(0, 4096).toString("latin1");
  return /^(?:\uFEFF|\xEF\xBB\xBF)?\s*</.test(start) && /<svg[\s>/]/i.test(start);
}

/** Elements that run script or embed another document. */
const UNSAFE_ELEMENTS = new Set(["script", "foreignobject", "iframe", "embed", "object", "handler", "listener"]);
/** Animation elements can set an attribute (an href to `javascript:`) after sanitising. */
const ANIMATION_ELEMENTS = new Set(["animate", "set", "animatemotion", "animatetransform", "animatecolor"]);

/**
 * True when CSS or an attribute value reaches outside the file or runs script: `url(` to
 * anything but `#…`, `@import`, `image-set(`, `javascript:`, `expression(`; and CSS escapes
 * (a backslash), which could spell any of those without the letters — in any attribute, since
 * SVG reads presentation attributes (`fill`, `filter`, `mask`, `clip-path`, `marker-*`,
 * `cursor`…) as CSS too.
 */
function unsafeValue(value: string): boolean {
  // Browsers ignore whitespace and control characters inside a scheme (`java\tscript:`).
  const squeezed = value.replace(/[\s\u0000-\u001F\u007F]+/g, "").toLowerCase();
  if (squeezed.includes("javascript:") || squeezed.includes("vbscript:")) return true;
  if (/url\((?!['"]?#)/.test(squeezed)) return true;
  if (squeezed.includes("@import") || squeezed.includes("image-set(") || squeezed.includes("expression(")) return true;
  return value.includes("\\");
}

/** The first reason an SVG document is unsafe, or null. */
function svgHazard(root: Element): string | null {
  for (const element of [root, ...Array.from(root.querySelectorAll("*"))]) {
    const name = element.localName.toLowerCase();
    if (UNSAFE_ELEMENTS.has(name)) return `element ${name}`;
    if (element.namespaceURI === XHTML_NS || element.namespaceURI === MATHML_NS) return `element ${name} (HTML)`;
    if (name === "style" && unsafeValue(element.textContent ?? "")) return "style sheet";
    for (const attribute of Array.from(element.attributes)) {
      const attributeName = attribute.localName.toLowerCase();
      if (attributeName.startsWith("on")) return `attribute ${attributeName}`;
      if (attributeName === "href" || attributeName === "src") {
        if (!attribute.value.trim().startsWith("#")) return `reference ${attributeName}`;
      }
      if (ANIMATION_ELEMENTS.has(name) && attributeName === "attributename" && /href/i.test(attribute.value)) {
        return "animated reference";
      }
      if (unsafeValue(attribute.value)) return `attribute ${attributeName}`;
    }
  }
  return null;
}

/** Limits no logo comes near: markup, attributes of one element, nesting. */
export const SVG_COMPLEXITY = { maxTags: 4000, maxAttributes: 64, maxTotalAttributes: 8000, maxDepth: 64 } as const;

/** A cheap scan of the text (no parsing): more tags, attributes or depth than a logo has. */
function svgTooComplex(text: string): boolean {
  let tags = 0;
  let depth = 0;
  let attributes = 0;
  for (let at = text.indexOf("<"); at !== -1; at = text.indexOf("<", at + 1)) {
    if (++tags > SVG_COMPLEXITY.maxTags) return true;
    const next = text[at + 1];
    if (next === "/") {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (next === "!" || next === "?") continue;
    const end = text.indexOf(">", at);
    if (end === -1) return false;
    const tag = text.slice(at, end);
    const here = tag.match(/=/g)?.length ?? 0;
    attributes += here;
    if (here > SVG_COMPLEXITY.maxAttributes || attributes > SVG_COMPLEXITY.maxTotalAttributes) return true;
    if (!tag.endsWith("/") && ++depth > SVG_COMPLEXITY.maxDepth) return true;
  }
  return false;
}

async function checkSvg(bytes: Buffer, limits: Limits): Promise<BrandUploadCheck> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return { ok: false, problem: "notImage" };
  }
  // Entities (an internal DTD subset: "billion laughs", external entities) and processing
  // instructions other than the XML declaration (`<?xml-stylesheet href=…?>`) are refused unread.
  if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>]*\[/i.test(text) || /<\?(?!xml\s)/i.test(text)) {
    return { ok: false, problem: "svgUnsafe" };
  }
  // A logo is a few hundred elements: a document far bigger than any logo (thousands of elements,
  // an element with hundreds of attributes, nesting hundreds deep) is refused before it is parsed,
  // because parsing and sanitising it would hold this process for seconds.
  if (svgTooComplex(text)) return { ok: false, problem: "svgUnsafe" };
  let dom: JSDOM;
  try {
    // An XML document: never run, nothing fetched (jsdom loads no resources unless told to).
    dom = new JSDOM(text, { contentType: "image/svg+xml" });
  } catch {
    return { ok: false, problem: "notImage" };
  }
  try {
    const root = dom.window.document.documentElement;
    if (!root || root.localName !== "svg" || root.namespaceURI !== SVG_NS) return { ok: false, problem: "notImage" };
    if (svgHazard(root)) return { ok: false, problem: "svgUnsafe" };
    // Stored: the sanitiser's output, whatever the check above let through (editors' metadata,
    // unknown elements and attributes are dropped; only SVG's own remain).
    const purify = createDOMPurify(dom.window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.sanitize(root, { USE_PROFILES: { svg: true, svgFilters: true }, IN_PLACE: true });
    const clean = new dom.window.XMLSerializer().serializeToString(root);
    // The sanitised file must still be a safe SVG (a second look, on what is stored).
    const again = new JSDOM(clean, { contentType: "image/svg+xml" });
    const cleanRoot = again.window.document.documentElement;
    const hazard = cleanRoot.localName !== "svg" || cleanRoot.namespaceURI !== SVG_NS || svgHazard(cleanRoot);
    again.window.close();
    if (hazard) return { ok: false, problem: "svgUnsafe" };
    const output = Buffer.from(clean, "utf8");
    // Its size as librsvg reads it (the header only; nothing is drawn).
    let width: number | undefined;
    let height: number | undefined;
    let format: string | undefined;
    try {
      ({ format, width, height } = await sharp(output, { failOn: "error", limitInputPixels: false }).metadata());
    } catch {
      return { ok: false, problem: "notImage" };
    }
    if (format !== "svg") return { ok: false, problem: "notImage" };
    if (!withinPixels(width, height, limits)) return { ok: false, problem: "pixels" };
    return { ok: true, asset: asset("image/svg+xml", output, width!, height!) };
  } finally {
    dom.window.close();
  }
}

/* -------------------------------------------------------------------------- */
/* Storing                                                                    */
/* -------------------------------------------------------------------------- */

/** Stores a checked asset for the business (never changed afterwards) and gives its id. */
export async function storeBrandAsset(
  db: Db,
  input: { businessId: string; contactId: string | null; kind: BrandUploadKind; asset: CheckedBrandAsset },
): Promise<string> {
  const { asset: checked } = input;
  const row = await db
    .insertInto("brand_assets")
    .values({
      business_id: input.businessId,
      kind: input.kind,
      content_type: checked.contentType,
      bytes: checked.bytes,
      byte_size: checked.byteSize,
      width: checked.width,
      height: checked.height,
      sha256: checked.sha256,
      created_by: input.contactId,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/* -------------------------------------------------------------------------- */
/* The branding form                                                          */
/* -------------------------------------------------------------------------- */

export type BrandForm =
  | { ok: true; fields: Record<string, string>; files: Partial<Record<BrandUploadKind, BrandUploadFile>> }
  | { ok: false; problem: "tooLarge" | "malformed" };

/**
 * The branding form's body, multipart (or URL-encoded, with no files): at most `maxBytes` read,
 * whatever the declared length says, so a 30 MB upload is refused having read no more than the
 * limit (scripts/edge.js refuses a declared one before it is sent). Only the `logo` and `favicon`
 * file fields are taken (an empty file input, "no file chosen", is no file); a file given twice,
 * a file under another name, or control characters in a name or value: malformed. A text field
 * given twice keeps its first value. Nothing here
 * judges the files' content (checkBrandUpload does).
 */
export async function readBrandForm(request: Request, maxBytes: number): Promise<BrandForm> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const isMultipart = type.startsWith("multipart/form-data");
  if (!isMultipart && !type.startsWith("application/x-www-form-urlencoded")) return { ok: false, problem: "malformed" };
  const body = await readCapped(request, maxBytes);
  if (body === null) return { ok: false, problem: "tooLarge" };
  // Counted and named within the form limits before and as it is parsed (form-limits.server.ts).
  const parsed = await parseFormBody(body, request.headers.get("content-type")!);
  if (!parsed.ok) return { ok: false, problem: "malformed" };
  const { form } = parsed;
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const files: Partial<Record<BrandUploadKind, BrandUploadFile>> = {};
  const seen = new Set<string>();
  for (const [name, value] of form) {
    if (hasControlCharacters(name)) return { ok: false, problem: "malformed" };
    if (typeof value === "string") {
      if (hasControlCharacters(value)) return { ok: false, problem: "malformed" };
      // A file input left empty may arrive as an empty text part.
      if ((BRAND_UPLOAD_KINDS as readonly string[]).includes(name)) {
        if (value === "") continue;
        return { ok: false, problem: "malformed" };
      }
      if (!(name in fields)) fields[name] = value;
      continue;
    }
    if (!(BRAND_UPLOAD_KINDS as readonly string[]).includes(name) || seen.has(name)) {
      return { ok: false, problem: "malformed" };
    }
    seen.add(name);
    // A browser sends an empty part (no file name, no bytes) for a file input left empty.
    if (value.size === 0 && value.name === "") continue;
    files[name as BrandUploadKind] = {
      name: value.name,
      type: value.type,
      bytes: new Uint8Array(await value.arrayBuffer()),
    };
  }
  return { ok: true, fields, files };
}
