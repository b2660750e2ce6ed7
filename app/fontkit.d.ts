/**
 * fontkit (pdfkit's font engine, a dependency of its own here): only what the PDF builder uses. A parsed
 * font is handed to pdfkit's registerFont, which takes any object with `layout` (decision 089).
 */
declare module "fontkit" {
  export type Font = { layout: (text: string) => unknown; postscriptName: string };
  export function create(buffer: Uint8Array): Font;
}
