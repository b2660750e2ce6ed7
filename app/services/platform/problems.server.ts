import type { z } from "zod";

/**
 * What a back-office call (API or CLI) did wrong, said so that a developer can act on it.
 * `validation` → 400 with a message per field, `not-found` → 404, `conflict` → 409 (the
 * record's state does not allow it, or the business has not switched the feature on).
 * Services throw it; the API and the CLI turn it into their own answer.
 */
export type ProblemCode = "validation" | "not-found" | "conflict";

export class RequestProblem extends Error {
  readonly code: ProblemCode;
  readonly fields?: Record<string, string>;

  constructor(code: ProblemCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = "RequestProblem";
    this.code = code;
    if (fields && Object.keys(fields).length > 0) this.fields = fields;
  }
}

export const isRequestProblem = (error: unknown): error is RequestProblem => error instanceof RequestProblem;

export function invalid(fields: Record<string, string>, message = "Some fields are not valid."): RequestProblem {
  return new RequestProblem("validation", message, fields);
}

/** A zod failure as fields: `invoices.1` → its message (the first message per field). */
export function zodFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    if (issue.code === "unrecognized_keys") {
      for (const name of issue.keys) fields[name.slice(0, 60)] ??= "This field is not part of the call.";
      continue;
    }
    fields[key] ??= issue.message;
  }
  return fields;
}
