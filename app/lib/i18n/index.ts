import { fillPlaceholders } from "../sentence";
import { coreEnAU } from "./en-AU.core";
import type { MessageKey, Messages } from "./en-AU";
import type { LanguageCode } from "./languages";
import { messagesIn } from "./runtime";

/**
 * Languages and translators that are safe in the browser. The dictionaries themselves are
 * not imported here: a browser loads only its page's language, as a chunk of its own, before
 * hydration (decision 050; `./runtime`), so no page ships both languages and no document
 * carries the messages as data. Server code that needs a dictionary uses `./catalog`.
 */

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** A translator over a dictionary: `{name}` placeholders are filled from params, as text (one full stop after a name ending in one). */
export function translatorFrom(messages: Partial<Messages> | undefined): Translate {
  const known = (messages ?? {}) as Partial<Record<string, string>>;
  const fallback = coreEnAU as Partial<Record<string, string>>;
  return (key, params) => {
    // Own keys only, so a key that reached here from a URL can never name Object.prototype's.
    const template =
      (Object.hasOwn(known, key) ? known[key] : undefined) ??
      (Object.hasOwn(fallback, key) ? fallback[key] : undefined) ??
      key;
    return params ? fillPlaceholders(template, params) : template;
  };
}

type RootData = { language?: LanguageCode } | undefined;

/** The translator for a route's `meta` (no hooks there): the page's language's dictionary. */
export function metaTranslator(matches: readonly { id: string; data: unknown }[]): Translate {
  const root = matches.find((match) => match.id === "root")?.data as RootData;
  return translatorFrom(messagesIn(root?.language));
}

export { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGES, type LanguageCode } from "./languages";
export type { MessageKey, Messages };
