/** English (AU): the PDFs a clerk files (issue 34, decision 089). Spread into `enAU`. */
export const documentsEnAU = {
  "pdf.download": "Download PDF",
  "pdf.download.hint": "A4, to file or to print.",
  "pdf.page": "Page {page} of {pages}",
  "pdf.logoAlt": "{business} logo",
  "pdf.billedTo": "Billed to",
  "pdf.howToPay": "How to pay",
  "pdf.payOnline": "Online, by card: sign in at {url} and choose Pay.",
  "pdf.payId": "From your bank: pay the PayID {payId} ({name}) with {reference} in the description.",
  "pdf.col.reference": "Reference",
  "pdf.col.date": "Date",
  "pdf.col.status": "Status",
  "pdf.col.amount": "Amount",
  "pdf.subject.invoice": "Invoice {number} from {business} to {account}",
} as const;
