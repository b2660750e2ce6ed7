import type { z } from "zod";

export type FieldErrors = Record<string, string>;

/**
 * Validates form fields with a zod schema on the server. Returns the parsed value, or the
 * first message per field, ready to render beside each input. Only string fields are
 * read (a File in a text field is treated as missing).
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
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}
