import { decidedAgreementFacts, type AgreementContext } from "../agreements/agreement-page.server";
import { pageLanguage } from "../host/language.server";
import { agreementPdf, agreementPdfFileName } from "./agreement-pdf.server";
import { pdfBrand } from "./pdf-brand.server";
/**
 * A PDF as a download (issue 34): a meaningful file name (`Acme-Plumbing-Supplies-INV-023.pdf`), never
 * kept by a browser or a proxy (it is one account's document), never sniffed as anything else.
 */
export function pdfResponse(bytes: Buffer, fileName: string, extraHeaders: HeadersInit = {}) {
  // A link page's headers (its Referrer-Policy) first; the file's own win where both name one.
  const headers = new Headers(extraHeaders);
  headers.set("Content-Type", "application/pdf");
  headers.set("Content-Length", String(bytes.byteLength));
  // The ASCII name for every client, and the exact one (accents kept) for those that read RFC 6266's.
  headers.set(
    "Content-Disposition",
    `attachment; filename="${asciiName(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  );
  headers.set("Cache-Control", "private, no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  return new Response(new Uint8Array(bytes), { status: 200, headers });
}

/** `<business>-<document>.pdf`: letters, digits and hyphens of each, runs of anything else made one hyphen. */
export function pdfFileName(businessName: string, documentName: string) {
  const part = (text: string) =>
    text
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60);
  return `${[part(businessName), part(documentName)].filter(Boolean).join("-") || "document"}.pdf`;
}

function asciiName(fileName: string) {
  return fileName
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9.-]/g, "-");
}

/**
 * A decided agreement's record as a PDF (issue 34), for whoever may download its text record (the
 * same context, so exactly the same access; `extraHeaders`: a link page's). In the page's language.
 */
export async function agreementPdfDownload(
  request: Request,
  context: AgreementContext,
  extraHeaders: HeadersInit = {},
) {
  const facts = decidedAgreementFacts(context);
  const bytes = await agreementPdf({
    brand: await pdfBrand(context.branding),
    language: await pageLanguage(request),
    facts,
  });
  return pdfResponse(bytes, agreementPdfFileName(context.branding.businessName, facts), extraHeaders);
}
