import { DEFAULT_LANGUAGE } from "~/lib/i18n/languages";
import { datesIn } from "~/lib/format";
import { findBusinessBranding } from "../host/host.server";
import { findPaymentById } from "../payments/invoices.server";
import { receiptView } from "../payments/receipt-page.server";
import { getDb } from "../platform/database.server";
import { registerAttachmentMaker, type AttachmentMaker } from "../platform/mail-outbox.server";
import { pdfBrand } from "./pdf-brand.server";
import { receiptFileName, receiptHasPdf, receiptPdf } from "./receipt-pdf.server";

/** The kind the receipt email asks for (payments/receipts.server.ts), made here. */
export const RECEIPT_PDF = "receipt-pdf";

/**
 * The receipt email's attachment (issue 34): the receipt's PDF, made when the email is sent from the
 * payment as stored, in the emails' language, the same file the receipt page's "Download PDF" gives.
 * Nothing to make for a payment that is no longer a receipt's.
 */
export const makeReceiptPdf: AttachmentMaker = async (businessId, spec) => {
  const branding = await findBusinessBranding(await getDb(), businessId);
  const payment = spec.paymentId ? await findPaymentById(businessId, spec.paymentId) : null;
  if (!branding || !payment) return null;
  const data = await receiptView(branding, payment, {
    dates: datesIn({ timeZone: branding.timeZone, language: DEFAULT_LANGUAGE }),
    viaLink: true,
    remembered: null,
  });
  if (!receiptHasPdf(data)) return null;
  return {
    filename: receiptFileName(branding.businessName, data.receipt.reference),
    contentType: "application/pdf",
    content: await receiptPdf({ brand: await pdfBrand(branding), language: DEFAULT_LANGUAGE, data }),
  };
};

/** Registered when this module loads: jobs/background.server.ts loads it in every portal process. */
export function registerReceiptPdfMaker() {
  registerAttachmentMaker(RECEIPT_PDF, makeReceiptPdf);
}
registerReceiptPdfMaker();
