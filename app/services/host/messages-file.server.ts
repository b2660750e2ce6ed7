import { createHash } from "node:crypto";
import { MESSAGES } from "~/lib/i18n/catalog";
import { isLanguageCode, type LanguageCode } from "~/lib/i18n";
import { messagesPath } from "~/lib/i18n/runtime";

/**
 * One language's dictionary as the browser fetches it before hydration (decision 086): JSON, not a
 * JavaScript module. A 120 KB object literal cost a phone at 6× CPU about 37 ms of module
 * evaluation in one task; the same text read by `response.json()` is a few milliseconds. The
 * address carries the text's hash, so a cached copy is kept for a year and a new dictionary is a
 * new address. Built once per process and language.
 */
export type MessagesFile = { language: LanguageCode; version: string; href: string; body: string };

const files = new Map<LanguageCode, MessagesFile>();

export function messagesFile(language: LanguageCode): MessagesFile {
  const known = files.get(language);
  if (known) return known;
  const body = JSON.stringify(MESSAGES[language]);
  const version = createHash("sha256").update(body).digest("hex").slice(0, 12);
  const file = { language, version, href: `${messagesPath(language)}?v=${version}`, body };
  files.set(language, file);
  return file;
}

/** The dictionary named by a request's path segment (`en-AU.json`), or null for anything else. */
export function messagesFileNamed(segment: string | undefined): MessagesFile | null {
  const match = /^([A-Za-z-]{1,8})\.json$/.exec(segment ?? "");
  return match && isLanguageCode(match[1]) ? messagesFile(match[1]) : null;
}
