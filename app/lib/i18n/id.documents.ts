import type { documentsEnAU } from "./en-AU.documents";

/** Bahasa Indonesia: the PDFs a clerk files (issue 34, decision 089). Spread into `id`. */
export const documentsId: Record<keyof typeof documentsEnAU, string> = {
  "pdf.download": "Unduh PDF",
  "pdf.download.hint": "A4, untuk diarsipkan atau dicetak.",
  "pdf.page": "Halaman {page} dari {pages}",
  "pdf.logoAlt": "Logo {business}",
  "pdf.billedTo": "Ditagihkan kepada",
  "pdf.howToPay": "Cara membayar",
  "pdf.payOnline": "Daring, dengan kartu: masuk di {url} lalu pilih Bayar.",
  "pdf.payId": "Dari bank Anda: bayar ke PayID {payId} ({name}) dengan {reference} di keterangan.",
  "pdf.col.reference": "Referensi",
  "pdf.col.date": "Tanggal",
  "pdf.col.status": "Status",
  "pdf.col.amount": "Jumlah",
  "pdf.subject.invoice": "Faktur {number} dari {business} untuk {account}",
};
