import { constants, inflateSync } from "node:zlib";
import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFHeader,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  PDFWriter,
  type PDFObject,
} from "@cantoo/pdf-lib";
import { isPlainOpenAction, pdfKeyProblem, pdfNameProblem, type PdfContentProblem } from "~/lib/credit-documents";

/**
 * A PDF read as PDF objects by @cantoo/pdf-lib's object parser (issue 28; decision 057), judged
 * by the rules of app/lib/credit-documents.ts, and written anew from exactly those objects.
 *
 * - Every indirect object of the file's body is parsed in file order, and so is every object
 *   inside every object stream (/Type /ObjStm), once its data is decoded: FlateDecode with the
 *   PNG (10–15) and TIFF (2) predictors of its /DecodeParms, which pdf-lib's own decoder ignores.
 *   Any other filter, a corrupt or truncated file, anything that is not an object, a cross-reference
 *   table or a trailer: unreadable.
 * - Every dictionary (trailers and stream dictionaries too) is inspected by its keys and its name
 *   values, as the parser decoded them (`/J#61vaScript` is `/JavaScript`).
 * - What is kept is the objects written out by pdf-lib without object streams or cross-reference
 *   streams, with a new cross-reference table: what staff open is what was inspected, with nothing
 *   a reader could find that this parse did not (an object hidden in a comment or in another's
 *   stream data, an old revision). The written bytes are inspected again.
 *
 * Bounded: MAX_INFLATED_BYTES of decoded object streams in all (a zip bomb is unreadable), and
 * MAX_PDF_OBJECTS, MAX_PDF_VALUES, MAX_PDF_DEPTH and MAX_PDF_NAMES for what the parse builds.
 */

/**
 * How much the object streams of one PDF may inflate to, in all. Dictionaries are small: a 10 MB
 * statement's object streams inflate to a few megabytes. Past this the file is unreadable.
 */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
/** Indirect objects, in the body and in object streams: a 10 MB statement has a few thousand. */
export const MAX_PDF_OBJECTS = 100_000;
/** Values parsed in all (numbers, names, strings, arrays, dictionaries…). */
export const MAX_PDF_VALUES = 2_000_000;
/** Arrays and dictionaries nested in one another. */
export const MAX_PDF_DEPTH = 64;
/**
 * Distinct names in one file. pdf-lib keeps every name it has seen in a process-wide pool, so a
 * file of a million made-up names would grow the process for good.
 */
export const MAX_PDF_NAMES = 20_000;

export type PdfCheck = { ok: true; bytes: Buffer } | { ok: false; problem: PdfContentProblem | "pdfUnreadable" };

class Refused extends Error {
  constructor(readonly problem: PdfContentProblem) {
    super(problem);
  }
}
class Unreadable extends Error {}

type Limits = { objects: number; values: number; names: Set<string>; inflated: number };

const keyword = (text: string) => Array.from(text, (character) => character.charCodeAt(0));
const OBJ = keyword("obj");
const ENDOBJ = keyword("endobj");
const XREF = keyword("xref");
const TRAILER = keyword("trailer");
const STARTXREF = keyword("startxref");
const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

type ByteStreamOf = ConstructorParameters<typeof PDFObjectParser>[0];

/**
 * pdf-lib's object parser with limits, and the top level of a file: indirect objects,
 * cross-reference tables and trailers, in order, and nothing else. (pdf-lib's own PDFParser
 * reads an object stream as soon as it meets one, with its predictor-blind decoder, and skips
 * what it cannot parse; this reader leaves object streams to `readObjectStream` and refuses.)
 */
class PdfReader extends PDFObjectParser {
  private depth = 0;

  static over(bytes: Uint8Array, context: PDFContext, limits: Limits) {
    // pdf-lib does not export its ByteStream; a plain parser over the bytes makes one.
    const stream = (PDFObjectParser.forBytes(bytes, context) as PdfReader).bytes;
    return new PdfReader(stream, context, limits);
  }

  private constructor(
    stream: ByteStreamOf,
    context: PDFContext,
    private readonly limits: Limits,
  ) {
    super(stream, context);
  }

  override parseObject(ref?: PDFRef): PDFObject {
    if (++this.limits.values > MAX_PDF_VALUES || this.depth >= MAX_PDF_DEPTH) throw new Unreadable("too many values");
    this.depth += 1;
    try {
      return super.parseObject(ref);
    } finally {
      this.depth -= 1;
    }
  }

