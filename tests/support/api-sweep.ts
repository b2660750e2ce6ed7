import { z } from "zod";
import { createSession } from "~/services/auth/session.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { routeModuleFiles } from "./route-modules";

/**
 * What the tests that ask every API route the same questions share (the error shape, the wrong methods): the
 * routes, a URL for each with ids that are not ours, the callers, and the shape every JSON error takes.
 */
export const HOST = "acme.localhost";
export const ORIGIN = `http://${HOST}`;
export const NOT_OURS = "00000000-0000-4000-8000-000000000000";
export const BACK_OFFICE_KEY = "Bearer pk_DEMO-acme-backoffice-key-not-for-real-use-0";

export const apiRoutes = routeModuleFiles().filter((route) => route.name.startsWith("api."));

export type Handler = (args: unknown) => unknown;
export type ApiRouteModule = { loader?: Handler; action?: Handler };

/** The route's address, every `$param` an id that is not ours. */
export function urlOf(name: string): string {
  const segments = name
    .replace(/\.(ts|tsx)$/, "")
    .split(".")
    .filter((segment) => segment !== "_index")
    .map((segment) => segment.replace(/^\[(.*)\]$/, "$1").replace(/_$/, ""))
    .map((segment) => (segment.startsWith("$") ? NOT_OURS : segment));
  return `${ORIGIN}/${segments.join("/")}`;
}

export const PARAMS = new Proxy({} as Record<string, string>, {
  get: (_target, name) =>
    name === "provider" ? "auth0" : name === "verb" ? "send" : name === "position" ? "1" : NOT_OURS,
});

/** What a loader or action answered, returned or thrown; null when it answered data rather than a Response. */
export async function answerOf(run: () => unknown): Promise<Response | null> {
  try {
    const result = await run();
    return result instanceof Response ? result : null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** The contact with this email on HOST's business. */
export async function contactOn(handle: DatabaseHandle, email: string): Promise<{ id: string; businessId: string }> {
  const row = await handle.db
    .selectFrom("contacts")
    .innerJoin("hosts", "hosts.business_id", "contacts.business_id")
    .select(["contacts.id", "contacts.business_id"])
    .where("contacts.email", "=", email)
    .where("hosts.hostname", "=", HOST)
    .executeTakeFirstOrThrow();
  return { id: row.id, businessId: row.business_id };
}

/** A session cookie (name=value) for the contact with this email on HOST. */
export async function signInAs(handle: DatabaseHandle, email: string): Promise<string> {
  const contact = await contactOn(handle, email);
  const cookie = await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
    businessId: contact.businessId,
    contactId: contact.id,
    authMethod: "credentials",
  });
  return cookie.split(";")[0]!;
}

/** Decision 069: the one shape of an API's error. */
export const ProblemShape = z
  .object({
    status: z.number().int().min(400).max(599),
    message: z.string().min(1).max(2000),
    error: z
      .object({
        code: z
          .string()
          .regex(/^[a-z][a-z0-9_]*$/)
          .max(60),
        message: z.string().min(1).max(2000),
        fields: z.record(z.string().max(200), z.string().max(2000)).optional(),
      })
      .strict(),
  })
  // An API may keep its older fields beside the shape (`ok`, `reason`, `errors`, `code`, `received`).
  .passthrough();

/**
 * Decision 092: the sign-in API answers the spec's sign-in result, whose `error` is the sign-in error code (a
 * string), never the problem shape's object. Every answer of these routes takes this shape, errors too.
 */
export const SIGN_IN_RESULT_ROUTES = new Set(["api.auth.signin.ts", "api.auth.signin_.$provider.ts"]);

export const SignInResultShape = z
  .object({
    error: z
      .string()
      .regex(/^[A-Za-z_]+$/)
      .max(60)
      .nullable(),
    status: z.number().int().min(200).max(599),
    ok: z.boolean(),
    url: z.string().url().max(4096).nullable(),
    message: z.string().min(1).max(2000),
  })
  .strict()
  .refine((result) => result.ok === result.status < 300 && result.ok === (result.error === null), {
    message: "ok, status and error disagree",
  });
