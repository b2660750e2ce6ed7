import type { z } from "zod";
import type { MessageKey } from "./i18n";
import { isMessageKey } from "./i18n/catalog";

/** The first problem per field, as message keys: the page shows them in its language. */
export type FieldErrors = Record<string, MessageKey>;

/**
 * Validates form fields with a zod schema on the server. Returns the parsed value, or the
 * first message key per field, ready to render beside each input. The schemas' messages
 * are message keys; anything else (zod's own English) becomes a generic key, so a page
 * never shows untranslated text. Only string fields are read (a File in a text field is
 * treated as missing).
 */
export function parseFields<S extends z.ZodTypeAny>(
  schema: S,
  form: FormData,
  names: string[],
): { ok: true; value: z.infer<S> } | { ok: false; errors: FieldErrors } {
  const input: Record<string, string | undefined> = {};
  for (const name of names) {
    const value = form.get(name);
    input[name] = typeof value === "string" ? value : undefined;
  }
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= isMessageKey(issue.message) ? issue.message : "auth.form.invalid";
  }
  return { ok: false, errors };
}
