import { beforeAll, describe, expect, it } from "vitest";
import {
  answerOf,
  apiRoutes,
  BACK_OFFICE_KEY,
  HOST,
  ORIGIN,
  PARAMS,
  ProblemShape,
  signInAs,
  SIGN_IN_RESULT_ROUTES,
  SignInResultShape,
  urlOf,
  type ApiRouteModule,
} from "../../tests/support/api-sweep";
import { seededPgliteForTests } from "../../tests/support/test-db";

/**
 * Issue 35: every API route answers a method it does not take with a JSON 405 in the API's shape (decision
 * 069) and an `Allow` header naming the methods it does take — whoever asks, before anything else is looked
 * at. The sweep sends every method to every API route (no session, a customer, a back-office key) and holds
 * three things: every 405 is that answer; a route names the same methods every time; a method it names is
 * never refused as a method. New API routes are covered without being named.
 */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** The catch-alls answer 404 for every method: there is no resource there to take one. */
const NO_RESOURCE = new Set(["api.$.ts", "api.back-office.$.ts"]);

/** A verb each `…/:verb` route takes: an unknown verb is no resource (404), so the method is asked of a real one. */
const VERB_OF: Record<string, string> = {
  "api.back-office.agreement-offers_.$id_.$verb.ts": "resend",
  "api.back-office.contacts_.$contact_.permissions_.$verb.ts": "grant",
  "api.back-office.credit-applications_.$id_.$verb.ts": "accept",
  "api.back-office.payment-requests_.$id_.$verb.ts": "send",
  "api.back-office.payment-schedules_.$id_.$verb.ts": "send",
  "api.back-office.response-requests_.$id_.$verb.ts": "resend",
};

describe("every API route refuses a wrong method with a JSON 405 and Allow", () => {
  const db = seededPgliteForTests();
  let customer: string;
  beforeAll(async () => {
    customer = await signInAs(db(), "olivia@coastal.example");
  });

  for (const route of apiRoutes) {
    it(`${route.name}`, async () => {
      const mod = (await import(route.path)) as ApiRouteModule;
      const callers: Record<string, Record<string, string>> = {
        anonymous: {},
        customer: { cookie: customer },
        "back-office key": { authorization: BACK_OFFICE_KEY },
      };
      if (route.name.includes("$verb"))
        expect(VERB_OF[route.name], `${route.name}: name a verb it takes`).toBeDefined();
      const params = new Proxy({} as Record<string, string>, {
        get: (_target, name) => (name === "verb" ? VERB_OF[route.name] : PARAMS[name as string]),
      });
      const allowSeen = new Set<string>();
      for (const [who, credentials] of Object.entries(callers)) {
        const statuses = new Map<string, number>();
        for (const method of METHODS) {
          const hasBody = !["GET", "HEAD", "OPTIONS"].includes(method);
          const request = new Request(urlOf(route.name), {
            method,
            headers: {
              host: HOST,
              origin: ORIGIN,
              ...credentials,
              ...(hasBody ? { "content-type": "application/json" } : {}),
            },
            body: hasBody ? "{}" : undefined,
          });
          const handler = method === "GET" || method === "HEAD" ? mod.loader : mod.action;
          const label = `${route.name} ${who} ${method}`;
          expect(
            handler,
            `${label}: Remix would answer its own 405 (no ${method === "GET" || method === "HEAD" ? "loader" : "action"})`,
          ).toBeDefined();
          const response = await answerOf(() => handler!({ request, params, context: {} }));
          const status = response?.status ?? 200;
          statuses.set(method, status);
          if (status !== 405) continue;
          expect(response!.headers.get("content-type") ?? "", label).toContain("application/json");
          const body = (await response!.json()) as unknown;
          const shape = SIGN_IN_RESULT_ROUTES.has(route.name) ? SignInResultShape : ProblemShape;
          const parsed = shape.safeParse(body);
          expect(parsed.success, `${label} → ${JSON.stringify(body)}`).toBe(true);
          const allow = response!.headers.get("allow");
          expect(allow, `${label}: no Allow`).toBeTruthy();
          allowSeen.add(allow!);
        }
        if (NO_RESOURCE.has(route.name)) {
          for (const [method, status] of statuses) expect(status, `${route.name} ${who} ${method}`).toBe(404);
          continue;
        }
        expect(
          allowSeen.size,
          `${route.name} ${who}: Allow differs between answers: ${[...allowSeen].join(" | ")}`,
        ).toBe(1);
        const allowed = [...allowSeen][0]!.split(",").map((method) => method.trim());
        for (const method of allowed) expect(METHODS, `${route.name}: Allow names ${method}`).toContain(method);
        for (const method of METHODS) {
          const takes = allowed.includes(method) || (method === "HEAD" && allowed.includes("GET"));
          const status = statuses.get(method)!;
          if (takes) expect(status, `${route.name} ${who} ${method} is in Allow but was refused`).not.toBe(405);
          else expect(status, `${route.name} ${who} ${method} is not in Allow (${allowed.join(", ")})`).toBe(405);
        }
      }
    });
  }
});