  protected override parseName(): PDFName {
    const name = super.parseName();
    this.limits.names.add(name.asString());
    if (this.limits.names.size > MAX_PDF_NAMES) throw new Unreadable("too many names");
    return name;
  }

  /** The file's top level, in order: each indirect object to `object`, each trailer to `trailer`. */
  readFile(object: (ref: PDFRef, value: PDFObject) => void, trailer: (dict: PDFDict) => void) {
    for (;;) {
      // The header and the binary line after it are comments.
      this.skipWhitespaceAndComments();
      if (this.bytes.done()) return;
      if (isDigit(this.bytes.peek())) {
        const ref = this.readObjectHeader();
        const value = this.parseObject(ref);
        this.skipWhitespaceAndComments();
        if (!this.matchKeyword(ENDOBJ)) throw new Unreadable("no endobj");
        object(ref, value);
      } else if (this.matchKeyword(XREF)) {
        // Offsets are not needed: objects are read in order, and the table is written anew.
        for (this.skipWhitespaceAndComments(); !this.bytes.done(); this.skipWhitespaceAndComments()) {
          const byte = this.bytes.peek();
          if (isDigit(byte)) this.parseRawInt();
          else if (byte === 0x6e || byte === 0x66)
            this.bytes.next(); // "n" or "f"
          else break;
        }
      } else if (this.matchKeyword(TRAILER)) {
        this.skipWhitespaceAndComments();
        trailer(this.parseDict());
      } else if (this.matchKeyword(STARTXREF)) {
        this.skipWhitespaceAndComments();
        this.parseRawInt();
      } else {
        throw new Unreadable("unexpected bytes");
      }
    }
  }

  private readObjectHeader(): PDFRef {
    const objectNumber = this.parseRawInt();
    this.skipWhitespaceAndComments();
    const generation = this.parseRawInt();
    this.skipWhitespaceAndComments();
    if (!this.matchKeyword(OBJ)) throw new Unreadable("no obj");
    if (objectNumber > 8_388_607 || generation > 65_535) throw new Unreadable("object number");
    return PDFRef.of(objectNumber, generation);
  }

  /** The objects of a decoded object stream: `count` pairs of number and offset, then the objects from `first`. */
  readObjectStream(count: number, first: number): [PDFRef, PDFObject][] {
    const pairs: [number, number][] = [];
    for (let index = 0; index < count; index++) {
      this.skipWhitespaceAndComments();
      const objectNumber = this.parseRawInt();
      this.skipWhitespaceAndComments();
      pairs.push([objectNumber, this.parseRawInt()]);
    }
    return pairs.map(([objectNumber, offset]) => {
      if (objectNumber > 8_388_607) throw new Unreadable("object number");
      this.bytes.moveTo(first + offset);
      const value = this.parseObject();
      // A stream cannot be inside an object stream (ISO 32000-1 §7.5.7).
      if (value instanceof PDFStream) throw new Unreadable("stream in object stream");
      return [PDFRef.of(objectNumber, 0), value];
    });
  }
}

const name = (value: PDFObject | undefined) => (value instanceof PDFName ? value.decodeText() : undefined);
const integer = (dict: PDFDict, key: string, fallback: number) => {
  const value = dict.lookup(PDFName.of(key));
  if (value === undefined) return fallback;
  if (!(value instanceof PDFNumber) || !Number.isInteger(value.asNumber())) throw new Unreadable(key);
  return value.asNumber();
};

/** The first problem in a value and the direct values inside it (references are inspected where they point). */
function inspect(value: PDFObject): PdfContentProblem | null {
  if (value instanceof PDFRawStream) return inspect(value.dict);
  if (value instanceof PDFName) return pdfNameProblem(value.decodeText());
  if (value instanceof PDFArray) {
    for (let index = 0; index < value.size(); index++) {
      const problem = inspect(value.get(index));
      if (problem) return problem;
    }
    return null;
  }
  if (!(value instanceof PDFDict)) return null;
  for (const [key, entry] of value.entries()) {
    const problem = pdfKeyProblem(key.decodeText()) ?? inspect(entry);
    if (problem) return problem;
  }
  // A link whose address is script (`javascript:`) is script.
  const uri = value.lookup(PDFName.of("URI"));
  if ((uri instanceof PDFString || uri instanceof PDFHexString) && /^\s*javascript:/i.test(uri.decodeText())) {
    return "pdfActive";
  }
  return null;
}

