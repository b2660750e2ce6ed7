import { PDFDict, PDFDocument, PDFName } from "@cantoo/pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** One node of a PDF's structure tree as pdf.js reads it: a role with children, or a piece of content. */
export type StructNode = { role: string; alt?: string; lang?: string; children: StructNode[] } | { type: string };

/**
 * A PDF read back the way a reader does (issue 34): pdf.js for the text, the structure tree and the
 * document's settings; pdf-lib's object parser for what pdf.js does not report (fonts embedded, table
 * header scopes, the PDF/UA identification). Tests compare what a clerk's file says with the page.
 */
export async function readPdf(bytes: Uint8Array) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  const artifacts: string[] = [];
  const trees: StructNode[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    pages.push(
      content.items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
        .join("")
        .replace(/[ \t]+/g, " "),
    );
    // The text inside Artifact marked content (page numbers, running heads): what readers skip.
    const marked = await page.getTextContent({ includeMarkedContent: true });
    const open: string[] = [];
    let artifactText = "";
    for (const item of marked.items) {
      if ("type" in item && (item.type === "beginMarkedContent" || item.type === "beginMarkedContentProps")) {
        open.push((item as { tag?: string }).tag ?? "");
      } else if ("type" in item && item.type === "endMarkedContent") {
        open.pop();
      } else if ("str" in item && open.includes("Artifact")) {
        artifactText += item.str;
      }
    }
    artifacts.push(artifactText);
    const tree = (await page.getStructTree()) as unknown as StructNode | null;
    if (tree) trees.push(tree);
  }
  const { info, metadata } = (await pdf.getMetadata()) as {
    info: { Title?: string; Language?: string };
    metadata: { get(name: string): string | null } | null;
  };
  const markInfo = await pdf.getMarkInfo();
  const viewer = (await pdf.getViewerPreferences()) as { DisplayDocTitle?: boolean } | null;
  await pdf.destroy();

  const objects = await PDFDocument.load(bytes, { updateMetadata: false });
  const dicts = objects.context
    .enumerateIndirectObjects()
    .flatMap(([, object]) => (object instanceof PDFDict ? [object] : []));
  const named = (dict: PDFDict, key: string) => dict.get(PDFName.of(key))?.toString();
  const fontDescriptors = dicts.filter((dict) => named(dict, "Type") === "/FontDescriptor");
  const headerScopes = dicts
    .filter((dict) => named(dict, "S") === "/TH")
    .map((dict) => {
      const attributes = dict.lookup(PDFName.of("A"));
      return attributes instanceof PDFDict ? (named(attributes, "Scope") ?? null) : null;
    });
  const catalog = objects.catalog;
  return {
    pages,
    /** Per page, the text marked as an artifact (outside the structure a screen reader reads). */
    artifacts,
    text: pages.join("\n"),
    trees,
    title: info.Title ?? null,
    lang: named(catalog, "Lang")?.replace(/^\(|\)$/g, "") ?? null,
    displayDocTitle: viewer?.DisplayDocTitle === true,
    marked: markInfo?.Marked === true,
    /** Every font's descriptor names an embedded font program (FontFile, FontFile2 or FontFile3). */
    fontsEmbedded:
      fontDescriptors.length > 0 &&
      fontDescriptors.every((dict) => ["FontFile", "FontFile2", "FontFile3"].some((key) => dict.has(PDFName.of(key)))),
    headerScopes,
    /** The XMP metadata's PDF/UA part ("1" for PDF/UA-1), or null. */
    pdfUaPart: metadata?.get("pdfuaid:part") ?? null,
  };
}

/** The roles of a structure tree, depth first, in reading order ("Document", "H1", "Table", "TR", …). */
export function rolesOf(node: StructNode): string[] {
  if (!("role" in node)) return [];
  return [node.role, ...node.children.flatMap(rolesOf)];
}

/** The structure elements with a role, depth first. */
export function elementsOf(node: StructNode): Extract<StructNode, { role: string }>[] {
  if (!("role" in node)) return [];
  return [node, ...node.children.flatMap(elementsOf)];
}
