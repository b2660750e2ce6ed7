import type { MessageKey } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import type { LanguageCode } from "~/lib/i18n/languages";
import type { ReceiptPageData } from "~/lib/receipt";
import { pdfFileName } from "./pdf-pages.server";
import { pdfMeta } from "./pdf-meta.server";
import { TaggedPdf, type PdfBrand } from "./pdf.server";

/** What the money paid, as its line (the receipt page's words). */
const SUBTOTAL = {
  invoices: "pay.subtotal",
  request: "requestPage.subtotal",
  adhoc: "receipt.subtotal.adhoc",
} as const satisfies Record<string, MessageKey>;

/**
 * A receipt has a PDF once there is something to file: money taken, or a promise recorded. A payment
 * still being confirmed or not taken has its page and no document.
 */
export function receiptHasPdf(data: Pick<ReceiptPageData, "receipt">) {
  return data.receipt.status === "succeeded" || data.receipt.status === "promised";
}

export function receiptFileName(businessName: string, reference: string) {
  return pdfFileName(businessName, `Receipt ${reference}`);
}

/**
 * A receipt as a clerk files it against the bill it paid (issue 34): who was paid and for which
 * account, the reference and date, the method (masked as the page shows it: a card's last four digits,
 * or PayTo), the figures with each fee, the invoices paid and how much of each, and what is still owing.
 * The page's own data and words (`receiptView`), so the file says what the page says.
 */
export function receiptPdf(input: { brand: PdfBrand; language: LanguageCode; data: ReceiptPageData }): Promise<Buffer> {
  const { brand, data } = input;
  const { receipt } = data;
  const t = translator(input.language);
  const promised = receipt.status === "promised";
  const title = promised
    ? t("pdf.receipt.promiseTitle", { reference: receipt.reference })
    : t("receipt.title", { reference: receipt.reference });
  const pdf = new TaggedPdf(
    pdfMeta(
      input.language,
      brand.businessName,
      title,
      t("pdf.subject.receipt", { reference: receipt.reference, business: brand.businessName }),
    ),
    brand,
  );
  pdf.heading(1, title);
  pdf.paragraph(
    promised
      ? t("pdf.receipt.promised", { business: brand.businessName, date: receipt.promiseDate ?? "" })
      : t("pdf.receipt.paid", { business: brand.businessName }),
  );
  const facts: [string, string, boolean?][] = [];
  if (data.account) facts.push([t("pdf.receipt.account"), `${data.account.name} (${data.account.number})`]);
  facts.push([t("receipt.referenceLabel"), receipt.reference], [t("receipt.date"), receipt.date]);
  if (receipt.forRequest) {
    const request = t("receipt.forRequest", { reference: receipt.forRequest.reference });
    facts.push([
      t("receipt.for"),
      receipt.forRequest.description ? `${request}: ${receipt.forRequest.description}` : request,
    ]);
  }
  if (receipt.credited) facts.push([t("receipt.credited"), receipt.credited]);
  if (receipt.payerReference) facts.push([t("receipt.payerReference"), receipt.payerReference]);
  const method = receipt.payTo ? t("paytoPay.receipt.method") : receipt.method;
  if (method && !promised) facts.push([t("receipt.method"), method]);
  facts.push([t(SUBTOTAL[receipt.payAgain.kind]), receipt.subTotal]);
  if (receipt.lateFee) facts.push([t("pay.lateFee"), receipt.lateFee]);
  if (receipt.discount) facts.push([t("pay.discount"), `−${receipt.discount}`]);
  if (receipt.surcharge) facts.push([t("pay.surcharge"), receipt.surcharge]);
  facts.push(
    promised ? [t("receipt.promisedTotal"), receipt.subTotal, true] : [t("receipt.total"), receipt.total, true],
  );
  if (receipt.owing) {
    facts.push([
      receipt.owing.on === "request"
        ? t("receipt.owing.request", { reference: receipt.owing.reference ?? "" })
        : t("receipt.owing.invoices"),
      receipt.owing.amount,
      true,
    ]);
  }
  pdf.facts(facts);
  if (receipt.note) {
    pdf.heading(2, t("pdf.receipt.note"));
    pdf.paragraph(receipt.note);
  }
  if (receipt.invoices.length > 0) {
    pdf.heading(2, t("receipt.invoices"));
    pdf.table(
      [{ header: t("pdf.col.invoice") }, { header: t("pdf.col.paid"), align: "right", width: 120 }],
      receipt.invoices.map((invoice) => [invoice.number, invoice.amount]),
    );
  }
  return pdf.finish();
}