/** An object stream's data decoded: FlateDecode and its predictor, within the inflation budget. */
function decodeObjectStream(stream: PDFRawStream, limits: Limits): Uint8Array {
  const { dict } = stream;
  const filter = dict.lookup(PDFName.of("Filter"));
  const parms = dict.lookup(PDFName.of("DecodeParms"));
  const filters = filter === undefined ? [] : filter instanceof PDFArray ? filter.asArray() : [filter];
  const allParms = parms instanceof PDFArray ? parms.asArray() : [parms];
  let data: Uint8Array = stream.contents;
  filters.forEach((entry, index) => {
    const filterName = name(dict.context.lookup(entry));
    if (filterName !== "FlateDecode" && filterName !== "Fl") throw new Unreadable(`filter ${filterName}`);
    const budget = MAX_INFLATED_BYTES - limits.inflated;
    if (budget < 1) throw new Unreadable("inflation budget");
    // Sync flush: a stream cut short gives what it has, as readers do; past the budget it throws.
    data = inflateSync(data, { maxOutputLength: budget, finishFlush: constants.Z_SYNC_FLUSH });
    limits.inflated += data.byteLength;
    const entryParms = dict.context.lookup(allParms[index]);
    data = undoPredictor(data, entryParms instanceof PDFDict ? entryParms : undefined);
  });
  return data;
}

/** The bytes before a predictor (ISO 32000-1 §7.4.4.4): PNG predictors 10–15, TIFF predictor 2. */
export function undoPredictor(data: Uint8Array, parms: PDFDict | undefined): Uint8Array {
  if (!parms) return data;
  const predictor = integer(parms, "Predictor", 1);
  if (predictor === 1) return data;
  const colors = integer(parms, "Colors", 1);
  const bits = integer(parms, "BitsPerComponent", 8);
  const columns = integer(parms, "Columns", 1);
  if (colors < 1 || colors > 32 || ![1, 2, 4, 8, 16].includes(bits) || columns < 1 || columns > 1 << 20) {
    throw new Unreadable("predictor parameters");
  }
  const rowLength = Math.ceil((columns * colors * bits) / 8);
  const pixel = Math.max(1, Math.ceil((colors * bits) / 8));
  if (predictor === 2) {
    if (bits !== 8) throw new Unreadable("TIFF predictor");
    const out = Uint8Array.from(data);
    for (let row = 0; row < out.length; row += rowLength) {
      for (let x = row + colors; x < Math.min(row + rowLength, out.length); x++)
        out[x] = (out[x]! + out[x - colors]!) & 0xff;
    }
    return out;
  }
  if (predictor < 10 || predictor > 15) throw new Unreadable(`predictor ${predictor}`);
  const rows = Math.ceil(data.length / (rowLength + 1));
  const out = new Uint8Array(rows * rowLength);
  let end = 0;
  for (let row = 0; row < rows; row++) {
    const input = row * (rowLength + 1);
    const type = data[input]!;
    const at = row * rowLength;
    const length = Math.min(rowLength, data.length - input - 1);
    for (let x = 0; x < length; x++) {
      const raw = data[input + 1 + x]!;
      const left = x >= pixel ? out[at + x - pixel]! : 0;
      const up = row > 0 ? out[at - rowLength + x]! : 0;
      const upLeft = row > 0 && x >= pixel ? out[at - rowLength + x - pixel]! : 0;
      let reference: number;
      if (type === 0) reference = 0;
      else if (type === 1) reference = left;
      else if (type === 2) reference = up;
      else if (type === 3) reference = (left + up) >> 1;
      else if (type === 4) {
        const estimate = left + up - upLeft;
        const [toLeft, toUp, toUpLeft] = [estimate - left, estimate - up, estimate - upLeft].map(Math.abs);
        reference = toLeft! <= toUp! && toLeft! <= toUpLeft! ? left : toUp! <= toUpLeft! ? up : upLeft;
      } else throw new Unreadable(`PNG filter ${type}`);
      out[at + x] = (raw + reference) & 0xff;
    }
    // The last row may be cut short: what it has is kept.
    end = at + Math.max(0, length);
  }
  return out.subarray(0, end);
}

