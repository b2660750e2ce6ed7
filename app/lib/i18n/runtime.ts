import type { Messages } from "./en-AU";
import { DEFAULT_LANGUAGE, type LanguageCode } from "./languages";

/**
 * The dictionaries this JavaScript realm holds (decision 050). The server provides both languages
 * at start-up (entry.server); the browser provides only the page's language, loaded as its own
 * content-hashed chunk before hydration (entry.client) and cached from then on, so no document
 * carries the messages as data. `useT()` and `metaTranslator()` read from here.
 */
const provided = new Map<LanguageCode, Partial<Messages>>();

export function provideMessages(language: LanguageCode, messages: Partial<Messages>) {
  provided.set(language, messages);
}

/** The language's dictionary, if this realm has it (a translator falls back to core English). */
export function messagesIn(language: LanguageCode | undefined): Partial<Messages> | undefined {
  return provided.get(language ?? DEFAULT_LANGUAGE);
}

/** Loads one language's dictionary in the browser: each is its own chunk, fetched on demand. */
export async function loadMessages(language: LanguageCode): Promise<Partial<Messages>> {
  if (language === "ID") return (await import("./id")).id;
  return (await import("./en-AU")).enAU;
}
