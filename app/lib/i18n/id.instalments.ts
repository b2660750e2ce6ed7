import type { instalmentsEnAU } from "./en-AU.instalments";

/** Bahasa Indonesia: email cicilan yang gagal dan jadwal yang menunggak. Spread into `id`. */
export const instalmentsId: Record<keyof typeof instalmentsEnAU, string> = {
  "instalmentEmail.declined.subject": "Cicilan {seq} dari {count} kepada {business} ditolak ({reference})",
  "instalmentEmail.declined.title": "Sebuah cicilan ditolak",
  "instalmentEmail.declined.lead":
    "Kami tidak dapat menagih cicilan {seq} dari {count} ({amount}) pada jadwal pembayaran Anda dengan {business}: {reason}",
  "instalmentEmail.declined.retry": "Kami akan mencoba lagi pada {day}. Tidak ada tagihan lain sebelum itu.",
  "instalmentEmail.declined.action":
    "Untuk membayarnya sekarang dengan cara lain, buka tautan di bawah: Anda dapat membayar cicilan ini dengan kartu lain.",
  "instalmentEmail.arrears.subject": "Jadwal pembayaran Anda dengan {business} menunggak ({reference})",
  "instalmentEmail.arrears.title": "Jadwal pembayaran Anda menunggak",
  "instalmentEmail.arrears.lead":
    "Cicilan {seq} dari {count} ({amount}) pada jadwal pembayaran Anda dengan {business} ditolak pada percobaan terakhir: {reason}",
  "instalmentEmail.arrears.next":
    "Cicilan ini tidak akan dicoba lagi. Silakan bayar dengan cara lain melalui tautan di bawah, atau hubungi {business}. Cicilan berikutnya tetap ditagih pada harinya.",
  "instalmentEmail.business.subject": "Jadwal pembayaran {reference} menunggak: {account}",
  "instalmentEmail.business.title": "Sebuah jadwal pembayaran menunggak",
  "instalmentEmail.business.lead":
    "Cicilan {seq} dari {count} ({amount}) pada jadwal pembayaran {reference} ditolak pada percobaan terakhir ({tries} percobaan): {reason}",
  "instalmentEmail.business.next":
    "Cicilan ini tidak akan dicoba lagi. Kontak telah dikirimi tautan untuk membayarnya dengan cara lain.",
  "instalmentEmail.paidTwice.subject": "Cicilan {seq} dari {count} pada {reference} dibayar dua kali: {account}",
  "instalmentEmail.paidTwice.title": "Sebuah cicilan dibayar dua kali",
  "instalmentEmail.paidTwice.lead":
    "Pembayaran {payment} ({amount}) untuk cicilan {seq} dari {count} pada jadwal pembayaran {reference} diselesaikan oleh bank pembayar setelah cicilan itu sudah dibayar oleh pembayaran lain.",
  "instalmentEmail.paidTwice.leadCancelled":
    "Pembayaran {payment} ({amount}) untuk cicilan {seq} dari {count} pada jadwal pembayaran {reference} diselesaikan oleh bank pembayar setelah jadwal itu dibatalkan.",
  "instalmentEmail.paidTwice.next":
    "Dana {amount} disimpan sebagai kredit pada akun {account}. Silakan kembalikan kepada pembayar atau gunakan untuk faktur lain.",
  "instalmentEmail.fact.payment": "Pembayaran",
  "instalmentEmail.button": "Bayar dengan cara lain",
  "instalmentEmail.fallback": "Jika tombol tidak berfungsi, buka tautan ini:",
  "instalmentEmail.linkNote": "Tautan ini untuk Anda: mohon jangan diteruskan. Berlaku sampai {day}.",
  "instalmentEmail.fact.instalment": "Cicilan",
  "instalmentEmail.fact.instalmentValue": "{seq} dari {count}, jatuh tempo {day}",
  "instalmentEmail.fact.amount": "Jumlah",
  "instalmentEmail.fact.schedule": "Jadwal pembayaran",
  "instalmentEmail.fact.account": "Akun",
  "instalmentEmail.fact.contact": "Kontak",
  "instalmentEmail.fact.nextTry": "Percobaan berikutnya",
  "instalmentEmail.fact.paidSoFar": "Sudah dibayar",
  "instalmentEmail.greeting": "Halo {name},",
  "instalmentEmail.greetingAnon": "Halo,",
  "instalmentEmail.questions": "Ada pertanyaan? Hubungi {business}.",
  "instalmentEmail.reason.declined": "kartu ditolak oleh banknya.",
  "instalmentEmail.reason.insufficient_funds": "dana tidak mencukupi.",
  "instalmentEmail.reason.expired_card": "kartu sudah kedaluwarsa.",
  "instalmentEmail.reason.invalid_card": "kartu tidak berlaku lagi.",
  "instalmentEmail.reason.unavailable": "layanan pembayaran tidak dapat dihubungi.",
  "instalmentEmail.reason.agreement_not_active": "perjanjian PayTo tidak aktif.",
  "instalmentEmail.reason.limit_exceeded": "jumlahnya melebihi batas perjanjian PayTo.",
  "instalmentEmail.reason.method": "cara bayar yang dipilih untuk jadwal ini tidak dapat digunakan lagi.",
  "instalmentEmail.reason.other": "pembayaran tidak berhasil.",
};
