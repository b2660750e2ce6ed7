import { UUID } from "~/lib/ids";

/**
 * The opaque keyset cursor of the back-office lists: a row's `created_at` (as PostgreSQL writes
 * it, to the microsecond, in UTC) and its id, base64url. Only what `encodeCursor` could have
 * made decodes: anything else — malformed, or a time that is no real instant such as
 * 2026-02-30 or 24:00, which JavaScript's Date would roll over and PostgreSQL would refuse with
 * an error — is null, so the caller answers 400 and never sends it to the database.
 */
export function encodeCursor(at: string, id: string) {
  return Buffer.from(`${at}|${id}`, "utf8").toString("base64url");
}

const CURSOR_TIME = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\d{3}Z$/;

export function decodeCursor(cursor: string): { at: string; id: string } | null {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const [at, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length || !at || !id || !UUID.test(id)) return null;
  const time = CURSOR_TIME.exec(at);
  if (!time || Number(time[1]) < 1) return null;
  // A real calendar instant reads back as itself (to the millisecond; the microseconds are digits).
  const parsed = new Date(at);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString() !== `${at.slice(0, 23)}Z`) return null;
  return { at, id };
}
