import type { requestPagesEnAU } from "./en-AU.request-pages";

/** Bahasa Indonesia: halaman permintaan pembayaran dari tautan email dan tautan faktur. Spread into `id`. */
export const requestPagesId: Record<keyof typeof requestPagesEnAU, string> = {
  "link.invalid.title": "Tautan ini tidak berlaku",
  "link.invalid.text":
    "Periksa bahwa Anda membuka seluruh tautan dari email Anda. Jika masih tidak berhasil, minta {business} mengirim tautan baru.",
  "requestPage.title": "Permintaan pembayaran {reference}",
  "requestPage.lead": "Terutang sekarang",
  "requestPage.details": "Tentang permintaan ini",
  "requestPage.reference": "Referensi",
  "requestPage.description": "Untuk",
  "requestPage.owing": "Terutang sekarang",
  "requestPage.due": "Jatuh tempo",
  "requestPage.expires": "Dapat dibayar sampai",
  "requestPage.amount": "Jumlah yang dibayar",
  "requestPage.amount.hintMin": "Bayar seluruh sisa tagihan ({remaining}), atau sebagian: paling sedikit {min}.",
  "requestPage.amount.hintAny": "Bayar seluruh sisa tagihan ({remaining}), atau sebagian berapa pun.",
  "requestPage.amount.full": "Permintaan ini harus dibayar penuh: {remaining}.",
  "requestPage.subtotal": "Permintaan",
  "requestPage.invoices": "Faktur dalam permintaan ini",
  "requestPage.invoice": "Faktur",
  "requestPage.invoice.due": "Jatuh tempo",
  "requestPage.invoice.asked": "Diminta",
  "requestPage.invoice.balance": "Saldo sekarang",
  "requestPage.invoice.view": "Lihat atau cetak {number}",
  "requestPage.signIn": "Masuk untuk memakai kartu tersimpan atau perjanjian PayTo",
  "requestPage.backToRequest": "Kembali ke permintaan pembayaran {reference}",
  "requestPage.error.amount.aboveRemaining": "Masukkan tidak lebih dari sisa tagihan.",
  "requestPage.error.amount.belowMinimum":
    "Masukkan paling sedikit pembayaran sebagian terkecil, atau seluruh sisa tagihan.",
  "requestPage.error.amount.fullPaymentRequired": "Bayar seluruh sisa tagihan.",
  "requestPage.error.amount.requestClosed": "Tidak ada lagi yang dapat dibayar pada permintaan ini.",
  "requestPage.closed.paid.title": "Permintaan ini sudah dibayar",
  "requestPage.closed.paid.text": "Tidak ada lagi yang terutang pada permintaan pembayaran {reference}. Terima kasih.",
  "requestPage.closed.expired.title": "Permintaan ini sudah kedaluwarsa",
  "requestPage.closed.expired.text": "Permintaan pembayaran {reference} tidak dapat dibayar lagi dari tautan ini.",
  "requestPage.closed.cancelled.title": "Permintaan ini dibatalkan",
  "requestPage.closed.cancelled.text":
    "{business} membatalkan permintaan pembayaran {reference}: permintaan ini tidak dapat dibayar.",
  "requestPage.closed.replaced.title": "Ada tautan yang lebih baru untuk permintaan ini",
  "requestPage.closed.replaced.text":
    "{business} mengirim ulang permintaan pembayaran {reference} dengan tautan baru. Gunakan tautan di email terbaru.",
  "requestPage.closed.withdrawn.title": "Tautan ini tidak berlaku lagi",
  "requestPage.closed.withdrawn.text":
    "{business} telah menarik tautan ke permintaan pembayaran {reference} ini. Jika Anda perlu membayarnya, hubungi mereka.",
  "requestPage.closed.processing.title": "Pembayaran sedang diproses",
  "requestPage.closed.processing.text":
    "Pembayaran yang sudah dilakukan menutupi sisa tagihan permintaan pembayaran {reference}, dan sedang diproses. Jika salah satunya tidak berhasil, permintaan ini dapat dibayar lagi.",
  "requestPage.closed.onHold.title": "Permintaan ini tidak dapat dibayar secara online",
  "requestPage.closed.onHold.text":
    "Sisa tagihan permintaan pembayaran {reference} ada pada faktur yang saat ini tidak dapat dibayar secara online. Hubungi {business} untuk membayarnya.",
  "requestPage.contact": "Ada pertanyaan? Hubungi {business}.",
  "requestPage.contact.email": "Email",
  "requestPage.contact.phone": "Telepon",
  "invoiceLink.pay": "Bayar faktur ini",
  "invoiceLink.amount": "Jumlah yang dibayar",
  "invoiceLink.amount.hint": "Bayar seluruh saldo ({balance}) atau sebagian.",
  "invoiceLink.closed.title": "Tidak ada yang perlu dibayar pada faktur ini",
  "invoiceLink.closed.paid": "Faktur {number} sudah dibayar. Terima kasih.",
  "invoiceLink.closed.other":
    "Faktur {number} tidak dapat dibayar dari tautan ini. Hubungi {business} tentang faktur ini.",
  "invoiceLink.expired.title": "Tautan ini sudah kedaluwarsa",
  "invoiceLink.expired.text":
    "Tautan ke faktur {number} ini tidak dapat dipakai lagi. Minta tautan baru kepada {business}.",
  "invoiceLink.withdrawn.title": "Tautan ini tidak berlaku lagi",
  "invoiceLink.withdrawn.text":
    "{business} telah mengganti atau menarik tautan ke faktur {number} ini. Gunakan tautan di email terbaru mereka, atau minta tautan baru.",
  "receipt.for": "Dibayar untuk",
  "receipt.forRequest": "Permintaan pembayaran {reference}",
  "receipt.subtotal.adhoc": "Pembayaran ke rekening",
  "receipt.credited": "Dikreditkan ke rekening Anda",
  "receipt.payerReference": "Referensi Anda",
  "receipt.fromEmail": "Terima kasih. Nomor referensi Anda {reference}.",
  "receipt.owing.request": "Masih terutang untuk {reference}",
  "receipt.owing.invoices": "Masih terutang untuk faktur ini",
  "receipt.payRest": "Bayar sisanya ({amount})",
  "receipt.payRest.fromEmail":
    "Untuk membayar sisanya, buka lagi tautan di email yang Anda pakai untuk membayar. Jika tautan itu tidak berfungsi lagi, minta tautan baru kepada {business}.",
};
