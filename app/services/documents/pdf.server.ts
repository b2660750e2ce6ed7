import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create, type Font } from "fontkit";
import PDFDocument from "pdfkit";
import { packObjects } from "./pdf-packer.server";

/**
 * Tagged, accessible PDFs (issue 34, decision 089): every document the portal files for a clerk (an invoice,
 * a receipt, a statement, an agreement as accepted) is drawn through this one builder, so that each is
 * PDF/UA-shaped the same way:
 *
 * - a structure tree under one `Document` element, in reading order: headings (`H1`, `H2`), paragraphs
 *   (`P`), tables (`Table` → `TR` → `TH`/`TD`, header cells with their `Scope`), the logo as a `Figure`
 *   with its alternative text;
 * - everything else (the brand's colour bar, rules, page numbers) marked as artifacts;
 * - the title shown as the window title, the language set, and the text as text in an embedded,
 *   subsetted font (DejaVu Sans, from npm: the standard PDF fonts are not embedded and cover Latin-1 only).
 *
 * A4, black and dark grey text on white (greyscale printing loses nothing); the brand's colour only on
 * the bar across the top, never behind text.
 */

const require = createRequire(import.meta.url);
/**
 * Parsed once per process, on the first document: parsing DejaVu's tables took most of a document's time
 * when each document parsed its own copy. pdfkit takes a parsed font; each document embeds its own subset.
 */
