/**
 * A PDF as a download (issue 34): a meaningful file name (`Acme-Plumbing-Supplies-INV-023.pdf`), never
 * kept by a browser or a proxy (it is one account's document), never sniffed as anything else.
 */
export function pdfResponse(bytes: Buffer, fileName: string) {
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(bytes.byteLength),
      // The ASCII name for every client, and the exact one (accents kept) for those that read RFC 6266's.
      "Content-Disposition": `attachment; filename="${asciiName(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
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
