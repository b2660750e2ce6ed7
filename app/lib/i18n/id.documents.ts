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
  "pdf.col.details": "Rincian",
  "pdf.col.charges": "Tagihan",
  "pdf.col.credits": "Kredit",
  "pdf.col.balance": "Saldo",
  "pdf.subject.statement": "Laporan rekening {account} dari {business}, {from} sampai {to}",
  "pdf.statement.title": "Laporan rekening",
  "pdf.statement.account": "Rekening",
  "pdf.statement.period": "Periode",
  "pdf.statement.periodValue": "{from} sampai {to}",
  "pdf.statement.opening": "Saldo awal, {date}",
  "pdf.statement.charges": "Tagihan dalam periode",
  "pdf.statement.credits": "Kredit dalam periode",
  "pdf.statement.closing": "Saldo akhir, {date}",
  "pdf.statement.lines": "Baris",
  "pdf.statement.openingRow": "Saldo awal",
  "pdf.statement.closingRow": "Saldo akhir",
  "pdf.statement.none": "Tidak ada baris dalam periode ini.",
  "pdf.statement.download": "Unduh laporan rekening (PDF)",
  "pdf.statement.download.hint":
    "Semua baris dari {from} sampai {to}, dengan saldo awal dan akhir serta saldo menurut umur. A4, untuk diarsipkan atau dicetak.",
  "pdf.statement.badDate":
    "Tanggal laporan harus tanggal yang nyata, ditulis YYYY-MM-DD. Kembali ke laporan dan pilih tanggalnya lagi.",
  "pdf.statement.tooLong": "PDF laporan mencakup paling lama lima tahun. Pilih tanggal yang lebih berdekatan.",
  "pdf.statement.tooMany":
    "Periode ini memiliki lebih dari {max} baris, terlalu banyak untuk satu PDF. Pilih periode yang lebih pendek.",
  "pdf.subject.invoice": "Faktur {number} dari {business} untuk {account}",
};
