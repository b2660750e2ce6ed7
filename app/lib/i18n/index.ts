import { enAU, type MessageKey, type Messages } from "./en-AU";
import { id } from "./id";

/** Spec §3: en-AU 'English (AU)' (default) and ID 'Bahasa Indonesia' (only with the Language toggle). */
export const LANGUAGES = [
  { code: "en-AU", label: "English (AU)", htmlLang: "en-AU" },
  { code: "ID", label: "Bahasa Indonesia", htmlLang: "id" },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]["code"];
export const DEFAULT_LANGUAGE: LanguageCode = "en-AU";

export const MESSAGES: Record<LanguageCode, Messages> = { "en-AU": enAU, ID: id };

export function isLanguageCode(value: unknown): value is LanguageCode {
  return LANGUAGES.some((language) => language.code === value);
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** A translator for a language: `{name}` placeholders are filled from params, as text. */
export function translator(language: LanguageCode): Translate {
  const messages = MESSAGES[language] ?? enAU;
  return (key, params) => {
    const template = messages[key] ?? enAU[key] ?? key;
    return params ? template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`)) : template;
  };
}

export type { MessageKey };
