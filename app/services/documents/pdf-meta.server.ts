import { translator } from "~/lib/i18n/catalog";
import { LANGUAGES, type LanguageCode } from "~/lib/i18n/languages";
import type { PdfMeta } from "./pdf.server";

/**
 * What every document's PDF says of itself in the page's language: its title and subject, the language tag
 * a screen reader reads it in, "Page n of m", and the logo's text alternative.
 */
export function pdfMeta(language: LanguageCode, businessName: string, title: string, subject: string): PdfMeta {
  const t = translator(language);
  return {
    title,
    lang: LANGUAGES.find((entry) => entry.code === language)!.htmlLang,
    subject,
    pageOf: (page, pages) => t("pdf.page", { page, pages }),
    logoAlt: t("pdf.logoAlt", { business: businessName }),
  };
}
