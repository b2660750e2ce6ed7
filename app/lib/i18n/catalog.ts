import { enAU, type MessageKey, type Messages } from "./en-AU";
import { id } from "./id";
import { DEFAULT_LANGUAGE, translatorFrom, type LanguageCode, type Translate } from "./index";

/**
 * Every message in both languages. For the server (loaders, actions, mail, the JSON API):
 * importing this from browser code would ship both dictionaries to every page.
 */
export const MESSAGES: Record<LanguageCode, Messages> = { "en-AU": enAU, ID: id };

export function messagesFor(language: LanguageCode): Messages {
  return Object.hasOwn(MESSAGES, language) ? MESSAGES[language] : enAU;
}

export function translator(language: LanguageCode): Translate {
  const messages = messagesFor(language);
  return language === DEFAULT_LANGUAGE ? translatorFrom(messages) : translatorFrom({ ...enAU, ...messages });
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === "string" && Object.hasOwn(enAU, value);
}

/**
 * English text for the JSON API, whose messages are a contract in English (spec §5), even
 * where a page shows the same message translated. Text that is not a key passes through.
 */
export function apiText(message: string, params?: Record<string, string | number>): string {
  return isMessageKey(message) ? translator(DEFAULT_LANGUAGE)(message, params) : message;
}
