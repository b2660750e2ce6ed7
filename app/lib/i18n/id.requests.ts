import type { requestsEnAU } from "./en-AU.requests";

/** Bahasa Indonesia: permintaan pembayaran dan pembayaran ad-hoc. Spread into `id`. */
export const requestsId: Record<keyof typeof requestsEnAU, string> = {
  "request.error.closed":
    "Permintaan ini tidak dapat dibayar lagi: sudah dibayar, kedaluwarsa, atau dibatalkan. Tidak ada yang ditagih.",
  "request.error.fullPaymentRequired": "Permintaan ini harus dibayar penuh ({remaining}). Tidak ada yang ditagih.",
  "request.error.belowMinimum":
    "Bayar paling sedikit {min}, atau seluruh sisa tagihan ({remaining}). Tidak ada yang ditagih.",
  "request.error.aboveRemaining":
    "Bayar tidak lebih dari {remaining} yang masih terutang pada permintaan ini. Tidak ada yang ditagih.",
  "adhoc.error.disabled": "{business} tidak menerima pembayaran jumlah bebas di sini. Tidak ada yang ditagih.",
  "adhoc.error.belowMinimum": "Bayar paling sedikit {min}. Tidak ada yang ditagih.",
  "adhoc.error.aboveMaximum": "Bayar paling banyak {max}. Tidak ada yang ditagih.",
};
