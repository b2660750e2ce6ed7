import type { Messages } from "./en-AU";
import { DEFAULT_LANGUAGE, type LanguageCode } from "./languages";

/**
 * The dictionaries this JavaScript realm holds (decision 050). The server provides both languages
 * at start-up (entry.server); the browser provides only the page's language, fetched as JSON under a
 * content-hashed address before hydration (entry.client, decision 086) and cached from then on, so no
 * document carries the messages as data. `useT()` and `metaTranslator()` read from here.
 */
const provided = new Map<LanguageCode, Partial<Messages>>();

export function provideMessages(language: LanguageCode, messages: Partial<Messages>) {
  provided.set(language, messages);
}

/** The language's dictionary, if this realm has it (a translator falls back to core English). */
export function messagesIn(language: LanguageCode | undefined): Partial<Messages> | undefined {
  return provided.get(language ?? DEFAULT_LANGUAGE);
}

/** Where a language's dictionary is served (decision 086); the server adds `?v=` and the text's hash. */
export function messagesPath(language: LanguageCode): string {
  return `/i18n/${language}.json`;
}

/**
 * The `id` of the document's `<link rel="preload" as="fetch">` for its dictionary: rendered with the
 * page's scripts (ScriptPreloads), so the file is on its way while they are; the browser reads its
 * versioned address from it.
 */
export const MESSAGES_LINK_ID = "page-messages";

/**
 * Loads one language's dictionary in the browser: JSON, fetched once and cached for a year under its
 * versioned address (decision 086). The same request as the document's preload, so it is answered by it.
 */
export async function fetchMessages(href: string): Promise<Partial<Messages>> {
  const response = await fetch(href, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
  return (await response.json()) as Partial<Messages>;
}
