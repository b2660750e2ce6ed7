import type { communicationEnAU } from "./en-AU.communication";

/** Bahasa Indonesia: preferensi komunikasi, halaman berhenti berlangganan, menu dan baris email. Spread into `id`. */
export const communicationId: Record<keyof typeof communicationEnAU, string> = {
  "shell.communication": "Preferensi komunikasi",
  "communication.title": "Preferensi komunikasi",
  "communication.lead":
    "Pilih pesan apa saja yang dikirim {business} kepada Anda, dan caranya. Pilihan ini berlaku untuk {email}.",
  "communication.form": "Pilihan Anda",
  "communication.topic.statements": "Laporan rekening",
  "communication.topic.statements.hint": "Laporan rekening Anda, biasanya sebulan sekali.",
  "communication.topic.invoices": "Faktur",
  "communication.topic.invoices.hint": "Salinan setiap faktur baru.",
  "communication.topic.reminders": "Pengingat pembayaran",
  "communication.topic.reminders.hint":
    "Pengingat saat pembayaran yang diminta {business} akan jatuh tempo atau sudah lewat jatuh tempo.",
  "communication.topic.marketing": "Berita dan penawaran",
  "communication.topic.marketing.hint":
    "Sesekali berita dan penawaran dari {business}, hanya jika Anda mencentang kotaknya. Anda dapat menghentikannya kapan saja.",
  "communication.channel.email": "Lewat email",
  "communication.channel.post": "Lewat pos",
  "communication.postNote":
    "Laporan rekening dan faktur lewat pos dikirim ke alamat rekening Anda yang tercatat di {business}.",
  "communication.always.title": "Tanda terima: selalu dikirim",
  "communication.always.text":
    "Tanda terima, permintaan pembayaran, jadwal pembayaran, perjanjian, pertanyaan dari {business} yang perlu Anda jawab (misalnya konfirmasi alamat pengiriman), dan email tentang login Anda selalu dikirim lewat email. Masing-masing adalah catatan pembayaran atau hal yang diminta dari Anda, jadi tidak dapat dimatikan.",
  "communication.save": "Simpan preferensi",
  "communication.saved": "Preferensi Anda telah disimpan.",
  "communication.unchanged": "Tidak ada yang berubah: ini memang sudah preferensi Anda.",
  "communication.error.summary": "Ada masalah",
  "communication.error.signInToOptIn":
    "Tautan dalam email tidak dapat mengaktifkan {topic}, jadi tidak ada yang diubah. Masuk untuk memilihnya.",
  "communication.optIn.text":
    "Anda tidak menerima {topic}. Tautan dalam email hanya dapat mematikannya: untuk menerimanya, masuk lalu centang kotaknya.",
  "communication.optIn.link": "Masuk untuk memilih {topic}",
  "communication.error.unknown":
    "Formulir berisi pilihan yang tidak ada di halaman ini, jadi tidak ada yang diubah. Centang kotak di bawah dan simpan lagi.",
  "communication.history.title": "Perubahan terakhir",
  "communication.history.none": "Belum ada perubahan: ini pengaturan biasanya.",
  "communication.history.item": "{topic}, {channel}: {state}",
  "communication.history.on": "aktif",
  "communication.history.off": "nonaktif",
  "communication.history.when": "{when} · {how}",
  "communication.via.portal": "diubah di sini, saat masuk",
  "communication.via.link": "diubah dari tautan di email",
  "communication.via.one-click": "berhenti berlangganan dengan satu klik dari email",
  "communication.via.api": "dicatat oleh {business}",
  "communication.signedOut.text":
    "Untuk memilih pesan yang dikirim {business} kepada Anda, masuklah, atau buka tautan di bagian bawah email mana pun dari {business}.",
  "communication.signedOut.signIn": "Masuk",
  "communication.unverified.text":
    "Konfirmasi alamat email Anda terlebih dahulu: setelah itu Anda dapat memilih pesan yang dikirim {business} ke alamat tersebut.",
  "communication.unverified.action": "Konfirmasi alamat email Anda",
  "communication.invalid.title": "Tautan ini tidak valid",
  "communication.invalid.text":
    "Tidak ada yang diubah. Tautan mungkin tidak lengkap, atau berasal dari email yang berumur lebih dari setahun. Masuklah untuk memilih pesan yang dikirim {business} kepada Anda, atau gunakan tautan di bagian bawah email yang lebih baru.",
  "communication.about.statements": "laporan rekening lewat email",
  "communication.about.invoices": "faktur lewat email",
  "communication.about.reminders": "pengingat pembayaran",
  "communication.about.marketing": "berita dan penawaran",
  "communication.unsubscribe.title": "Berhenti berlangganan {topic}?",
  "communication.unsubscribe.lead": "{email} tidak akan lagi menerima {topic} dari {business}.",
  "communication.unsubscribe.still": "Tanda terima dan pesan lain tentang pembayaran Anda tetap dikirim.",
  "communication.unsubscribe.button": "Berhenti berlangganan",
  "communication.unsubscribe.all": "Pilih semua preferensi komunikasi Anda",
  "communication.unsubscribed.title": "Anda telah berhenti berlangganan {topic}",
  "communication.unsubscribed.lead": "{email} tidak lagi menerima {topic} dari {business}.",
  "communication.unsubscribed.again": "Berubah pikiran?",
  "communication.resubscribe.button": "Berlangganan lagi",
  "communication.resubscribed": "Selesai: Anda akan menerima {topic} lagi.",
  "communication.mail.manage": "Pilih email yang Anda terima dari {business}: {link}",
};
