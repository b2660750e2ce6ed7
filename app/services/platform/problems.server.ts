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

/**
 * The one JSON error shape of every API (decision 069): the spec's `status` and `message` (§5, §8:
 * a client rejects with the body and shows its message), and `error` for programs — a stable
 * snake_case `code`, the same `message`, and `fields` (name → what is wrong) when a field is at
 * fault. The back-office API, the session API and the PayTo calls all answer it; an API keeps its
 * older fields beside it (`ok`/`reason`/`errors` of the PayTo and payment-method calls).
 */
export type ProblemBody = {
  status: number;
  message: string;
  error: { code: string; message: string; fields?: Record<string, string> };
};

/** The code an answer gets when its maker names none: one word per status. */
const CODE_BY_STATUS: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  410: "gone",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "validation",
  429: "rate_limited",
  500: "internal",
  502: "bad_gateway",
  503: "unavailable",
};

export const codeForStatus = (status: number) =>
  CODE_BY_STATUS[status] ?? (status >= 500 ? "unavailable" : "bad_request");

export function problemBody(
  status: number,
  message: string,
  options: { code?: string; fields?: Record<string, string> } = {},
): ProblemBody {
  const fields = options.fields && Object.keys(options.fields).length > 0 ? options.fields : undefined;
  return {
    status,
    message,
    error: { code: options.code ?? codeForStatus(status), message, ...(fields ? { fields } : {}) },
  };
}

/** A RequestProblem's status: validation 400, not-found 404, conflict 409. */
export const statusOfProblem = (problem: RequestProblem) =>
  problem.code === "validation" ? 400 : problem.code === "not-found" ? 404 : 409;

/** A RequestProblem as the one shape (codes `validation`, `not_found`, `conflict`). */
export function bodyOfProblem(problem: RequestProblem): ProblemBody {
  return problemBody(statusOfProblem(problem), problem.message, {
    code: problem.code === "not-found" ? "not_found" : problem.code,
    fields: problem.fields,
  });
}
