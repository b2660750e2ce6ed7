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

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === "string" && Object.hasOwn(enAU, value);
}

/**
 * The translator for a route's `meta` (no hooks there): the language the root loader
 * chose, found among the matches.
 */
export function metaTranslator(matches: readonly { id: string; data: unknown }[]): Translate {
  const root = matches.find((match) => match.id === "root")?.data as { language?: unknown } | undefined;
  return translator(isLanguageCode(root?.language) ? root.language : DEFAULT_LANGUAGE);
}

/**
 * English text for the JSON API, whose messages are a contract in English (spec §5), even
 * where a page shows the same message translated. Text that is not a key passes through.
 */
export function apiText(message: string, params?: Record<string, string | number>): string {
  return isMessageKey(message) ? translator(DEFAULT_LANGUAGE)(message, params) : message;
}
