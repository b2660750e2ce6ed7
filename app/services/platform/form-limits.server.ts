/**
 * Bounds on what a form body may ask the server to build, checked before any parser builds it
 * (issue 28; decision 055). A body is already at most 64 KB (10 MB for the one upload step), but
 * its *names* can still ask for far more than its bytes: Conform reads `people[999999999].name`
 * as an array of a billion slots, which the reply then sends back and the page renders — one
 * 60-byte POST held a process at 4 GB until it died. So every form body passes two gates:
 *
 * 1. `checkFormNames` (every form, every route, through `readForm` and the multipart readers in
 *    http.server.ts): at most MAX_FORM_FIELDS fields, counted in the raw bytes before the body
 *    is parsed at all; every name at most MAX_FIELD_NAME_LENGTH characters, in Conform's path
 *    syntax, at most MAX_PATH_DEPTH segments deep, every list index below MAX_LIST_INDEX and
 *    written plainly (`[7]`, never `[07]` or `[]`).
 * 2. `checkFormAgainstSchema` (every form parsed with Conform, through `parseSubmission`): every
 *    name is a path of the form's own schema (or one the caller names), every list index is
 *    below that list's own `.max()`, a list given by repeated names has no more values than
 *    that, no text is far longer than its schema's `.max()` (`tooLongFor`), and Conform's own `__intent__`
 *    (a list's "add" and "remove" buttons) names a list of the schema with a bounded index.
 *
 * A refusal is a reason code; the callers answer it with a 400 that says what was wrong and
 * that nothing was changed, before anything was written.
 */
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";

export const MAX_FORM_FIELDS = 250;
export const MAX_FIELD_NAME_LENGTH = 120;
export const MAX_PATH_DEPTH = 6;
/** The largest list any form has is far smaller (five referees, ten directors). */
export const MAX_LIST_INDEX = 100;
/** Conform's "add"/"remove" button value is a small JSON object. */
const MAX_INTENT_LENGTH = 1000;

export type FormLimitRefusal =
  "too-many-fields" | "field-name" | "list-index" | "unknown-field" | "field-too-long" | "list-too-long";

/** Conform's reserved names: `__intent__` carries a list button's action; `__state__` we never send. */
const INTENT = "__intent__";
const STATE = "__state__";

const SEGMENT = /([^.[\]]+)|\[(\d*)\]/g;

/**
 * A field name as Conform reads it (`referees[2].email` → `["referees", 2, "email"]`), or null
 * when it is not one our bounds allow: malformed, too deep, an empty or padded index, an index
 * at or past MAX_LIST_INDEX, or a segment that would reach an object's prototype.
 */
export function fieldPath(name: string): (string | number)[] | "list-index" | null {
  if (name.length === 0 || name.length > MAX_FIELD_NAME_LENGTH) return null;
  const segments: (string | number)[] = [];
  let last = 0;
  SEGMENT.lastIndex = 0;
  for (let match = SEGMENT.exec(name); match; match = SEGMENT.exec(name)) {
    const dotted = match.index === last + 1 && name[last] === "." && segments.length > 0 && match[1] !== undefined;
    if (match.index !== last && !dotted) return null;
    const [, key, index] = match;
    if (key !== undefined) {
      if (key === "__proto__" || key === "constructor" || key === "prototype") return null;
      segments.push(key);
    } else {
      if (index === undefined || !/^(0|[1-9]\d*)$/.test(index) || segments.length === 0) return null;
      // Compared as text first: `[99999999999999999999]` is no number worth building.
      const value = index.length > 3 ? Infinity : Number(index);
      if (value >= MAX_LIST_INDEX) return "list-index";
      segments.push(value);
    }
    if (segments.length > MAX_PATH_DEPTH) return null;
    last = SEGMENT.lastIndex;
  }
  return last === name.length ? segments : null;
}

/**
 * How many fields a body holds, read from its raw bytes before it is parsed: `&`-separated
 * pairs of a URL-encoded body, boundary lines of a multipart one. An over-count is harmless
 * (the limit is generous); an under-count is impossible, since every field needs its separator.
 */
