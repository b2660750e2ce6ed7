import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/services/auth/session.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { checkHealth } from "~/services/platform/heartbeat.server";
import { routeModuleFiles } from "../../tests/support/route-modules";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../tests/support/test-db";

/**
 * Issue 28's fuzz: every action in the portal, sent the bodies that took processes down (a sparse
 * list index of a billion, a million), a deep path, 10,000 fields, a 1 MB field, Conform's list
 * button pointed far away, and for the JSON APIs deep and wide JSON — signed in as a customer and as
 * a host admin, with a credit application's draft, so the bodies are read rather than turned away
 * at the door. Every answer must be a refusal (3xx before reading, or 4xx), small, the heap must
 * not grow with what the bodies asked for, and the heartbeat must stay green. New routes are
 * covered automatically. Speed is not asserted here (the bench measures it); a body that made a
 * process build what it asked for would exhaust the heap or the test's time-out instead.
 */
const routeFiles = routeModuleFiles();
const modules = routeFiles.map((route) => route.name);
const modulePath = (name: string) => routeFiles.find((route) => route.name === name)!.path;

const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

/** The URL a flat route file answers (`credit.directors.tsx` → `/credit/directors`), params filled in. */
function urlOf(file: string): string {
  const segments = file
    .replace(/\.(ts|tsx)$/, "")
    .split(".")
    .filter((segment) => segment !== "_index")
    .map((segment) => segment.replace(/^\[(.*)\]$/, "$1").replace(/_$/, ""))
    .map((segment) => (segment.startsWith("$") ? "00000000-0000-4000-8000-000000000000" : segment));
  return `${ORIGIN}/${segments.join("/")}`;
}

const PARAMS = new Proxy({} as Record<string, string>, {
  get: (_target, name) =>
    name === "provider"
      ? "auth0"
      : name === "verb"
        ? "send"
        : name === "position"
          ? "1"
          : "00000000-0000-4000-8000-000000000000",
});

const MEGABYTE = "x".repeat(1024 * 1024);
const FORM_BODIES: [string, string][] = [
  ["a billion-slot list index (the issue's 60 bytes)", "legalName=&entityType=company&people%5B999999999%5D.name=a"],
  ["a million-slot list index", "people%5B1000000%5D.name=a&intent=save"],
  ["a deep path", "a.b.c.d.e.f.g.h.i.j=1&intent=save"],
  ["10,000 fields", "a=&".repeat(10_000)],
  ["a 1 MB field", `intent=save&legalName=${MEGABYTE}`],
  [
    "Conform's list button pointed at a far index",
    `__intent__=${encodeURIComponent(JSON.stringify({ type: "update", payload: { name: "people[99999999].name", value: "a" } }))}`,
  ],
  [
    "Conform's state",
    `__state__=${encodeURIComponent(JSON.stringify({ validated: { [`x${"y".repeat(100)}`]: true } }))}`,
  ],
];

const deepJson = JSON.stringify(Array.from({ length: 2000 }).reduce<unknown>((inner) => ({ a: inner }), 1));
const JSON_BODIES: [string, string][] = [
  ["JSON nested 2,000 deep", deepJson],
  ["a JSON list of 5,000 items", JSON.stringify({ items: Array.from({ length: 5000 }, () => 0) })],
  ["a JSON object of 3,000 keys", JSON.stringify(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [i, 0])))],
  ["a list index in a JSON API's form body", "people%5B999999999%5D.name=a"],
];

type Action = (args: unknown) => unknown;

/** The status of whatever an action returned or threw, and how large its data would be on the wire. */
async function outcome(run: () => unknown): Promise<{ status: number; size: number }> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    const text = await result.text();
    return { status: result.status, size: text.length };
  }
  const wrapped = result as { data?: unknown; init?: { status?: number } | null } | undefined;
  if (wrapped && typeof wrapped === "object" && "init" in wrapped) {
    return { status: wrapped.init?.status ?? 200, size: JSON.stringify(wrapped.data ?? null).length };
  }
  if (result instanceof Error) throw result;
  return { status: 200, size: JSON.stringify(result ?? null).length };
}