let fonts: { regular: Font; bold: Font; mono: Font } | null = null;
const parsedFonts = () =>
  (fonts ??= {
    regular: create(readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"))),
    bold: create(readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"))),
    // For a value read character by character (a SHA-256): embedded only in a document that shows one.
    mono: create(readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf"))),
  });

/** A4 in points, and the margin (20 mm). */
const PAGE = { size: "A4" as const, margin: 57 };
const TEXT = "#1a1a1a";
const MUTED = "#4d4d4d";
const HEADER_FILL = "#e3e3e3";
const BAND_FILL = "#f3f3f3";
const SIZES = { body: 10, small: 8.5, h1: 18, h2: 12.5, h3: 11, brand: 12 };
/** A header cell's scope: pdfkit writes it as the element's table attribute (not in @types/pdfkit). */
const COLUMN_SCOPE = { scope: "Column" } as PDFKit.Mixins.StructureElementOptions;
/** Rows drawn between the event loop's turns in a long table (about 5 ms of work on a slow core). */
const YIELD_EVERY = 25;

/** Lets the event loop answer other requests before the next stretch of work. */
function nextTurn() {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** What a document shows of its brand: the published name, colour and logo (never a draft's). */
export type PdfBrand = {
  businessName: string;
  /** The brand's main colour as #rrggbb: the bar across the top of the first page. */
  colour: string;
  /** The logo as a PNG (the emails' logo, decision 081), or null to show the name alone. */
  logoPng: Buffer | null;
};

export type PdfMeta = {
  /** The document's title: the window title, and the first heading. */
  title: string;
  /** BCP 47, the page's language (en-AU, id). */
  lang: string;
  subject: string;
  /** "Page {page} of {pages}", in the document's language. */
  pageOf: (page: number, pages: number) => string;
  /** The logo's alternative text ("{business} logo"). */
  logoAlt: string;
};

/**
 * One column of a table: its header, how its cells line up (amounts to the right), and in a ledger,
 * whether its text may run onto more lines (the rest stay on one line and are never measured).
 */
export type PdfColumn = { header: string; align?: "left" | "right"; width?: number | "*"; wrap?: boolean };

type TableCell = {
  text: string;
  type?: "TD" | "TH";
  scope?: "Row" | "Column";
  align?: { x: "left" | "right"; y: "top" };
  font?: { src: string; size?: number };
  backgroundColor?: string;
  border?: number | [number, number, number, number];
  borderColor?: string;
  padding?: [number, number, number, number];
  textColor?: string;
};
/** pdfkit's accessible tables: `structParent` and a header cell's `scope` (not in @types/pdfkit). */
type AccessibleTable = {
  data: TableCell[][];
  structParent: PDFKit.PDFStructureElement;
  columnStyles?: (number | string | { width: number | string })[];
  defaultStyle?: { border: number; padding: [number, number, number, number]; textColor: string };
};

export class TaggedPdf {
  readonly doc: PDFKit.PDFDocument;
  private readonly root: PDFKit.PDFStructureElement;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;

  constructor(
    private readonly meta: PdfMeta,
    private readonly brand: PdfBrand,
  ) {
    this.doc = new PDFDocument({
      size: PAGE.size,
      margin: PAGE.margin,
      pdfVersion: "1.7",
      // PDF/UA-1's identification in the metadata (@types/pdfkit lists only PDF/A's subsets).
      subset: "PDF/UA" as PDFKit.Mixins.PDFSubsets,
      tagged: true,
      lang: meta.lang,
      displayTitle: true,
      bufferPages: true,
      // No standard font is ever set, so none is referenced unembedded.
      font: null as unknown as string,
      info: { Title: meta.title, Author: brand.businessName, Subject: meta.subject, Creator: brand.businessName },
    });
    const { regular, bold, mono } = parsedFonts();
    // @types/pdfkit names a path or bytes; pdfkit itself takes a parsed font too.
    this.doc.registerFont("body", regular as unknown as Buffer);
    this.doc.registerFont("bold", bold as unknown as Buffer);
    this.doc.registerFont("mono", mono as unknown as Buffer);
    this.doc.font("body").fontSize(SIZES.body).fillColor(TEXT);
    this.doc.on("data", (chunk: Buffer) => this.chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.doc.on("end", () => resolve(Buffer.concat(this.chunks)));
      this.doc.on("error", reject);
    });
    this.root = this.doc.struct("Document");
    this.doc.addStructure(this.root);
    this.masthead();
  }

  /** The brand's bar (an artifact), its logo (a figure) and its name (a paragraph). */
  private masthead() {
    const doc = this.doc;
    const width = doc.page.width;
    doc.markContent("Artifact", { type: "Layout" });
    doc.save().rect(0, 0, width, 10).fill(this.brand.colour).restore();
    doc.endMarkedContent();
    const top = PAGE.margin - 20;
    doc.y = top;
    if (this.brand.logoPng) {
      const png = this.brand.logoPng;
      this.root.add(
        doc.struct("Figure", { alt: this.meta.logoAlt }, () => {
          doc.image(png, PAGE.margin, top, { fit: [120, 40] });
        }),
      );
      doc.y = top + 46;
    }
    this.paragraph(this.brand.businessName, { bold: true, size: SIZES.brand });
    doc.moveDown(0.6);
  }

  heading(level: 1 | 2 | 3 | 4 | 5, text: string) {
    const doc = this.doc;
    if (level > 1) doc.moveDown(level === 2 ? 0.8 : 0.5);
    this.root.add(
      doc.struct(`H${level}`, {}, () => {
        doc
          .font("bold")
          .fontSize(level === 1 ? SIZES.h1 : level === 2 ? SIZES.h2 : SIZES.h3)
          .fillColor(TEXT)
          .text(`${text} `, PAGE.margin, doc.y);
      }),
    );
    doc.font("body").fontSize(SIZES.body);
    doc.moveDown(0.3);
    return this;
  }

  paragraph(text: string, options: { bold?: boolean; muted?: boolean; size?: number } = {}) {
    const doc = this.doc;
    this.root.add(
      doc.struct("P", {}, () => {
        doc
          .font(options.bold ? "bold" : "body")
          .fontSize(options.size ?? SIZES.body)
          .fillColor(options.muted ? MUTED : TEXT)
          .text(`${spaced(text)} `, PAGE.margin, doc.y);
      }),
    );
    doc.font("body").fontSize(SIZES.body).fillColor(TEXT);
    doc.moveDown(0.25);
    return this;
  }

  /** A bulleted list: `L` → `LI` → `Lbl` (the bullet) and `LBody` (the item's words). */
  list(items: readonly string[]) {
    const doc = this.doc;
    const indent = 14;
    const list = doc.struct("L");
    this.root.add(list);
    for (const item of items) {
      // An item starts on a page with room for its first two lines, so its bullet is never left behind.
      if (
        doc.y + 2 * doc.font("body").fontSize(SIZES.body).currentLineHeight(true) >
        doc.page.height - doc.page.margins.bottom
      ) {
        doc.addPage();
      }
      const top = doc.y;
      const entry = doc.struct("LI");
      list.add(entry);
      entry.add(
        doc.struct("Lbl", {}, () => {
          doc.font("body").fontSize(SIZES.body).fillColor(TEXT).text("• ", PAGE.margin, top, { lineBreak: false });
        }),
      );
      entry.add(
        doc.struct("LBody", {}, () => {
          doc.text(`${spaced(item)} `, PAGE.margin + indent, top, {
            width: doc.page.width - 2 * PAGE.margin - indent,
          });
        }),
      );
      entry.end();
      doc.moveDown(0.2);
    }
    list.end();
    doc.x = PAGE.margin;
    doc.moveDown(0.25);
    return this;
  }

  /** Label and value pairs, as a table whose first column holds row headers (what a `<dl>` says). */
  facts(rows: readonly (readonly [label: string, value: string, style?: boolean | "code"])[]) {
    if (rows.length === 0) return this;
    this.accessibleTable(
      rows.map(([label, value, style]) => [
        { text: label, type: "TH", scope: "Row", font: { src: "bold" } },
        {
          text: value,
          // Strong (true), or a code read character by character: fixed width and small enough for one line.
          ...(style === "code" ? { font: { src: "mono", size: 7.5 } } : style ? { font: { src: "bold" } } : {}),
        },
      ]),
      [150, "*"],
    );
    return this;
  }

  /** A table with one header row; each column's header has the column's scope. */
  table(columns: readonly PdfColumn[], rows: readonly (readonly string[])[]) {
    const align = (column: PdfColumn) => ({ x: column.align ?? "left", y: "top" as const });
    this.accessibleTable(
      [
        columns.map((column): TableCell => ({
          text: column.header,
          type: "TH",
          scope: "Column",
          align: align(column),
          font: { src: "bold" },
          backgroundColor: HEADER_FILL,
        })),
        ...rows.map((row) => row.map((text, index): TableCell => ({ text, align: align(columns[index]!) }))),
      ],
      columns.map((column) => column.width ?? "*"),
    );
    return this;
  }

  /**
   * A long table (a statement's lines) drawn row by row, for size and speed: pdfkit's own table writes
   * a layout-attribute object for every cell (2.5 KB a row) and measures each cell twice (1.2 s for
   * 1,000 rows). Here a cell is a `TD` with its text and nothing else; the header row is tagged once
   * (`TH`, column scope) and drawn again at the top of each later page as an artifact, as a reader
   * expects of a printed table. Rows come in blocks (an SQL page each); between blocks, and every
   * `YIELD_EVERY` rows, the event loop gets a turn, so a long document never holds other requests up
   * for more than a few milliseconds.
   */
  async ledger(columns: readonly PdfColumn[], blocks: AsyncIterable<readonly (readonly string[])[]>) {
    const doc = this.doc;
    const width = doc.page.width - 2 * PAGE.margin;
    const fixed = columns.reduce((sum, column) => sum + (typeof column.width === "number" ? column.width : 0), 0);
    const flexible = columns.filter((column) => typeof column.width !== "number").length;
    const widths = columns.map((column) =>
      typeof column.width === "number" ? column.width : (width - fixed) / Math.max(1, flexible),
    );
    const lefts = widths.map((_, index) => PAGE.margin + widths.slice(0, index).reduce((a, b) => a + b, 0));
    const pad = { x: 4, y: 3 };
    const size = SIZES.small;
    const lineHeight = () => doc.font("body").fontSize(size).currentLineHeight(true);
    const table = doc.struct("Table");
    this.root.add(table);
    const bottom = () => doc.page.height - doc.page.margins.bottom;

    /** One cell's text: wrapped within its width, or on one line, placed by its alignment. */
    const cell = (text: string, column: number, top: number) => {
      const spec = columns[column]!;
      const inner = widths[column]! - 2 * pad.x;
      if (spec.wrap) {
        doc.text(`${text} `, lefts[column]! + pad.x, top + pad.y, { width: inner, align: spec.align ?? "left" });
      } else {
        const x =
          spec.align === "right"
            ? Math.round((lefts[column]! + pad.x + inner - doc.widthOfString(text)) * 10) / 10
            : lefts[column]! + pad.x;
        doc.text(`${text} `, x, top + pad.y, { lineBreak: false });
      }
    };

    const headerRow = (tagged: boolean) => {
      doc.font("bold").fontSize(size);
      const height = Math.ceil(doc.currentLineHeight(true) + 2 * pad.y);
      const top = Math.ceil(doc.y);
      doc.markContent("Artifact", { type: "Layout" });
      doc.save().rect(PAGE.margin, top, width, height).fill(HEADER_FILL).restore();
      doc.endMarkedContent();
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      if (tagged) {
        const row = doc.struct("TR");
        table.add(row);
        columns.forEach((column, index) => {
          row.add(doc.struct("TH", COLUMN_SCOPE, () => cell(column.header, index, top)));
        });
        row.end();
      } else {
        doc.markContent("Artifact", { type: "Pagination" });
        columns.forEach((column, index) => cell(column.header, index, top));
        doc.endMarkedContent();
      }
      doc.page.margins.bottom = margin;
      doc.font("body").fontSize(size);
      doc.y = top + height;
    };

    // The text's colour, set once: the fills of the bands and the header row restore it after them.
    doc.fillColor(TEXT);
    headerRow(true);
    let index = 0;
    for await (const rows of blocks) {
      for (const cells of rows) {
        doc.font("body").fontSize(size);
        // Only text that can wrap is measured, and only when it could be longer than its cell.
        let height = lineHeight();
        cells.forEach((text, column) => {
          if (columns[column]!.wrap && text.length * size * 0.62 > widths[column]! - 2 * pad.x) {
            height = Math.max(height, doc.heightOfString(`${text} `, { width: widths[column]! - 2 * pad.x }));
          }
        });
        // Whole points: every position on the page a short number, which the compressed content repeats.
        height = Math.ceil(height + 2 * pad.y);
        doc.y = Math.ceil(doc.y);
        if (doc.y + height > bottom()) {
          doc.addPage();
          doc.y = doc.page.margins.top;
          doc.fillColor(TEXT);
          headerRow(false);
        }
        const top = doc.y;
        if (index % 2 === 1) {
          doc.markContent("Artifact", { type: "Layout" });
          doc.save().rect(PAGE.margin, top, width, height).fill(BAND_FILL).restore();
          doc.endMarkedContent();
        }
        const row = doc.struct("TR");
        table.add(row);
        // The row fits (checked above): no text of it may start a page of its own.
        const margin = doc.page.margins.bottom;
        doc.page.margins.bottom = 0;
        // An empty cell is an empty TD: nothing drawn, nothing to read.
        cells.forEach((text, column) => {
          row.add(text === "" ? doc.struct("TD", {}, []) : doc.struct("TD", {}, () => cell(text, column, top)));
        });
        doc.page.margins.bottom = margin;
        row.end();
        doc.y = top + height;
        index += 1;
        if (index % YIELD_EVERY === 0) await nextTurn();
      }
      await nextTurn();
    }
    table.end();
    doc.font("body").fontSize(SIZES.body).fillColor(TEXT);
    doc.x = PAGE.margin;
    doc.moveDown(0.5);
    return this;
  }

  private accessibleTable(data: TableCell[][], widths: (number | string)[]) {
    const doc = this.doc;
    doc.x = PAGE.margin;
    const options: AccessibleTable = {
      // Rows told apart by a light band on every other one, not by borders: pdfkit writes a cell's
      // one-sided border colour with nulls, a value readers call malformed (poppler warns).
      data: data.map((row, index) =>
        row.map((cell) => ({
          ...cell,
          text: spaced(cell.text),
          ...(cell.backgroundColor || index % 2 === 0 ? {} : { backgroundColor: BAND_FILL }),
        })),
      ),
      structParent: this.root,
      columnStyles: widths.map((width) => ({ width })),
      defaultStyle: { border: 0, padding: [4, 5, 4, 5], textColor: TEXT },
    };
    (doc as unknown as { table(options: AccessibleTable): PDFKit.PDFDocument }).table(options);
    doc.font("body").fontSize(SIZES.body).fillColor(TEXT);
    doc.x = PAGE.margin;
    doc.moveDown(0.5);
  }

  /** Page numbers on every page (artifacts), then the file. */
  finish(): Promise<Buffer> {
    const doc = this.doc;
    this.root.end();
    const range = doc.bufferedPageRange();
    for (let index = range.start; index < range.start + range.count; index++) {
      doc.switchToPage(index);
      const bottom = doc.page.margins.bottom;
      // Below the bottom margin: with the margin at 0 for this line, writing there adds no page.
      doc.page.margins.bottom = 0;
      doc.markContent("Artifact", { type: "Pagination" });
      doc
        .font("body")
        .fontSize(SIZES.small)
        .fillColor(MUTED)
        .text(
          `${this.brand.businessName} · ${this.meta.pageOf(index - range.start + 1, range.count)}`,
          PAGE.margin,
          doc.page.height - PAGE.margin + 18,
          { width: doc.page.width - 2 * PAGE.margin, align: "right", lineBreak: false },
        );
      doc.endMarkedContent();
      doc.page.margins.bottom = bottom;
    }
    doc.end();
    return this.done.then(packObjects);
  }
}

/**
 * A space before each line break: a reader that extracts the text (a screen reader, a search, a copy)
 * gets "12 Wharf St Sydney", not "12 Wharf StSydney" (PDF/UA: the spaces between words are in the text).
 */
function spaced(text: string) {
  return text.replace(/ *\n/g, " \n");
}