export function countRawFields(bytes: Uint8Array, contentType: string): number {
  const type = contentType.toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const boundary = /boundary=(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType);
    const marker = boundary ? Buffer.from(`--${boundary[1] ?? boundary[2]}`, "latin1") : null;
    if (!marker) return 0;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let count = 0;
    for (let at = buffer.indexOf(marker); at >= 0; at = buffer.indexOf(marker, at + marker.length)) count += 1;
    // The closing boundary is one more line than there are parts.
    return Math.max(0, count - 1);
  }
  if (bytes.byteLength === 0) return 0;
  let count = 1;
  for (const byte of bytes) if (byte === 0x26) count += 1;
  return count;
}

/** Gate 1: the names of a parsed form, whatever route it is for. */
export function checkFormNames(form: FormData | URLSearchParams): FormLimitRefusal | null {
  let fields = 0;
  for (const [name] of form) {
    fields += 1;
    if (fields > MAX_FORM_FIELDS) return "too-many-fields";
    if (name === INTENT) continue;
    if (name === STATE) return "field-name";
    const path = fieldPath(name);
    if (path === "list-index") return "list-index";
    if (path === null) return "field-name";
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Gate 2: a Conform form against its schema

/** What a path reaches in a schema: the schema there, and whether a preprocess sits on the way. */
type Reached = { schema: z.ZodTypeAny; preprocessed: boolean };

/** The schema beneath wrappers that do not change the shape of the value (optional, default…). */
function unwrap(schema: z.ZodTypeAny, preprocessed = false): Reached[] {
  const def = schema._def as { typeName?: string } & Record<string, unknown>;
  switch (def.typeName) {
    case z.ZodFirstPartyTypeKind.ZodOptional:
    case z.ZodFirstPartyTypeKind.ZodNullable:
    case z.ZodFirstPartyTypeKind.ZodReadonly:
      return unwrap(def.innerType as z.ZodTypeAny, preprocessed);
    case z.ZodFirstPartyTypeKind.ZodDefault:
    case z.ZodFirstPartyTypeKind.ZodCatch:
      return unwrap(def.innerType as z.ZodTypeAny, preprocessed);
    case z.ZodFirstPartyTypeKind.ZodBranded:
      return unwrap(def.type as z.ZodTypeAny, preprocessed);
    case z.ZodFirstPartyTypeKind.ZodLazy:
      return unwrap((def.getter as () => z.ZodTypeAny)(), preprocessed);
    case z.ZodFirstPartyTypeKind.ZodEffects: {
      const effect = def.effect as { type: string };
      return unwrap(def.schema as z.ZodTypeAny, preprocessed || effect.type === "preprocess");
    }
    case z.ZodFirstPartyTypeKind.ZodPipeline:
      return unwrap(def.in as z.ZodTypeAny, preprocessed);
    case z.ZodFirstPartyTypeKind.ZodUnion:
    case z.ZodFirstPartyTypeKind.ZodDiscriminatedUnion: {
      const options = def.options as z.ZodTypeAny[] | Map<unknown, z.ZodTypeAny>;
      const list = options instanceof Map ? [...options.values()] : options;
      return list.flatMap((option) => unwrap(option, preprocessed));
    }
    case z.ZodFirstPartyTypeKind.ZodIntersection:
      return [...unwrap(def.left as z.ZodTypeAny, preprocessed), ...unwrap(def.right as z.ZodTypeAny, preprocessed)];
    default:
      return [{ schema, preprocessed }];
  }
}

/** A check's bound (`max` or `length`) on a string or an array schema, if it has one. */
function stringMax(schema: z.ZodTypeAny): number | null {
  if (!(schema instanceof z.ZodString)) return null;
  let max: number | null = null;
  for (const check of schema._def.checks) {
    if (check.kind === "max" || check.kind === "length") max = Math.min(max ?? Infinity, check.value);
  }
  return max;
}

function arrayMax(schema: z.ZodArray<z.ZodTypeAny>): number {
  const def = schema._def;
  const bound = def.exactLength?.value ?? def.maxLength?.value ?? MAX_LIST_INDEX;
  return Math.min(bound, MAX_LIST_INDEX);
}

/**
 * Past what length a text is refused outright rather than told at its field. Within it, the
 * schema's own `.max()` answers with a message at the field and everything else as typed (a name
 * pasted one character too long, a textarea whose line breaks the browser counted as one character
 * and sent as two); past it, no person typed it, and the body is refused before Conform copies it
 * into the reply.
 */
export function tooLongFor(max: number): number {
  return max * 2 + 100;
}

/** Anything goes beneath these (the schema says so itself): only gate 1's bounds apply there. */
function isOpen(schema: z.ZodTypeAny): boolean {
  return (
    schema instanceof z.ZodUnknown ||
    schema instanceof z.ZodAny ||
    (schema instanceof z.ZodObject && schema._def.unknownKeys === "passthrough")
  );
}

/** The schemas a path reaches (several through a union), or a refusal. */
function walk(schema: z.ZodTypeAny, path: (string | number)[]): Reached[] | FormLimitRefusal {
  let here: Reached[] = unwrap(schema);
  for (const segment of path) {
    const next: Reached[] = [];
    let indexTooLarge = false;
    for (const { schema: node, preprocessed } of here) {
      if (isOpen(node)) return [{ schema: node, preprocessed: true }];
      if (typeof segment === "number") {
        if (node instanceof z.ZodArray) {
          if (segment >= arrayMax(node)) indexTooLarge = true;
          else next.push(...unwrap(node.element as z.ZodTypeAny, preprocessed));
        } else if (node instanceof z.ZodTuple) {
          const item = (node.items as z.ZodTypeAny[])[segment];
          if (item) next.push(...unwrap(item, preprocessed));
        }
        continue;
      }
      if (node instanceof z.ZodObject) {
        const field = (node.shape as Record<string, z.ZodTypeAny>)[segment];
        if (field && Object.prototype.hasOwnProperty.call(node.shape, segment)) {
          next.push(...unwrap(field, preprocessed));
        } else if (!(node._def.catchall instanceof z.ZodNever)) {
          next.push(...unwrap(node._def.catchall as z.ZodTypeAny, preprocessed));
        }
      } else if (node instanceof z.ZodRecord) {
        next.push(...unwrap(node._def.valueType as z.ZodTypeAny, preprocessed));
      }
    }
    if (next.length === 0) return indexTooLarge ? "list-index" : "unknown-field";
    here = next;
  }
  return here;
}

/** Whether `values` (every value sent under one name) fit what the name reaches. */
function valuesFit(reached: Reached[], values: FormDataEntryValue[]): FormLimitRefusal | null {
  let refusal: FormLimitRefusal | null = null;
  for (const { schema, preprocessed } of reached) {
    if (isOpen(schema)) return null;
    let fits = true;
    let leaf: Reached[] = [{ schema, preprocessed }];
    if (schema instanceof z.ZodArray) {
      if (values.length > arrayMax(schema)) {
        refusal ??= "list-too-long";
        fits = false;
      }
      leaf = unwrap(schema.element as z.ZodTypeAny, preprocessed);
    }
    if (fits) {
      const tooLong = values.some(
        (value) =>
          typeof value === "string" &&
          leaf.every((item) => {
            if (item.preprocessed) return false;
            const max = stringMax(item.schema);
            return max !== null && value.length > tooLongFor(max);
          }),
      );
      if (!tooLong) return null;
      refusal ??= "field-too-long";
    }
  }
  return refusal;
}

/** Conform's list buttons: `{"type":"insert"|"remove"|"reorder"|…,"payload":{"name":…,"index":…}}`. */
function checkIntent(schema: z.ZodTypeAny, raw: FormDataEntryValue): FormLimitRefusal | null {
  if (typeof raw !== "string" || raw.length > MAX_INTENT_LENGTH) return "field-name";
  let intent: unknown;
  try {
    intent = JSON.parse(raw);
  } catch {
    return "field-name";
  }
  const parsed = z
    .object({
      type: z.enum(["validate", "insert", "remove", "reorder", "update", "reset"]),
      payload: z
        .object({
          name: z.string().max(MAX_FIELD_NAME_LENGTH).optional(),
          index: z.number().int().min(0).optional(),
          from: z.number().int().min(0).optional(),
          to: z.number().int().min(0).optional(),
        })
        .passthrough()
        .optional(),
    })
    .safeParse(intent);
  if (!parsed.success) return "field-name";
  const { type, payload } = parsed.data;
  if (type === "validate" || !payload?.name) return type === "update" || type === "reset" ? "field-name" : null;
  const path = fieldPath(payload.name);
  if (path === "list-index") return "list-index";
  if (path === null) return "field-name";
  const reached = walk(schema, path);
  if (typeof reached === "string") return reached;
  if (type === "update" || type === "reset") return null;
  const lists = reached.filter((item) => item.schema instanceof z.ZodArray);
  if (lists.length === 0) return reached.some((item) => isOpen(item.schema)) ? null : "unknown-field";
  const bound = Math.max(...lists.map((item) => arrayMax(item.schema as z.ZodArray<z.ZodTypeAny>)));
  for (const index of [payload.index, payload.from, payload.to]) {
    if (index !== undefined && index >= bound) return "list-index";
  }
  return null;
}

/**
 * Gate 2. `allow` names fields the action reads outside the schema (an `intent`, a
 * `requestGuid`, a honeypot): those pass with gate 1's bounds alone.
 */
export function checkFormAgainstSchema(
  form: FormData | URLSearchParams,
  schema: z.ZodTypeAny,
  allow: readonly string[] = [],
): FormLimitRefusal | null {
  const general = checkFormNames(form);
  if (general) return general;
  const byName = new Map<string, FormDataEntryValue[]>();
  for (const [name, value] of form) {
    const values = byName.get(name);
    if (values) values.push(value);
    else byName.set(name, [value]);
  }
  for (const [name, values] of byName) {
    if (name === INTENT) {
      if (values.length > 1) return "field-name";
      const refusal = checkIntent(schema, values[0]!);
      if (refusal) return refusal;
      continue;
    }
    if (allow.includes(name)) continue;
    const path = fieldPath(name);
    if (path === "list-index") return "list-index";
    if (path === null) return "field-name";
    const reached = walk(schema, path);
    if (typeof reached === "string") return reached;
    const refusal = valuesFit(reached, values);
    if (refusal) return refusal;
  }
  return null;
}

/** The 400 a refused form gets: the error page says what was wrong, and that nothing changed. */
export function formLimitError(reason: FormLimitRefusal): Response {
  return Response.json({ reason }, { status: 400, headers: { "Cache-Control": "no-store" } });
}

/**
 * `parseWithZod` behind gate 2: the one way a route parses a Conform form. A form outside the
 * bounds is a thrown 400 (see `formLimitError`) before Conform builds anything from it.
 */
export function parseSubmission<Schema extends z.ZodTypeAny>(
  form: FormData | URLSearchParams,
  options: { schema: Schema; allow?: readonly string[] },
) {
  const refusal = checkFormAgainstSchema(form, options.schema, options.allow);
  if (refusal) throw formLimitError(refusal);
  return parseWithZod(form, { schema: options.schema });
}

// ---------------------------------------------------------------------------------------------
// JSON bodies of the APIs

export const MAX_JSON_DEPTH = 8;
export const MAX_JSON_NODES = 2000;

/**
 * The same bounds for a parsed JSON body (every API reads at most 16–512 KB): no list longer than
 * MAX_LIST_INDEX items, no key longer than a field name may be, at most MAX_JSON_DEPTH levels
 * and MAX_JSON_NODES values in all. JSON.parse has built it already, within the byte limit; this
 * keeps what the schemas and the services then walk, copy and echo small.
 */
export function checkJsonShape(value: unknown): "json-shape" | null {
  let nodes = 0;
  const visit = (node: unknown, depth: number): boolean => {
    nodes += 1;
    if (nodes > MAX_JSON_NODES || depth > MAX_JSON_DEPTH) return false;
    if (node === null || typeof node !== "object") return true;
    if (Array.isArray(node)) {
      return node.length <= MAX_LIST_INDEX && node.every((item) => visit(item, depth + 1));
    }
    return Object.entries(node).every(([key, item]) => key.length <= MAX_FIELD_NAME_LENGTH && visit(item, depth + 1));
  };
  return visit(value, 0) ? null : "json-shape";
}

/** What each refusal says, for the JSON APIs (pages say it through the error boundary's messages). */
export const FORM_LIMIT_MESSAGES: Record<FormLimitRefusal, string> = {
  "too-many-fields": `The form has more than ${MAX_FORM_FIELDS} fields. Nothing was changed.`,
  "field-name": "A field name is not one this form uses. Nothing was changed.",
  "list-index": `A list position is larger than the form allows (at most ${MAX_LIST_INDEX} items). Nothing was changed.`,
  "unknown-field": "The form has a field it does not use. Nothing was changed.",
  "field-too-long": "A field is longer than the form allows. Nothing was changed.",
  "list-too-long": "A list has more items than the form allows. Nothing was changed.",
};

export const JSON_SHAPE_MESSAGE = `The body is nested too deeply or holds too many values (at most ${MAX_LIST_INDEX} items in a list, ${MAX_JSON_DEPTH} levels). Nothing was changed.`;
