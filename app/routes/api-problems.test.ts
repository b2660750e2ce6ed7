import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSession } from "~/services/auth/session.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { routeModuleFiles } from "../../tests/support/route-modules";
import { openSeededPglite } from "../../tests/support/test-db";

/**
 * Decision 069: every API answers an error in one shape — the spec's `status` and `message`, and
 * `error: { code, message, fields? }` for programs. This sweep asks every API route for errors
 * (no session, a signed-in customer, a back-office key; a wrong method, an empty and a malformed
 * body, ids that are not ours) and checks every JSON answer of 400 or more against the shape. New
 * API routes are covered without being named.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const NOT_OURS = "00000000-0000-4000-8000-000000000000";

const apiRoutes = routeModuleFiles().filter((route) => route.name.startsWith("api."));

/**
 * The browser's sign-in steps answer with redirects, not JSON errors (the sign-in page shows what went
 * wrong); anything JSON they answer is still checked.
 */
const REDIRECTING = new Set(["api.auth.callback.auth0.ts", "api.auth.signin.ts", "api.auth.signin_.$provider.ts"]);

const ProblemShape = z
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

function urlOf(name: string): string {
  const segments = name
    .replace(/\.(ts|tsx)$/, "")
    .split(".")
    .filter((segment) => segment !== "_index")
    .map((segment) => segment.replace(/^\[(.*)\]$/, "$1").replace(/_$/, ""))
    .map((segment) => (segment.startsWith("$") ? NOT_OURS : segment));
  return `${ORIGIN}/${segments.join("/")}`;
}

const PARAMS = new Proxy({} as Record<string, string>, {
  get: (_target, name) =>
    name === "provider" ? "auth0" : name === "verb" ? "send" : name === "position" ? "1" : NOT_OURS,
});

type Handler = (args: unknown) => unknown;

async function answerOf(run: () => unknown): Promise<Response | null> {
  try {
    const result = await run();
    return result instanceof Response ? result : null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function signIn(handle: DatabaseHandle, email: string) {
  const contact = await handle.db
    .selectFrom("contacts")
    .innerJoin("hosts", "hosts.business_id", "contacts.business_id")
    .select(["contacts.id", "contacts.business_id"])
    .where("contacts.email", "=", email)
    .where("hosts.hostname", "=", HOST)
    .executeTakeFirstOrThrow();
  const cookie = await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
    businessId: contact.business_id,
    contactId: contact.id,
    authMethod: "credentials",
  });
  return cookie.split(";")[0]!;
}

describe("every API answers its errors in one shape (decision 069)", () => {
  let handle: DatabaseHandle;
  let customer: string;
  beforeAll(async () => {
    handle = await openSeededPglite();
    setDatabaseForTesting(handle);
    customer = await signIn(handle, "olivia@coastal.example");
  }, 120_000);
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await handle.close();
  });

  it("finds the API routes", () => {
    expect(apiRoutes.length).toBeGreaterThan(50);
  });

  for (const route of apiRoutes) {
    it(`${route.name}: every JSON error is { status, message, error: { code, message, fields? } }`, async () => {
      const mod = (await import(route.path)) as { loader?: Handler; action?: Handler };
      const callers: Record<string, Record<string, string>> = {
        anonymous: {},
        customer: { cookie: customer },
        "back-office key": { authorization: "Bearer pk_DEMO-acme-backoffice-key-not-for-real-use-0" },
      };
      const answers: { label: string; response: Response }[] = [];
      for (const [who, credentials] of Object.entries(callers)) {
        const headers = { host: HOST, origin: ORIGIN, ...credentials };
        const query = `?accountId=${NOT_OURS}&skip=x&take=&hostname=&token=&creditCardId=&bankAccountId=`;
        if (mod.loader) {
          const request = new Request(`${urlOf(route.name)}${query}`, { headers });
          const response = await answerOf(() => mod.loader!({ request, params: PARAMS, context: {} }));
          if (response) answers.push({ label: `${who} GET`, response });
        }
        if (mod.action) {
          const bodies: [string, string, string][] = [
            ["an empty JSON object", "{}", "application/json"],
            ["malformed JSON", "{", "application/json"],
            ["a string where an object goes", '"x"', "application/json"],
            ["XML", "<a/>", "application/xml"],
          ];
          for (const [what, body, type] of bodies) {
            for (const method of ["POST", "PUT", "DELETE"]) {
              const request = new Request(`${urlOf(route.name)}${query}`, {
                method,
                headers: { ...headers, "content-type": type, "idempotency-key": crypto.randomUUID() },
                body,
              });
              const response = await answerOf(() => mod.action!({ request, params: PARAMS, context: {} }));
              if (response) answers.push({ label: `${who} ${method} ${what}`, response });
            }
          }
          const crossSite = new Request(urlOf(route.name), {
            method: "POST",
            headers: { ...headers, origin: "https://evil.example", "content-type": "application/json" },
            body: "{}",
          });
          const response = await answerOf(() => mod.action!({ request: crossSite, params: PARAMS, context: {} }));
          if (response) answers.push({ label: `${who} cross-site POST`, response });
        }
      }
      let checked = 0;
      for (const { label, response } of answers) {
        if (response.status < 400) continue;
        if (!(response.headers.get("content-type") ?? "").includes("json")) continue;
        const body = (await response.json()) as unknown;
        const parsed = ProblemShape.safeParse(body);
        expect(parsed.success, `${route.name} ${label} → ${response.status} ${JSON.stringify(body)}`).toBe(true);
        const problem = parsed.data!;
        expect(problem.status, `${route.name} ${label}`).toBe(response.status);
        expect(problem.error.message, `${route.name} ${label}`).toBe(problem.message);
        checked += 1;
      }
      // Every API route but the sign-in redirects refuses something here with JSON.
      if (!REDIRECTING.has(route.name)) expect(checked, `${route.name}: no JSON error seen`).toBeGreaterThan(0);
    });
  }
});
