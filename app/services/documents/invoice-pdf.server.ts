import type { MessageKey } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import type { LanguageCode } from "~/lib/i18n/languages";
import { invoiceStatusKey } from "~/lib/invoice-query";
import type { invoiceFacts } from "../payments/invoice-view.server";
import { pdfMeta } from "./pdf-meta.server";
import { TaggedPdf, type PdfBrand } from "./pdf.server";

/** An invoice's facts as its page words them (`invoiceFacts`: dates and money formatted). */
type InvoiceFacts = ReturnType<typeof invoiceFacts>;

/** What the invoice PDF shows: the invoice page's own facts, worded and formatted as the page has them. */
export type InvoicePdfInput = {
  brand: PdfBrand;
  /** The page's language: the PDF is in the words of the page it was asked from. */
  language: LanguageCode;
  account: { name: string; number: string; address?: string | null };
  invoice: InvoiceFacts & {
    /** Owing and payable: the PDF says how to pay. */
    payable: boolean;
    /** The payments on it, or null where the page it comes from lists none (an emailed link's). */
    payments: { reference: string; date: string; amount: string; promised: boolean }[] | null;
  };
  /** The account's PayID while there is something to pay (null: none offered). */
  payId: { payId: string; name: string } | null;
  /** Where the payer signs in to pay (the host's own address), or null on a page with no sign-in. */
  payUrl: string | null;
};

/**
 * An invoice as a clerk files it (issue 34): who it is from and to, its facts (the page's, in the
 * same words), the payments on it, and how to pay it while it is owing. The data has no invoice
 * lines (DATA-MODEL: an invoice is one amount with a description), so the description is the line.
 */
export function invoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, account, brand } = input;
  const t = translator(input.language);
  const title = t("invoice.title", { number: invoice.number });
  const pdf = new TaggedPdf(
    pdfMeta(
      input.language,
      brand.businessName,
      title,
      t("pdf.subject.invoice", {
        number: invoice.number,
        business: brand.businessName,
        account: account.name,
      }),
    ),
    brand,
  );
  pdf.heading(1, title);
  const billedTo = [`${account.name} (${account.number})`, account.address].filter(Boolean).join("\n");
  const facts: [string, string, boolean?][] = [
    [t("pdf.billedTo"), billedTo],
    [t("invoice.description"), invoice.description],
    [t("invoice.status"), t(invoiceStatusKey(invoice.status))],
    [t("invoice.issued"), invoice.issueDate],
    [t("invoice.due"), invoice.dueDate],
    [t("invoice.amount"), invoice.amount],
    [t("invoice.balance"), invoice.balance, true],
  ];
  if (invoice.daysOverdue > 0) facts.push([t("invoice.overdue"), t("inv.days", { days: invoice.daysOverdue })]);
  if (invoice.promiseDate) facts.push([t("invoice.promiseDate"), invoice.promiseDate]);
  if (invoice.disputeReason) facts.push([t("invoice.dispute"), invoice.disputeReason]);
  pdf.facts(facts);

  if (invoice.payments === null) {
    // The page this comes from lists no payments.
  } else if (invoice.payments.length === 0) {
    pdf.heading(2, t("invoice.payments"));
    pdf.paragraph(t("invoice.payments.none"));
  } else {
    pdf.heading(2, t("invoice.payments"));
    pdf.table(
      [
        { header: t("pdf.col.reference") },
        { header: t("pdf.col.date"), width: 110 },
        { header: t("pdf.col.status"), width: 90 },
        { header: t("pdf.col.amount"), align: "right", width: 100 },
      ],
      invoice.payments.map((payment) => [
        payment.reference,
        payment.date,
        t((payment.promised ? "inv.payment.promised" : "inv.payment.paid") satisfies MessageKey),
        payment.amount,
      ]),
    );
  }

  if (invoice.payable && (input.payUrl || input.payId)) {
    pdf.heading(2, t("pdf.howToPay"));
    if (input.payUrl) pdf.paragraph(t("pdf.payOnline", { url: input.payUrl }));
    if (input.payId)
      pdf.paragraph(t("pdf.payId", { payId: input.payId.payId, name: input.payId.name, reference: invoice.number }));
  }
  return pdf.finish();
}
