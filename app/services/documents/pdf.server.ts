import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create, type Font } from "fontkit";
import PDFDocument from "pdfkit";

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
let fonts: { regular: Font; bold: Font } | null = null;
const parsedFonts = () =>
  (fonts ??= {
    regular: create(readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"))),
    bold: create(readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"))),
  });

/** A4 in points, and the margin (20 mm). */
const PAGE = { size: "A4" as const, margin: 57 };
const TEXT = "#1a1a1a";
const MUTED = "#4d4d4d";
const HEADER_FILL = "#e3e3e3";
const BAND_FILL = "#f3f3f3";
const SIZES = { body: 10, small: 8.5, h1: 18, h2: 12.5, brand: 12 };

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

/** One column of a table: its header, and how its cells line up (amounts to the right). */
export type PdfColumn = { header: string; align?: "left" | "right"; width?: number | "*" };

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
    const { regular, bold } = parsedFonts();
    // @types/pdfkit names a path or bytes; pdfkit itself takes a parsed font too.
    this.doc.registerFont("body", regular as unknown as Buffer);
    this.doc.registerFont("bold", bold as unknown as Buffer);
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

  heading(level: 1 | 2, text: string) {
    const doc = this.doc;
    if (level === 2) doc.moveDown(0.8);
    this.root.add(
      doc.struct(level === 1 ? "H1" : "H2", {}, () => {
        doc
          .font("bold")
          .fontSize(level === 1 ? SIZES.h1 : SIZES.h2)
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

  /** Label and value pairs, as a table whose first column holds row headers (what a `<dl>` says). */
  facts(rows: readonly (readonly [label: string, value: string, strong?: boolean])[]) {
    if (rows.length === 0) return this;
    this.accessibleTable(
      rows.map(([label, value, strong]) => [
        { text: label, type: "TH", scope: "Row", font: { src: "bold" } },
        { text: value, ...(strong ? { font: { src: "bold" } } : {}) },
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
    return this.done;
  }
}

/**
 * A space before each line break: a reader that extracts the text (a screen reader, a search, a copy)
 * gets "12 Wharf St Sydney", not "12 Wharf StSydney" (PDF/UA: the spaces between words are in the text).
 */
function spaced(text: string) {
  return text.replace(/ *\n/g, " \n");
}
