import type { schedulesEnAU } from "./en-AU.schedules";

/** Bahasa Indonesia: halaman jadwal pembayaran (cicilan). Spread into `id`. */
export const schedulesId: Record<keyof typeof schedulesEnAU, string> = {
  "switcher.schedules": "Jadwal pembayaran",

  "home.paymentSchedules": "Jadwal pembayaran",
  "home.paymentSchedules.none":
    "Belum ada jadwal pembayaran. Jadwal yang diusulkan {business} kepada Anda akan tercantum di sini.",
  "home.paymentSchedules.all": "Semua jadwal pembayaran",
  "home.paymentSchedules.table": "Jadwal pembayaran Anda",

  "schedules.list.title": "Jadwal pembayaran",
  "schedules.list.intro":
    "Jumlah yang Anda bayar kepada {business} secara cicilan: apa yang sudah dibayar, sisanya, dan cicilan berikutnya.",
  "schedules.list.none": "Belum ada jadwal pembayaran di sini.",
  "schedules.list.table": "Jadwal pembayaran",
  "schedules.list.left": "{remaining} dari {total}",
  "schedules.list.older": "Jadwal yang lebih lama",
  "schedules.list.newest": "Jadwal terbaru",
  "schedules.list.pages": "Halaman jadwal",

  "schedules.state.proposed": "Menunggu persetujuan Anda",
  "schedules.state.active": "Aktif",
  "schedules.state.arrears": "Menunggak",
  "schedules.state.completed": "Selesai",
  "schedules.state.withdrawn": "Ditarik kembali",
  "schedules.state.cancelled": "Dibatalkan",
  "schedules.state.expired": "Kedaluwarsa",

  "schedules.view.paid": "Lunas",
  "schedules.view.processing": "Sedang diproses",
  "schedules.view.failed": "Gagal",
  "schedules.view.retrying": "Ditolak: akan dicoba lagi",
  "schedules.view.due": "Jatuh tempo",
  "schedules.view.upcoming": "Akan datang",
  "schedules.view.cancelled": "Dibatalkan",
  "schedules.view.nextTry": "pada {date}",

  "schedules.reference": "Referensi",
  "schedules.description": "Untuk",
  "schedules.account": "Rekening",
  "schedules.total": "Total",
  "schedules.invoices": "Faktur yang dibayar",
  "schedules.invoice": "{number}: {amount}",
  "schedules.instalments": "Cicilan",
  "schedules.instalment": "{seq} dari {count}",
  "schedules.col.instalment": "Cicilan",
  "schedules.col.due": "Jatuh tempo",
  "schedules.col.amount": "Jumlah",
  "schedules.col.state": "Status",
  "schedules.col.left": "Sisa yang harus dibayar",
  "schedules.col.next": "Cicilan berikutnya",
  "schedules.receipt": "Tanda terima",
  "schedules.receipt.open": "Lihat tanda terimanya.",

  "schedules.accept.title": "Jadwal pembayaran {reference}",
  "schedules.lead": "{business} mengusulkan agar Anda membayar",
  "schedules.lead.one": "pada {date}.",
  "schedules.lead.many": "dalam {count} cicilan, yang pertama sebesar {amount} pada {date}.",
  "schedules.accept.signIn": "Masuk untuk menyetujui",
  "schedules.accept.signInHint":
    "Anda memilih kartu tersimpan atau perjanjian PayTo setelah masuk: tautan ini saja tidak dapat menggunakannya.",
  "schedules.accept.by": "Setujui paling lambat {date}.",
  "schedules.accept.jump": "Pilih cara membayar dan setujui",
  "schedules.accept.formTitle": "Setujui jadwal",
  "schedules.accept.submit": "Setujui jadwal pembayaran",

  "schedules.fees.title": "Biaya",
  "schedules.fees.intro":
    "Pembayaran dengan kartu dikenai biaya tambahan kartu pada setiap cicilan; PayTo tidak. Tidak ada denda keterlambatan atau diskon pembayaran awal pada jadwal.",
  "schedules.fees.way": "Cara membayar",
  "schedules.fees.rate": "Biaya tambahan",
  "schedules.fees.first": "Pada cicilan pertama",
  "schedules.fees.total": "Seluruhnya",
  "schedules.fees.none": "Tanpa biaya",
  "schedules.fees.cards": "Kartu",
  "schedules.fees.otherCards": "Kartu lainnya",
  "schedules.fees.payTo": "Perjanjian PayTo",

  "schedules.retry.title": "Jika pembayaran ditolak",
  "schedules.retry.text":
    "Cicilan yang ditolak akan dicoba lagi {steps}. Anda menerima email setiap kali, dengan tautan untuk membayarnya dengan cara lain. Jika percobaan terakhir juga ditolak, jadwal menunggak dan {business} akan menghubungi Anda.",
  "schedules.retry.first": "{days} hari kemudian",
  "schedules.retry.next": "lalu {days} hari setelahnya",

  "schedules.authority.title": "Kuasa Anda",
  "schedules.authority.text":
    "Saya memberi kuasa kepada {business} untuk menagih {count} cicilan jadwal pembayaran {reference} ({total} seluruhnya, dari {first} sampai {last}), masing-masing pada harinya, ke kartu atau perjanjian PayTo yang saya pilih di sini, atau yang saya pilih kemudian untuk cicilan yang tersisa, dengan biaya tambahan kartu yang tertera di atas bila berupa kartu. Jika suatu cicilan ditolak, {business} boleh mencobanya lagi {retries}.",
  "schedules.authority.one":
    "Saya memberi kuasa kepada {business} untuk menagih jadwal pembayaran {reference} ({total}, pada {first}) ke kartu atau perjanjian PayTo yang saya pilih di sini, atau yang saya pilih kemudian, dengan biaya tambahan kartu yang tertera di atas bila berupa kartu. Jika ditolak, {business} boleh mencobanya lagi {retries}.",
  "schedules.authority.agree": "Saya memberikan kuasa ini dan menyetujui jadwal pembayaran",

  "schedules.way.legend": "Bayar cicilan dengan",
  "schedules.way.card": "{card}, berlaku sampai {expiry} (biaya tambahan {surcharge} seluruhnya)",
  "schedules.way.payto": "PayTo dari {account} (tanpa biaya)",
  "schedules.way.none": "Rekening ini belum memiliki kartu tersimpan atau perjanjian PayTo yang aktif.",
  "schedules.way.addCard": "Tambahkan kartu",
  "schedules.way.back": "Kembali ke jadwal pembayaran",
  "schedules.way.setUpPayTo": "Buat perjanjian PayTo",
  "schedules.way.noAccess":
    "Untuk menambahkan kartu atau perjanjian PayTo, mintalah bantuan orang yang memiliki akses portal penuh untuk rekening ini, atau hubungi {business}.",
  "schedules.way.title": "Cara membayar",
  "schedules.way.currentCard": "Cicilan ditagihkan ke {card}.",
  "schedules.way.currentPayTo": "Cicilan dibayar melalui PayTo dari {account}.",
  "schedules.way.noneChosen": "Belum ada cara membayar yang dipilih.",
  "schedules.way.notActive": "Saat ini tidak aktif: pilih cara membayar lain.",
  "schedules.way.change": "Ubah cara membayar",
  "schedules.way.changeLegend": "Bayar cicilan berikutnya dengan",
  "schedules.way.changeSubmit": "Gunakan cara membayar ini",

  "schedules.refusal.notFound": "Jadwal pembayaran ini tidak ditemukan. Tidak ada yang diubah.",
  "schedules.refusal.accepted": "Jadwal pembayaran ini sudah disetujui. Tidak ada yang diubah.",
  "schedules.refusal.withdrawn": "{business} telah menarik kembali usulan ini. Tidak ada yang diubah.",
  "schedules.refusal.expired": "Usulan ini sudah kedaluwarsa. Tidak ada yang diubah.",
  "schedules.refusal.cancelled": "Jadwal pembayaran ini telah dibatalkan. Tidak ada yang diubah.",
  "schedules.refusal.completed": "Jadwal pembayaran ini sudah selesai. Tidak ada yang diubah.",
  "schedules.refusal.notActive": "Cara membayar hanya dapat diubah selama jadwal masih aktif. Tidak ada yang diubah.",
  "schedules.refusal.method":
    "Pilih salah satu kartu tersimpan atau perjanjian PayTo aktif milik rekening ini. Tidak ada yang diubah.",
  "schedules.refusal.cardExpired": "Kartu itu sudah kedaluwarsa: pilih yang lain. Tidak ada yang diubah.",
  "schedules.refusal.agreementInactive": "Perjanjian PayTo itu tidak aktif: pilih yang lain. Tidak ada yang diubah.",
  "schedules.refusal.payToOff": "PayTo tidak tersedia di sini: pilih kartu. Tidak ada yang diubah.",
  "schedules.refusal.payToLimit":
    "Ada cicilan yang melebihi batas satu pembayaran pada perjanjian PayTo itu: pilih cara lain. Tidak ada yang diubah.",
  "schedules.refusal.authority": "Centang kotak untuk memberikan kuasa Anda. Tidak ada yang diubah.",

  "schedules.error.method": "Pilih kartu tersimpan atau perjanjian PayTo aktif milik rekening ini.",
  "schedules.error.cardExpired": "Kartu ini sudah kedaluwarsa.",
  "schedules.error.agreementInactive": "Perjanjian PayTo ini tidak aktif.",
  "schedules.error.payToOff": "PayTo tidak tersedia di sini.",
  "schedules.error.payToLimit": "Ada cicilan yang melebihi batas satu pembayaran pada perjanjian ini.",
  "schedules.error.authority": "Centang kotak untuk memberikan kuasa Anda.",

  "schedules.closed.refused": "Tidak ada yang diubah.",
  "schedules.closed.progress": "Lihat perkembangan jadwal",
  "schedules.closed.accepted.title": "Jadwal pembayaran ini sudah disetujui",
  "schedules.closed.accepted.text":
    "Jadwal pembayaran {reference} disetujui pada {date}. Masuk untuk melihat perkembangannya, mengubah cara membayar, atau membayar cicilan lebih awal.",
  "schedules.closed.withdrawn.title": "Usulan ini telah ditarik kembali",
  "schedules.closed.withdrawn.text":
    "{business} telah menarik kembali jadwal pembayaran {reference}. Tidak ada yang akan ditagih.",
  "schedules.closed.expired.title": "Usulan ini sudah kedaluwarsa",
  "schedules.closed.expired.text":
    "Jadwal pembayaran {reference} tidak dapat disetujui lagi. Mintalah jadwal baru kepada {business} jika Anda masih ingin membayar secara cicilan.",
  "schedules.closed.cancelled.title": "Jadwal pembayaran ini telah dibatalkan",
  "schedules.closed.cancelled.text":
    "{business} telah membatalkan jadwal pembayaran {reference}. Tidak ada lagi yang akan ditagih.",
  "schedules.closed.completed.title": "Jadwal pembayaran ini sudah selesai",
  "schedules.closed.completed.text": "Semua cicilan jadwal pembayaran {reference} sudah dibayar.",
  "schedules.closed.replaced.title": "Tautan ini telah diganti dengan yang lebih baru",
  "schedules.closed.replaced.text":
    "{business} telah mengirim email yang lebih baru tentang jadwal pembayaran {reference}: gunakan tautan di email itu.",
  "schedules.closed.linkWithdrawn.title": "Tautan ini telah ditarik",
  "schedules.closed.linkWithdrawn.text":
    "Tautan ke jadwal pembayaran {reference} ini tidak berlaku lagi. Hubungi {business} jika Anda memerlukannya.",

  "schedules.progress.title": "Jadwal pembayaran {reference}",
  "schedules.progress.lead": "Sudah dibayar {paid} dari {total}.",
  "schedules.progress.left": "Sisa {remaining}",
  "schedules.notice.accepted": "Terima kasih: jadwal pembayaran disetujui. Setiap cicilan ditagih pada harinya.",
  "schedules.notice.changed": "Selesai: cicilan berikutnya akan dibayar dengan cara yang baru.",
  "schedules.notice.paid": "Terima kasih: cicilan sudah dibayar.",
  "schedules.notice.submitted": "Bank Anda sudah menerima pembayaran PayTo: cicilan lunas setelah dana masuk.",
  "schedules.pay.next": "Bayar cicilan berikutnya sekarang: {total}",
  "schedules.pay.failed": "Bayar cicilan {seq} sekarang: {total}",
  "schedules.pay.anotherWay": "Bayar cicilan {seq} dengan cara lain",
  "schedules.pay.anotherWay.lead":
    "Cicilan {seq} sebesar {amount} ditolak. Bayar sekarang dengan kartu lain (kartu tidak disimpan); cara membayar jadwal tetap seperti semula.",
  "schedules.pay.subtotal": "Cicilan",
  "schedules.pay.signIn": "Masuk untuk mengubah cara membayar atau memakai kartu tersimpan",
  "schedules.pay.error.closed":
    "Tautan ini tidak dapat lagi menerima pembayaran untuk jadwal ini. Tidak ada yang ditagih.",
  "schedules.pay.notPayable.paid": "Cicilan ini sudah dibayar. Tidak ada tagihan tambahan.",
  "schedules.pay.notPayable.processing": "Pembayaran cicilan ini sedang diproses. Tidak ada tagihan tambahan.",
  "schedules.pay.notPayable.cancelled": "Cicilan ini telah dibatalkan. Tidak ada yang ditagih.",
  "schedules.pay.notPayable.scheduleClosed":
    "Jadwal pembayaran ini tidak lagi menerima pembayaran. Tidak ada yang ditagih.",
  "schedules.pay.notPayable.notDue": "Cicilan ini belum jatuh tempo. Tidak ada yang ditagih.",
  "schedules.pay.notPayable.failed":
    "Percobaan untuk cicilan ini sudah habis: bayar dari halamannya. Tidak ada yang ditagih.",
  "schedules.notice.pending":
    "Pembayaran sedang dikonfirmasi dengan bank kartu: tanda terima menunjukkan bila sudah selesai.",
  "schedules.pay.error.changed":
    "Cicilan yang harus dibayar bukan lagi cicilan untuk formulir ini. Periksa jumlah di bawah dan bayar lagi. Tidak ada yang ditagih.",
  "schedules.pay.error.invalid": "Pembayaran tidak dapat dilakukan. Tidak ada yang ditagih.",
};
