import { deflateSync } from "node:zlib";
import sharp from "sharp";

/**
 * Files for the credit application's document tests (decision 038), made here rather than kept as
 * binaries: a real one-page PDF (with a correct cross-reference table, so a reader opens it), the
 * same with an action hidden in several ways, an "executable" renamed .pdf, and images with
 * metadata that must not survive.
 */

/** A PDF from its objects' bodies (object 1 is the catalog), with a cross-reference table and trailer. */
export function buildPdf(objects: (string | Buffer)[], options: { version?: string; trailerExtra?: string } = {}) {
  const parts: Buffer[] = [Buffer.from(`%PDF-${options.version ?? "1.7"}\n%\xe2\xe3\xcf\xd3\n`, "latin1")];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, "latin1"),
      typeof body === "string" ? Buffer.from(body, "latin1") : body,
      Buffer.from("\nendobj\n", "latin1"),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R ${options.trailerExtra ?? ""}>>`,
    "startxref",
    String(length),
    "%%EOF",
    "",
  ].join("\n");
  parts.push(Buffer.from(xref, "latin1"));
  return Buffer.concat(parts);
}

/**
 * A stream object's body: its dictionary and its data. `between` goes between the dictionary's
 * `>>` and the keyword `stream` (a comment there is legal PDF: readers skip it).
 */
export function stream(dictionary: string, data: Buffer | string, between = "\n") {
  const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${bytes.length} >>${between}stream\n`, "latin1"),
    bytes,
    Buffer.from("\nendstream", "latin1"),
  ]);
}

const PAGE_OBJECTS = (text: string): (string | Buffer)[] => [
  "<< /Type /Catalog /Pages 2 0 R >>",
  "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
  stream("", `BT /F1 18 Tf 72 760 Td (${text}) Tj ET`),
  "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
];

/** A plain one-page PDF: what an accountant's financial statements look like to the checker. */
export function plainPdf(text = "Financial statements 2026") {
  return buildPdf(PAGE_OBJECTS(text));
}

/** The plain page with more objects after it (numbered from 6), referenced by nothing. */
export function plainPdfWithObjects(more: (string | Buffer)[]) {
  return buildPdf([...PAGE_OBJECTS("More objects"), ...more]);
}

/** A one-page PDF of about `bytes` bytes (a long comment pads it). */
export function pdfOfSize(bytes: number) {
  const base = plainPdf();
  const padding = Math.max(0, bytes - base.length - 2);
  return Buffer.concat([base, Buffer.from(`%${"x".repeat(padding)}\n`, "latin1")]).subarray(
    0,
    Math.max(bytes, base.length),
  );
}

/**
 * A one-page PDF of about `bytes` bytes whose size is its page's content (a long comment inside the
 * content stream): the checker's re-written copy (decision 057) keeps the stream, so it keeps the size,
 * where `pdfOfSize`'s trailing comment is dropped.
 */
export function pdfWithContentOfSize(bytes: number) {
  const objects = PAGE_OBJECTS("Financial statements 2026");
  const base = buildPdf(objects).length;
  const padding = Math.max(0, bytes - base - 2 - String(bytes).length);
  objects[3] = stream("", `BT /F1 18 Tf 72 760 Td (Financial statements 2026) Tj ET\n%${"x".repeat(padding)}`);
  return buildPdf(objects);
}

/** The same page with an OpenAction running JavaScript (the name as it is, or hex-escaped). */
export function pdfWithJavaScript(escaped = false) {
  const objects = PAGE_OBJECTS("Open me");
  const name = escaped ? "/J#61vaScript" : "/JavaScript";
  objects[0] = "<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R >>";
  objects.push(`<< /Type /Action /S ${name} /JS (app.alert\\('hello'\\)) >>`);
  return buildPdf(objects);
}

/** An embedded file (an attachment that may be an executable). */
export function pdfWithEmbeddedFile() {
  const objects = PAGE_OBJECTS("Attachment inside");
  objects[0] = "<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 6 0 R >> >>";
  objects.push("<< /Names [(invoice.exe) 7 0 R] >>");
  objects.push("<< /Type /Filespec /F (invoice.exe) /EF << /F 8 0 R >> >>");
  objects.push(stream("/Type /EmbeddedFile", "MZ fake program"));
  return buildPdf(objects);
}