/** A file parsed and inspected: its objects (last version of each) and trailer, or why it is refused. */
function parseAndInspect(bytes: Uint8Array): { context: PDFContext } {
  const context = PDFContext.create();
  const limits: Limits = { objects: 0, values: 0, names: new Set(), inflated: 0 };
  const openActions: PDFObject[] = [];
  const trailers: PDFDict[] = [];
  // In file order; object streams are read once the whole body is, so that an encrypted file is
  // called encrypted rather than unreadable.
  const found: { ref: PDFRef; value: PDFObject }[] = [];

  const take = (ref: PDFRef, value: PDFObject) => {
    if (++limits.objects > MAX_PDF_OBJECTS) throw new Unreadable("too many objects");
    const problem = inspect(value);
    if (problem) throw new Refused(problem);
    const dict = value instanceof PDFRawStream ? value.dict : value;
    if (dict instanceof PDFDict) {
      const openAction = dict.get(PDFName.of("OpenAction"));
      if (openAction) openActions.push(openAction);
    }
  };
  const reader = PdfReader.over(bytes, context, limits);
  reader.readFile(
    (ref, value) => {
      take(ref, value);
      found.push({ ref, value });
    },
    (dict) => {
      const problem = inspect(dict);
      if (problem) throw new Refused(problem);
      trailers.push(dict);
    },
  );

  for (const { ref, value } of found) {
    const type = value instanceof PDFRawStream ? name(value.dict.lookup(PDFName.of("Type"))) : undefined;
    if (type === "XRef") {
      // A cross-reference stream's dictionary is a trailer; its table is written anew.
      trailers.push((value as PDFRawStream).dict);
    } else if (type === "ObjStm") {
      const stream = value as PDFRawStream;
      const count = integer(stream.dict, "N", -1);
      const first = integer(stream.dict, "First", -1);
      if (count < 0 || first < 0 || count > MAX_PDF_OBJECTS - limits.objects) throw new Unreadable("object stream");
      const data = decodeObjectStream(stream, limits);
      for (const [member, memberValue] of PdfReader.over(data, context, limits).readObjectStream(count, first)) {
        take(member, memberValue);
        context.assign(member, memberValue);
      }
    } else {
      context.assign(ref, value);
    }
  }

  // Later trailers (incremental updates) win, as pdf-lib's own parser has it.
  for (const trailer of trailers) {
    for (const key of ["Root", "Info", "ID"] as const) {
      const entry = trailer.get(PDFName.of(key));
      if (entry) context.trailerInfo[key] = entry;
    }
  }
  // A catalog with pages: without one there is nothing for staff to read.
  const catalog = context.lookup(context.trailerInfo.Root);
  if (!(catalog instanceof PDFDict) || !catalog.has(PDFName.of("Pages"))) throw new Unreadable("no catalog");

  for (const openAction of openActions) {
    const action = context.lookup(openAction);
    if (action instanceof PDFDict) {
      const plain = isPlainOpenAction(name(action.lookup(PDFName.of("S"))), action.has(PDFName.of("Next")));
      if (!plain) throw new Refused("pdfActive");
    }
  }
  return { context };
}

function judge(bytes: Uint8Array): { ok: true; context: PDFContext } | Exclude<PdfCheck, { ok: true }> {
  try {
    return { ok: true, ...parseAndInspect(bytes) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.problem };
    // Unreadable, or anything pdf-lib throws on a corrupt file (and a stack overflow): never a 500.
    return { ok: false, problem: "pdfUnreadable" };
  }
}

/** A PDF inspected, and if nothing in it is refused, written anew from what was inspected. */
export async function checkPdf(bytes: Uint8Array): Promise<PdfCheck> {
  const first = judge(bytes);
  if (!first.ok) return first;
  const { context } = first;
  const version = /^%PDF-([12])\.(\d)/.exec(Buffer.from(bytes.subarray(0, 16)).toString("latin1"));
  context.header = PDFHeader.forVersion(Number(version?.[1] ?? 1), Number(version?.[2] ?? 7));
  let written: Uint8Array;
  try {
    written = await PDFWriter.forContext(context, Infinity).serializeToBuffer();
  } catch {
    return { ok: false, problem: "pdfUnreadable" };
  }
  // What is stored is inspected again, as it is.
  const second = judge(written);
  if (!second.ok) return second;
  return { ok: true, bytes: Buffer.from(written.buffer, written.byteOffset, written.byteLength) };
}
