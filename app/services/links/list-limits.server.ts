import { sql } from "kysely";
import { decodeCursor, encodeCursor } from "../platform/cursor.server";

/**
 * The page of a back-office list (requests, schedules, agreement documents and offers, response
 * requests, credit applications and trade references): `limit` rows at most, newest first, after
 * the keyset `cursor` the previous page gave as `nextCursor`.
 */
export const DEFAULT_LIST_LIMIT = 25;
export const MAX_LIST_LIMIT = 100;

/**
 * Reads the limit and cursor of a list query. A bad one is named in `fields` (the caller's other
 * checks gather there too, in the order the problem lists them), never thrown here.
 */
export function listPage(query: { limit?: number | null; cursor?: string | null }, fields: Record<string, string>) {
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    fields.limit = `Use a whole number from 1 to ${MAX_LIST_LIMIT}.`;
  }
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) fields.cursor = "Use the nextCursor of the previous page as it was given.";
  return { limit, cursor };
}

/**
 * The rows after the cursor along the list's keyset, newest first: `time` and `id` are the
 * qualified columns ("pr.created_at", "pr.id") the list orders by, both descending.
 */
export function beforeCursor(time: string, id: string, cursor: { at: string; id: string }) {
  return sql<boolean>`(${sql.ref(time)}, ${sql.ref(id)}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
}

/**
 * A page from the `limit + 1` rows read (each with its keyset time as `cursorAt`), and the cursor of
 * the next page: null on the last.
 */
export function pageOf<R extends { id: string; cursorAt: string }>(rows: R[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(last.cursorAt, last.id) : null };
}
