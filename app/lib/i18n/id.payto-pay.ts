import type { paytoPayEnAU } from "./en-AU.payto-pay";

/** Bahasa Indonesia: membayar faktur dengan PayTo, tanda terimanya dan /api/payTo/payment. Spread into `id`. */
export const paytoPayId: Record<keyof typeof paytoPayEnAU, string> = {
  "paytoPay.method": "PayTo dari {account}",
  "paytoPay.method.bban": "BSB {bsb}, rekening berakhiran {last3}",
  "paytoPay.method.pending": "PayTo dari {account}: menunggu persetujuan di aplikasi bank Anda",
  "paytoPay.method.suspended": "PayTo dari {account}: dijeda, jadi tidak dapat dipakai",
  "paytoPay.setUp": "Siapkan PayTo",
  "paytoPay.setUp.hint":
    "Bayar langsung dari rekening bank Anda: setujui perjanjian PayTo sekali di aplikasi bank Anda.",
  "paytoPay.setUp.noAccess":
    "Untuk membayar dengan PayTo, kontak yang memiliki akses portal perlu menyiapkan perjanjian PayTo untuk akun ini terlebih dahulu.",
  "paytoPay.chosen":
    "Bank Anda akan dimintai jumlah ini berdasarkan perjanjian PayTo Anda. Tidak ada biaya tambahan. Sampai bank Anda membayarnya, faktur tetap dicadangkan untuk pembayaran ini.",
  "paytoPay.error.agreement": "Pilih salah satu perjanjian PayTo Anda yang aktif, atau cara bayar lain.",
  "paytoPay.error.agreementInactive":
    "Perjanjian PayTo ini tidak aktif lagi (dijeda atau diakhiri di bank Anda). Pilih cara bayar lain.",
  "paytoPay.error.limit":
    "Pembayaran ini melebihi batas PayTo sebesar {max}. Bayar lebih sedikit sekarang, atau bayar dengan kartu.",
  "paytoPay.error.disabled": "PayTo tidak tersedia di sini. Pilih cara bayar lain.",
  "paytoPay.error.rejected":
    "Bank Anda menolak pembayaran ini: {reason}. Tidak ada yang dibayar. Pilih cara bayar lain.",
  "paytoPay.reason.insufficient_funds": "dana di rekening tidak mencukupi",
  "paytoPay.reason.agreement_not_active": "perjanjian PayTo sudah tidak aktif",
  "paytoPay.reason.limit_exceeded": "melebihi batas perjanjian",
  "paytoPay.reason.declined": "ditolak",
  "paytoPay.reason.unavailable": "layanan PayTo sedang tidak tersedia",
  "paytoPay.reason.invalid_account": "rekening bank tidak dapat dipakai",
  "paytoPay.reason.invalid_payid": "PayID tidak dapat dipakai",
  "paytoPay.receipt.method": "PayTo",
  "paytoPay.payments.pending": "Tertunda (PayTo, bank Anda sedang memprosesnya)",
  "paytoPay.receipt.pendingTitle": "Pembayaran tertunda",
  "paytoPay.receipt.pending":
    "Tertunda — bank Anda sedang memproses pembayaran PayTo ini. Nomor referensi Anda {reference}.",
  "paytoPay.receipt.autoCheck": "Halaman ini memeriksa lagi setiap beberapa detik.",
  "paytoPay.receipt.checkAgain": "Periksa lagi",
  "paytoPay.receipt.paidTitle": "Lunas",
  "paytoPay.receipt.paid":
    "Bank Anda sudah membayarnya. Nomor referensi Anda {reference}. Tanda terima dikirim lewat email.",
  "paytoPay.receipt.rejectedTitle": "Pembayaran ditolak",
  "paytoPay.receipt.rejected": "Bank Anda menolak pembayaran ini: {reason}. Faktur dapat dibayar lagi.",
  "paytoPay.receipt.payAgain": "Bayar faktur ini",
  "paytoPay.receipt.rejected.request": "Bank Anda menolak pembayaran ini: {reason}. Permintaan ini dapat dibayar lagi.",
  "paytoPay.receipt.rejected.adhoc":
    "Bank Anda menolak pembayaran ini: {reason}. Tidak ada yang dibayar, jadi Anda dapat membayar lagi.",
  "paytoPay.receipt.payAgain.request": "Bayar permintaan pembayaran {reference}",
  "paytoPay.receipt.payAgain.adhoc": "Bayar lagi",
  "paytoPay.receipt.payAgain.fromEmail": "Untuk membayar lagi, buka tautan di email Anda.",
  "paytoPay.api.signedOut": "Masuk untuk memakai panggilan ini.",
  "paytoPay.api.notFound": "Tidak ditemukan: tidak ada akun, faktur, atau perjanjian PayTo seperti itu di sini.",
  "paytoPay.api.methodNotAllowed": "Gunakan POST untuk panggilan ini.",
  "paytoPay.api.tooLarge": "Isi permintaan terlalu besar.",
  "paytoPay.api.crossOrigin": "Permintaan dari situs lain ditolak.",
  "paytoPay.api.malformed": "Isi permintaan tidak dapat dibaca: kirim satu objek JSON.",
  "paytoPay.api.invalid": "Beberapa kolom kosong atau tidak valid. Tidak ada yang dibayar.",
  "paytoPay.api.figuresDiffer":
    "Angkanya berbeda dengan angka kami (saldo berubah, atau isi permintaan diubah). Tidak ada yang dibayar.",
  "paytoPay.api.notPayable":
    "Sebuah faktur tidak dapat dibayar sekarang: sudah lunas, ditutup, ditahan, atau sedang dibayar. Tidak ada yang dibayar.",
  "paytoPay.api.conflict": "requestGuid ini sudah dipakai untuk pembayaran lain.",
  "paytoPay.api.busy": "Layanan sedang sibuk. Coba lagi nanti; tidak ada yang dibayar.",
  "paytoPay.field.required": "Wajib diisi.",
  "paytoPay.field.money": "Berikan jumlah dalam dolar dan sen, misalnya 120.50.",
  "paytoPay.field.boolean": "Berikan true atau false.",
  "paytoPay.field.uuid": "Berikan id dalam bentuk UUID.",
  "paytoPay.field.orders": "Berikan 1 sampai 50 order, tiap faktur sekali.",
  "paytoPay.field.merchantFee": "PayTo tidak memiliki biaya merchant: berikan 0.",
  "paytoPay.field.promiseDate": "Pembayaran PayTo bukan janji bayar: kosongkan promiseDate.",
  "paytoPay.field.note": "Berikan catatan paling banyak 500 karakter.",
  "paytoPay.field.differs": "Angka kami {expected}.",
  "paytoPay.field.tooLarge": "Ini melebihi yang dapat dibayar untuk faktur tersebut sekarang.",
};
