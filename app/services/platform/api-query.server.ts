import { z } from "zod";
import { apiError, CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from "./http.server";

/**
 * Query-string rules shared by the JSON API's list calls (spec §5, §7): skip and take are
 * required non-negative integers (take capped), sort and filter are JSON lists. Anything
 * else is a thrown 400 with a message a developer can act on — never a SQL error.
 */
export const MAX_TAKE = 100;

const INTEGER = /^\d{1,9}$/;

export function requireSkipTake(params: URLSearchParams) {
  const skip = params.get("skip");
  const take = params.get("take");
  if (skip === null || take === null || skip === "" || take === "") throw apiError(400, "Bad request");
  if (!INTEGER.test(skip)) throw apiError(400, "skip must be a whole number, 0 or more");
  if (!INTEGER.test(take) || Number(take) < 1) throw apiError(400, "take must be a whole number, 1 or more");
  return { skip: Number(skip), take: Math.min(Number(take), MAX_TAKE) };
}

const SortItem = z.object({ field: z.string().max(40), dir: z.enum(["asc", "desc"]).default("asc") }).strict();
const FilterItem = z.object({ field: z.string().max(40), value: z.string().max(200) }).strict();

function parseJsonList<T>(raw: string | null, item: z.ZodType<T>, name: string): T[] {
  if (raw === null || raw === "") return [];
  if (raw.length > 4000) throw apiError(400, `${name} is too long`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw apiError(400, `${name} must be a JSON list, e.g. [{"field":"name","dir":"asc"}]`);
  }
  // JSON escapes (\u0000) reach here past the edge's query-string check.
  if (hasControlCharacters(parsed)) throw apiError(400, CONTROL_CHARACTERS_MESSAGE);
  const list = z.array(item).max(10).safeParse(parsed);
  if (!list.success) throw apiError(400, `${name} must be a JSON list of objects with the documented fields`);
  return list.data;
}

export function parseSort<F extends string>(
  raw: string | null,
  fields: readonly F[],
  fallback: F,
  fallbackDir: "asc" | "desc" = "asc",
): { field: F; dir: "asc" | "desc" } {
  const items = parseJsonList(raw, SortItem, "sort");
  const first = items[0];
  if (!first) return { field: fallback, dir: fallbackDir };
  if (!(fields as readonly string[]).includes(first.field)) {
    throw apiError(400, `Unknown sort field "${first.field.slice(0, 40)}": use ${fields.join(" or ")}`);
  }
  return { field: first.field as F, dir: first.dir ?? ("asc" as const) };
}

export function parseFilter<F extends string>(raw: string | null, fields: readonly F[]) {
  const items = parseJsonList(raw, FilterItem, "filter");
  const out: Partial<Record<F, string>> = {};
  for (const item of items) {
    if (!(fields as readonly string[]).includes(item.field)) {
      throw apiError(400, `Unknown filter field "${item.field.slice(0, 40)}": use ${fields.join(", ")}`);
    }
    out[item.field as F] = item.value;
  }
  return out;
}

/** "true"/"false" (and 1/0); absent → the default; anything else → 400. */
export function parseFlag(params: URLSearchParams, name: string, fallback: boolean) {
  const raw = params.get(name);
  if (raw === null || raw === "") return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw apiError(400, `${name} must be true or false`);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function parseIsoDate(value: string | undefined, name: string) {
  if (value === undefined || value === "") return undefined;
  if (!ISO_DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw apiError(400, `${name} must be a date like 2026-11-23`);
  }
  return value;
}