/** The JavaScript action hidden inside a compressed object stream (PDF 1.5+), where a raw scan cannot see it. */
export function pdfWithJavaScriptInObjectStream() {
  const objects = PAGE_OBJECTS("Compressed objects");
  objects[0] = "<< /Type /Catalog /Pages 2 0 R /OpenAction 7 0 R >>";
  const hidden = "<< /Type /Action /S /JavaScript /JS (app.launchURL\\('https://evil.example'\\)) >>";
  const header = "7 0 ";
  const compressed = deflateSync(Buffer.from(header + hidden, "latin1"));
  objects.push(stream(`/Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode`, compressed));
  return buildPdf(objects, { version: "1.5" });
}

/** An object stream whose content is harmless (a normal modern PDF writer's output). */
export function pdfWithHarmlessObjectStream() {
  const objects = PAGE_OBJECTS("Compressed, harmless");
  const header = "7 0 ";
  const compressed = deflateSync(Buffer.from(`${header}<< /Producer (Accounts 2026) /Title (Statements) >>`, "latin1"));
  objects.push(stream(`/Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode`, compressed));
  return buildPdf(objects, { version: "1.5" });
}

/**
 * PNG prediction (ISO 32000-1 §7.4.4.4) of `data` in rows of `columns` one-byte samples: each row
 * is its filter type and the row's bytes less the byte to its left (Sub, 1) or above (Up, 2),
 * alternately. A decoder that ignores /DecodeParms sees only these differences.
 */
export function pngPredict(data: Buffer, columns: number) {
  const padded = Buffer.concat([data, Buffer.alloc((columns - (data.length % columns)) % columns, 0x20)]);
  const rows: Buffer[] = [];
  for (let start = 0; start < padded.length; start += columns) {
    const row = padded.subarray(start, start + columns);
    const above = start === 0 ? Buffer.alloc(columns) : padded.subarray(start - columns, start);
    const type = (start / columns) % 2 === 0 ? 1 : 2;
    const out = Buffer.alloc(columns + 1);
    out[0] = type;
    for (let x = 0; x < columns; x++) {
      const reference = type === 1 ? (x === 0 ? 0 : row[x - 1]!) : above[x]!;
      out[x + 1] = (row[x]! - reference) & 0xff;
    }
    rows.push(out);
  }
  return Buffer.concat(rows);
}

/** One compressed object stream holding `objects` (numbered from `first`), its data PNG-predicted or not. */
function objectStream(bodies: string[], first: number, options: { predictor?: boolean; between?: string } = {}) {
  let offset = 0;
  const pairs: string[] = [];
  bodies.forEach((body, index) => {
    pairs.push(`${first + index} ${offset}`);
    offset += body.length + 1;
  });
  const header = `${pairs.join(" ")} `;
  const plain = Buffer.from(header + bodies.join(" "), "latin1");
  const columns = 12;
  const data = options.predictor ? pngPredict(plain, columns) : plain;
  const parms = options.predictor ? ` /DecodeParms << /Predictor 12 /Columns ${columns} >>` : "";
  return stream(
    `/Type /ObjStm /N ${bodies.length} /First ${header.length} /Filter /FlateDecode${parms}`,
    deflateSync(data),
    options.between,
  );
}

/**
 * The first bypass of issue 28: the JavaScript OpenAction in an object stream whose data is
 * PNG-predicted (/DecodeParms /Predictor 12). A decoder that inflates without undoing the
 * prediction reads noise; a reader undoes it and runs the script.
 */
export function pdfWithJavaScriptInPredictedObjectStream() {
  const objects = PAGE_OBJECTS("Predicted");
  objects[0] = "<< /Type /Catalog /Pages 2 0 R /OpenAction 7 0 R >>";
  objects.push(
    objectStream(["<< /Type /Action /S /JavaScript /JS (app.launchURL\\('https://evil.example'\\)) >>"], 7, {
      predictor: true,
    }),
  );
  return buildPdf(objects, { version: "1.5" });
}

/** A harmless object stream with a predictor, as some writers make: a correct decoder reads it. */
export function pdfWithHarmlessPredictedObjectStream() {
  const objects = PAGE_OBJECTS("Predicted, harmless");
  objects.push(
    objectStream(["<< /Producer (Accounts 2026) /Title (Statements) >>", "[0 0 595 842]"], 7, { predictor: true }),
  );
  return buildPdf(objects, { version: "1.5", trailerExtra: "/Info 7 0 R " });
}