async function signIn(handle: DatabaseHandle, email: string) {
  const contact = await handle.db
    .selectFrom("contacts")
    .innerJoin("businesses", "businesses.id", "contacts.business_id")
    .innerJoin("hosts", "hosts.business_id", "businesses.id")
    .select(["contacts.id", "contacts.business_id"])
    .where("contacts.email", "=", email)
    .where("hosts.hostname", "=", HOST)
    .executeTakeFirstOrThrow();
  const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
  const cookie = await createSession(request, {
    businessId: contact.business_id,
    contactId: contact.id,
    authMethod: "credentials",
  });
  return cookie.split(";")[0]!;
}

/** A credit application's draft cookie, from one valid first step, as anyone can get. */
async function creditDraftCookie() {
  const business = (await import("./_public+/credit+/business")) as { action: Action };
  const answer = await business.action({
    request: new Request(`${ORIGIN}/credit/business`, {
      method: "POST",
      headers: { host: HOST, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ legalName: "Harbourside Fit-outs", entityType: "company", acn: "004 028 077" }),
    }),
    params: {},
    context: {},
  });
  const cookie = (answer as Response).headers.get("set-cookie");
  if (!cookie) throw new Error("no draft cookie: the credit step's answer changed");
  return cookie.split(";")[0]!;
}

function suite(label: string, open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  describe(`hostile bodies reach every action (${label})`, () => {
    let database: { handle: DatabaseHandle; close: () => Promise<void> };
    let cookie: string;
    beforeAll(async () => {
      database = await open();
      setDatabaseForTesting(database.handle);
      const customer = await signIn(database.handle, "olivia@coastal.example");
      const admin = await signIn(database.handle, "admin@acme.example");
      // One cookie header carries all three: the session cookie names differ from the draft's,
      // and of two sessions the later wins, so the admin's goes last only on admin routes.
      cookie = `${customer}; ${await creditDraftCookie()}`;
      cookies.admin = `${admin}; ${await creditDraftCookie()}`;
    }, 120_000);
    afterAll(async () => {
      setDatabaseForTesting(undefined);
      await database.close();
    });
    const cookies: { admin?: string } = {};

    it("finds the actions", async () => {
      let actions = 0;
      for (const file of modules) if (((await import(modulePath(file))) as { action?: Action }).action) actions += 1;
      expect(actions).toBeGreaterThan(30);
    });

    for (const file of modules) {
      it(`${file}: refuses every hostile body, answers small, and the process stays well`, async () => {
        const mod = (await import(modulePath(file))) as { action?: Action };
        if (!mod.action) return;
        const isApi = file.startsWith("api.");
        const bodies = [
          ...FORM_BODIES.map(([name, body]) => [name, body, "application/x-www-form-urlencoded"] as const),
          ...(isApi ? JSON_BODIES.map(([name, body]) => [name, body, "application/json"] as const) : []),
        ];
        const heapBefore = process.memoryUsage().heapUsed;
        for (const [name, body, type] of bodies) {
          const request = new Request(urlOf(file), {
            method: "POST",
            headers: {
              host: HOST,
              origin: ORIGIN,
              "content-type": body.startsWith("{") || body.startsWith("[") ? "application/json" : type,
              cookie: file.startsWith("admin.") ? cookies.admin! : cookie,
              authorization: "Bearer pk_DEMO-acme-backoffice-key-not-for-real-use-0",
              "idempotency-key": crypto.randomUUID(),
            },
            body,
          });
          const { status, size } = await outcome(() => mod.action!({ request, params: PARAMS, context: {} }));
          expect(status >= 300 && status < 500, `${file} with ${name} answered ${status}`).toBe(true);
          // Nothing echoes more than the form limits let in (64 KB of body).
          expect(size, `${file} with ${name} answered ${size} characters`).toBeLessThan(70_000);
        }
        // What the bodies asked for was a billion slots; what is allowed is a few kilobytes each.
        expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
        expect((await checkHealth()).ok).toBe(true);
      });
    }
  });
}

suite("embedded database", async () => {
  const handle = await openSeededPglite();
  return { handle, close: () => handle.close() };
});

if (TEST_DATABASE_URL) {
  suite("PostgreSQL", async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
}
