import type { paytoPayIdEnAU } from "./en-AU.payto-payid";

/** Bahasa Indonesia: the account's own PayID to pay into (issue 13). Spread into `id`. */
export const paytoPayIdId: Record<keyof typeof paytoPayIdEnAU, string> = {
  "payid.title": "Bayar dari bank Anda dengan PayID",
  "payid.name": "Bank Anda akan menampilkan nama: {name}",
  "payid.how":
    "Di aplikasi bank Anda, pilih Bayar seseorang → PayID, masukkan ini, dan tulis nomor faktur di keterangan.",
  "payid.how.invoice":
    "Di aplikasi bank Anda, pilih Bayar seseorang → PayID, masukkan ini, dan tulis {number} di keterangan.",
  "payid.copy": "Salin PayID",
  "payid.copied": "Disalin",
  "payid.copyRefused": "Peramban Anda tidak mengizinkan penyalinan. Pilih PayID di atas dan salin sendiri.",
  "payid.unavailable":
    "Pembayaran dengan PayID sedang tidak tersedia. Silakan coba lagi nanti, atau bayar dengan kartu.",
};
