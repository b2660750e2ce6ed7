import type { adminsEnAU } from "./en-AU.admins";

/** Bahasa Indonesia: beranda admin, halaman daftar admin, dan menu Admin (issue 32). Spread into `id`. */
export const adminsId: Record<keyof typeof adminsEnAU, string> = {
  "shell.admin.menu": "Admin",
  "shell.admin.home": "Beranda admin",
  "shell.admin.branding": "Merek",
  "shell.admin.admins": "Daftar admin",
  "adminHome.title": "Admin",
  "adminHome.intro": "Sebagai admin {business}, Anda dapat melakukan hal-hal berikut.",
  "adminHome.branding.title": "Merek",
  "adminHome.branding.body":
    "Ubah tampilan portal ini: simpan draf, pratinjau di halaman yang sebenarnya, lalu terbitkan. Riwayatnya mencatat setiap perubahan.",
  "adminHome.branding.link": "Buka merek",
  "adminHome.admins.title": "Daftar admin",
  "adminHome.admins.body":
    "Pilih siapa yang boleh mengelola merek: tambahkan admin dengan alamat email, atau hapus admin.",
  "adminHome.admins.link": "Buka daftar admin",
  "admins.title": "Daftar admin",
  "admins.intro":
    "Admin {business} dapat mengubah mereknya dan memilih siapa lagi yang menjadi admin. Orang yang Anda tambahkan melihat menu Admin di halaman berikutnya; orang yang Anda hapus langsung kehilangannya.",
  "admins.list.title": "Siapa saja admin",
  "admins.you": "Anda",
  "admins.inactive": "Saat ini tidak dapat masuk, jadi tidak dapat membuka halaman admin.",
  "admins.more": "Hanya {count} admin pertama yang ditampilkan.",
  "admins.remove": "Hapus",
  "admins.removeName": "Hapus {name} sebagai admin",
  "admins.add.title": "Tambahkan admin",
  "admins.add.email": "Alamat email",
  "admins.add.hint": "Alamat email kontak dari {business}.",
  "admins.add.submit": "Jadikan admin",
  "admins.confirm.title": "Hapus {name} sebagai admin?",
  "admins.confirm.body":
    "{name} ({email}) langsung kehilangan menu Admin dan halaman admin. Login dan akunnya tetap seperti semula.",
  "admins.confirm.submit": "Hapus sebagai admin",
  "admins.confirm.cancel": "Batal",
  "admins.done.granted": "{name} sekarang admin. Menu Admin muncul di halaman berikutnya.",
  "admins.done.already": "{name} sudah menjadi admin. Tidak ada yang diubah.",
  "admins.done.removed": "{name} bukan admin lagi.",
  "admins.error.summary": "Ada masalah",
  "admins.error.email.required": "Masukkan alamat email kontak yang akan dijadikan admin.",
  "admins.error.email.invalid": "Masukkan alamat email seperti nama@contoh.com.",
  "admins.error.email.tooLong": "Masukkan alamat email paling banyak 254 karakter.",
  "admins.error.email.notFound": "{business} tidak memiliki kontak dengan alamat email itu.",
  "admins.error.self": "Anda tidak dapat menghapus hak admin Anda sendiri. Admin lain dapat melakukannya.",
  "admins.error.lastAdmin":
    "{name} adalah satu-satunya admin {business} yang dapat masuk. Tambahkan admin lain terlebih dahulu. Tidak ada yang diubah.",
  "admins.error.contact": "Itu bukan admin {business}. Tidak ada yang diubah.",
  "admins.error.intent": "Halaman ini tidak melakukan hal itu. Tidak ada yang diubah.",
};