/**
 * The second bypass of issue 28: a comment between the object stream's dictionary and the keyword
 * `stream` (`>>\n%x\nstream`), which a scan for `>>` right before `stream` misses.
 */
export function pdfWithCommentBeforeStreamKeyword() {
  const objects = PAGE_OBJECTS("Commented");
  objects[0] = "<< /Type /Catalog /Pages 2 0 R /OpenAction 7 0 R >>";
  objects.push(objectStream(["<< /Type /Action /S /JavaScript /JS (app.alert\\(1\\)) >>"], 7, { between: "\n%x\n" }));
  return buildPdf(objects, { version: "1.5" });
}

/** The page with `extra` added to one of its objects' dictionaries (0 the catalog, 2 the page), and more objects. */
function pdfWith(text: string, index: number, extra: string, more: (string | Buffer)[] = []) {
  const objects = PAGE_OBJECTS(text);
  objects[index] = (objects[index] as string).replace(/ >>$/, ` ${extra} >>`);
  objects.push(...more);
  return buildPdf(objects);
}

/** Additional actions (/AA) on the page: run when it opens. */
export const pdfWithPageAdditionalActions = () =>
  pdfWith("Page actions", 2, "/AA << /O 6 0 R >>", ["<< /S /JavaScript /JS 7 0 R >>", stream("", "app.alert(1)")]);

/** Script in the document's /Names /JavaScript name tree (run when it opens, no OpenAction needed). */
export const pdfWithJavaScriptNameTree = () =>
  pdfWith("Name tree", 0, "/Names << /JavaScript 6 0 R >>", ["<< /Names [(init) << /JS (app.alert\\(1\\)) >>] >>"]);

/** An OpenAction launching a program. */
export const pdfWithLaunchAction = () => pdfWith("Launch", 0, "/OpenAction 6 0 R", ["<< /S /Launch /F (cmd.exe) >>"]);

/** An XFA form in the AcroForm dictionary. */
export const pdfWithXfa = () => pdfWith("XFA", 0, "/AcroForm << /Fields [] /XFA 6 0 R >>", [stream("", "<xdp:xdp/>")]);

/** An OpenAction that only goes to the first page (what many writers put there): harmless. */
export const pdfOpeningAtFirstPage = () => pdfWith("Go to", 0, "/OpenAction << /S /GoTo /D [3 0 R /Fit] >>");

/** An OpenAction that opens a web page: not a plain GoTo, refused. */
export const pdfOpeningAWebPage = () => pdfWith("URI", 0, "/OpenAction << /S /URI /URI (https://evil.example) >>");

/** An encrypted PDF (its trailer names an /Encrypt dictionary). */
export function encryptedPdf() {
  const objects = PAGE_OBJECTS("Secret");
  objects.push("<< /Filter /Standard /V 2 /R 3 /Length 128 /P -44 /O (x) /U (y) >>");
  return buildPdf(objects, { trailerExtra: "/Encrypt 6 0 R /ID [<00><00>] " });
}

/** A Windows program's first bytes ("MZ", the DOS stub): what an .exe renamed .pdf starts with. */
export function windowsExecutable() {
  const bytes = Buffer.alloc(2048, 0);
  bytes.write("MZ", 0, "latin1");
  bytes.write("This program cannot be run in DOS mode.", 78, "latin1");
  bytes.write("PE\0\0", 128, "latin1");
  return bytes;
}

/** A small PNG with a text chunk and EXIF-ish metadata that re-encoding must drop. */
export async function pngWithMetadata() {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .withMetadata({ exif: { IFD0: { ImageDescription: "secret-camera-note", Artist: "Someone Private" } } })
    .toBuffer();
}

/** A JPEG from a camera: with EXIF (its description and a GPS position) to be stripped. */
export async function jpegWithExif() {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .jpeg()
    .withMetadata({
      exif: {
        IFD0: { ImageDescription: "secret-camera-note", Make: "PhoneCam" },
        IFD3: { GPSLatitudeRef: "S", GPSLatitude: "33/1 52/1 0/1" },
      },
    })
    .toBuffer();
}
