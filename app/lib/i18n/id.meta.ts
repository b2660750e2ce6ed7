import type { metaEnAU } from "./en-AU.meta";

/** Bahasa Indonesia: deskripsi meta setiap halaman (issue 19). Spread into `id`. */
export const metaId: Record<keyof typeof metaEnAU, string> = {
  "meta.host":
    "Portal pelanggan {business}: laporan akun, tagihan, pembayaran, dan cara Anda membayar, semuanya di satu tempat.",
  "meta.notFound":
    "Halaman ini bukan bagian dari portal pelanggan {business}. Periksa alamatnya, atau mulai lagi dari beranda.",
  "meta.unavailable": "Portal pelanggan {business} sedang tidak tersedia. Silakan coba lagi dalam beberapa menit.",
  "meta.linkInvalid":
    "Tautan dari {business} ini tidak berlaku atau sudah kedaluwarsa. Mintalah tautan baru kepada {business}.",
  "meta.signin":
    "Masuk ke portal pelanggan {business} untuk melihat laporan akun, membayar tagihan, dan mengatur cara Anda membayar.",
  "meta.forgot":
    "Lupa kata sandi? Minta email berisi tautan untuk memilih kata sandi baru portal pelanggan {business}.",
  "meta.changePassword": "Ubah kata sandi yang Anda gunakan untuk masuk ke portal pelanggan {business}.",
  "meta.resetPassword": "Pilih kata sandi baru untuk portal pelanggan {business} melalui tautan di email Anda.",
  "meta.verify": "Konfirmasikan alamat email Anda untuk mulai menggunakan portal pelanggan {business}.",
  "meta.signinProblem": "Gagal masuk ke portal pelanggan {business}. Coba lagi, atau minta bantuan kepada {business}.",
  "meta.status": "Apakah portal pelanggan {business} dan basis datanya sedang berfungsi saat ini.",
  "meta.dashboard":
    "Ringkasan akun Anda di {business}: jumlah terutang, tagihan terbuka dan lewat jatuh tempo, serta langkah berikutnya.",
  "meta.accounts": "Cari dan buka akun yang dapat Anda lihat di {business}, beserta saldo setiap akun.",
  "meta.account": "Rincian akun Anda di {business}: saldo, ketentuan pembayaran, kontak, dan alamat.",
  "meta.statements":
    "Laporan akun Anda di {business}: setiap tagihan, pembayaran, dan kredit, dapat disaring menurut tanggal dan jenis.",
  "meta.invoices":
    "Tagihan dan pembayaran Anda di {business}: yang terbuka, lewat jatuh tempo, dan lunas, dengan jumlah dan tanggal jatuh tempo.",
  "meta.invoice": "Tagihan dari {business}: untuk apa, berapa yang masih terutang, dan cara membayarnya.",
  "meta.invoiceLink":
    "Tagihan yang dikirim {business} kepada Anda: untuk apa, berapa yang masih terutang, dan cara membayarnya sekarang.",
  "meta.invoiceLinkClosed":
    "Tautan tagihan dari {business} ini sudah tidak berlaku. Masuk ke portal untuk melihat tagihan Anda.",
  "meta.pay": "Bayar {business}: pilih tagihan dan jumlahnya, lalu bayar dengan kartu, rekening bank, atau PayTo.",
  "meta.paymentMethods": "Kartu, rekening bank, dan perjanjian PayTo yang Anda simpan untuk membayar {business}.",
  "meta.addCard": "Simpan kartu kredit atau debit untuk membayar {business} tanpa mengetik rinciannya setiap kali.",
  "meta.editCard": "Perbarui kartu yang Anda simpan untuk membayar {business}: nama dan tanggal kedaluwarsanya.",
  "meta.removeCard": "Hapus kartu tersimpan dari cara Anda membayar {business}.",
  "meta.addBank": "Simpan rekening bank untuk membayar {business} melalui debit langsung.",
  "meta.removeBank": "Hapus rekening bank tersimpan dari cara Anda membayar {business}.",
  "meta.paytoNew":
    "Buat perjanjian PayTo agar {business} dapat menarik pembayaran dari rekening bank Anda setelah Anda menyetujuinya di bank.",
  "meta.paytoView":
    "Perjanjian PayTo antara rekening bank Anda dan {business}: batasnya, statusnya, dan apa yang dapat Anda ubah.",
  "meta.paytoCancel":
    "Batalkan perjanjian PayTo agar {business} tidak dapat lagi menarik pembayaran dari rekening bank Anda.",
  "meta.home":
    "Apa yang diminta {business} untuk Anda bayar, pembayaran dengan jumlah pilihan Anda, dan tanda terima Anda.",
  "meta.adhoc": "Bayar {business} dengan jumlah pilihan Anda, menggunakan kartu, rekening bank, atau PayTo.",
  "meta.adhocClosed": "Tautan pembayaran dari {business} ini sudah tidak menerima pembayaran.",
  "meta.receipt": "Tanda terima pembayaran Anda kepada {business}: apa yang dibayar, kapan, dan bagaimana caranya.",
  "meta.request":
    "Permintaan pembayaran dari {business}: untuk apa, berapa sisa yang harus dibayar, dan cara membayarnya sekarang.",
  "meta.requestClosed": "Permintaan pembayaran dari {business} ini sudah ditutup dan tidak menerima pembayaran lagi.",
  "meta.requestInvoice":
    "Tagihan dalam permintaan pembayaran dari {business}: rinciannya dan berapa yang masih terutang.",
  "meta.agreements": "Perjanjian yang ditawarkan {business} kepada Anda, dan mana yang sudah Anda setujui.",
  "meta.agreement": "Baca perjanjian yang ditawarkan {business} kepada Anda, unduh, dan setujui secara daring.",
  "meta.agreementClosed": "Perjanjian dari {business} ini tidak dapat disetujui lagi di sini.",
  "meta.schedules":
    "Jadwal pembayaran Anda dengan {business}: apa yang sudah dibayar, dan apa yang jatuh tempo berikutnya serta kapan.",
  "meta.scheduleProgress":
    "Perkembangan jadwal pembayaran dengan {business}: cicilan yang sudah dibayar, jatuh tempo, dan terlewat.",
  "meta.scheduleAccept":
    "Jadwal pembayaran yang diusulkan {business}: cicilan, tanggal, dan jumlahnya, untuk Anda tinjau dan setujui.",
  "meta.scheduleClosed": "Jadwal pembayaran dengan {business} ini sudah ditutup.",
  "meta.response": "Pertanyaan dari {business} yang menunggu jawaban Anda.",
  "meta.responseComplete": "Terima kasih: jawaban Anda sudah diterima {business}.",
  "meta.responseClosed": "Pertanyaan dari {business} ini sudah ditutup dan tidak menerima jawaban lagi.",
  "meta.communication":
    "Pilih email apa saja yang dikirim {business} kepada Anda: laporan akun, tagihan, pengingat pembayaran, dan berita.",
  "meta.unsubscribe": "Hentikan atau mulai lagi satu jenis email yang dikirim {business} kepada Anda.",
  "meta.credit":
    "Ajukan akun kredit di {business} langkah demi langkah: usaha Anda, orang-orangnya, referensi, dan dokumen.",
  "meta.creditClosed": "Pengajuan akun kredit di {business} tidak dibuka di portal ini.",
  "meta.creditStep": "{step}: salah satu langkah pengajuan akun kredit Anda di {business}.",
  "meta.creditCheck": "Periksa setiap jawaban pengajuan kredit Anda kepada {business} sebelum mengirimkannya.",
  "meta.creditSubmitted":
    "Pengajuan kredit Anda sudah diterima {business}. Apa yang terjadi selanjutnya, dan kapan Anda akan dihubungi.",
  "meta.tradeReference": "Berikan referensi dagang untuk usaha yang mengajukan kredit di {business}.",
  "meta.tradeReferenceClosed":
    "Permintaan referensi dagang dari {business} ini tidak memerlukan apa pun lagi dari Anda.",
  "meta.privacy":
    "Cara {business} mengumpulkan, menggunakan, dan melindungi informasi pribadi Anda di portal pelanggannya.",
  "meta.terms": "Syarat dan ketentuan penggunaan portal pelanggan {business}.",
  "meta.adminHome": "Kelola portal {business} sebagai admin: mereknya dan siapa saja adminnya.",
  "meta.admins":
    "Pilih siapa yang boleh mengelola portal {business}: tambahkan admin dengan alamat email, atau hapus admin.",
  "meta.branding": "Kelola merek portal {business}: ubah draf, pratinjau, terbitkan, atau pulihkan versi sebelumnya.",
  "meta.brandingPagePreview":
    "Halaman portal {business} yang dibuka dari email, ditampilkan dengan draf merek sebelum diterbitkan.",
  "meta.brandingPreview": "Coba draf merek portal {business} di halaman-halamannya sebelum diterbitkan.",
  "meta.brandingShare": "Buka pratinjau bersama dari draf merek portal {business} sebelum diterbitkan.",
};
