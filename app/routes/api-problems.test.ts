import { beforeAll, describe, expect, it } from "vitest";
import {
  answerOf,
  apiRoutes,
  BACK_OFFICE_KEY,
  ORIGIN,
  PARAMS,
  ProblemShape,
  signInAs,
  SIGN_IN_RESULT_ROUTES,
  SignInResultShape,
  urlOf,
  type ApiRouteModule,
  HOST,
  NOT_OURS,
} from "../../tests/support/api-sweep";
import { seededPgliteForTests } from "../../tests/support/test-db";

/**
 * Decision 069: every API answers an error in one shape — the spec's `status` and `message`, and
 * `error: { code, message, fields? }` for programs. This sweep asks every API route for errors
 * (no session, a signed-in customer, a back-office key; a wrong method, an empty and a malformed
 * body, ids that are not ours) and checks every JSON answer of 400 or more against the shape. New
 * API routes are covered without being named.
 *
 * The sign-in API answers the spec's sign-in result instead (decision 092), and is held to that shape.
 */
describe("every API answers its errors in one shape (decision 069)", () => {
  const db = seededPgliteForTests();
  let customer: string;
  beforeAll(async () => {
    customer = await signInAs(db(), "olivia@coastal.example");
  });

  it("finds the API routes", () => {
    expect(apiRoutes.length).toBeGreaterThan(50);
  });

  for (const route of apiRoutes) {
    it(`${route.name}: every JSON error is { status, message, error: { code, message, fields? } }`, async () => {
      const mod = (await import(route.path)) as ApiRouteModule;
      const callers: Record<string, Record<string, string>> = {
        anonymous: {},
        customer: { cookie: customer },
        "back-office key": { authorization: BACK_OFFICE_KEY },
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
        if (SIGN_IN_RESULT_ROUTES.has(route.name)) {
          const result = SignInResultShape.safeParse(body);
          expect(result.success, `${route.name} ${label} → ${response.status} ${JSON.stringify(body)}`).toBe(true);
          expect(result.data!.status, `${route.name} ${label}`).toBe(response.status);
          checked += 1;
          continue;
        }
        const parsed = ProblemShape.safeParse(body);
        expect(parsed.success, `${route.name} ${label} → ${response.status} ${JSON.stringify(body)}`).toBe(true);
        const problem = parsed.data!;
        expect(problem.status, `${route.name} ${label}`).toBe(response.status);
        expect(problem.error.message, `${route.name} ${label}`).toBe(problem.message);
        checked += 1;
      }
      // Every API route refuses something here with JSON.
      expect(checked, `${route.name}: no JSON error seen`).toBeGreaterThan(0);
    });
  }
});
