/**
 * The portal's languages, on their own so that both `./index` (translators) and `./runtime` (the
 * dictionaries this realm holds) can use them without importing each other.
 */

/** Spec §3: en-AU 'English (AU)' (default) and ID 'Bahasa Indonesia' (only with the Language toggle). */
export const LANGUAGES = [
  { code: "en-AU", label: "English (AU)", htmlLang: "en-AU" },
  { code: "ID", label: "Bahasa Indonesia", htmlLang: "id" },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]["code"];
export const DEFAULT_LANGUAGE: LanguageCode = "en-AU";

export function isLanguageCode(value: unknown): value is LanguageCode {
  return LANGUAGES.some((language) => language.code === value);
}
