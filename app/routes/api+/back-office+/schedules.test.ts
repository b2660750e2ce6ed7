import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_API_KEYS } from "../../../../db/seed/demo";
import { scheduleFixtures } from "../../../../tests/support/schedule-fixtures";
import { startSmtpCatcher, type SmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import { todayIn } from "~/lib/dates";
import { addDays } from "~/lib/instalments";
import { createApiKey } from "~/services/backoffice/api-keys.server";
import { checkLinkToken } from "~/services/links/link-tokens.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import { acceptSchedule } from "~/services/schedules/acceptance.server";
import * as schedules from "./payment-schedules";
import * as oneSchedule from "./payment-schedules_.$id";
import * as verbs from "./payment-schedules_.$id_.$verb";

/**
 * The back-office API's payment schedules (issue 15; decisions 032 and 034): keys and scopes,
 * proposing with a message per field for every bad input, idempotency, reading one with its
 * instalments, and send / resend / withdraw / cancel — another business's schedule is a 404.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

const ACME_KEY = DEMO_API_KEYS["acme.localhost"]!;
const KIWI_KEY = DEMO_API_KEYS["kiwi.localhost"]!;

let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;
beforeAll(async () => {
  catcher = await startSmtpCatcher();
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});
afterAll(async () => {
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});

type CallOptions = {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
};

async function call(handler: Handler, method: string, path: string, options: CallOptions = {}) {
  const host = "acme.localhost:3000";
  const headers: Record<string, string> = { host, ...options.headers };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? ACME_KEY}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`http://${host}${path}`, { method, headers, body });
  let response: Response;
  try {
    response = await handler({ request, params: options.params ?? {}, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null };
}

const PATH = "/api/back-office/payment-schedules";
const propose = (body: unknown, options: CallOptions = {}) =>
  call(schedules.action, "POST", PATH, { body, ...options });
const getOne = (id: string, options: CallOptions = {}) =>
  call(oneSchedule.loader, "GET", `${PATH}/${encodeURIComponent(id)}`, { params: { id }, ...options });
const verb = (id: string, name: string, options: CallOptions = {}) =>
  call(verbs.action, "POST", `${PATH}/${id}/${name}`, { params: { id, verb: name }, ...options });

function apiSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme: string;
  let fx: ReturnType<typeof scheduleFixtures>;
  const keys: Record<string, string> = {};
  const today = () => todayIn("Australia/Sydney", new Date());
  const day = (n: number) => addDays(today(), n);

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    fx = scheduleFixtures(handle.db);
    acme = await fx.businessOf("acme.localhost");
    keys.read = (await createApiKey(acme, "schedules read", ["schedules:read"])).key;
    keys.requests = (
      await createApiKey(acme, "requests only", ["payment-requests:read", "payment-requests:write"])
    ).key;
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });
  beforeEach(() => catcher.clear());

  const scheduleCount = async () =>
    Number(
      (
        await handle.db
          .selectFrom("payment_schedules")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function newAccount() {
    return fx.account(acme);
  }

  const body = (scope: { accountNumber: string; email: string }, overrides: Record<string, unknown> = {}) => ({
    account: scope.accountNumber,
    contact: scope.email,
    amountCents: 900_00,
    description: "Three months for the Katoomba job",
    instalments: { count: 3, frequency: "monthly", firstDate: day(5) },
    ...overrides,
  });

  it("needs a key with the scope: none is a 401, a key without it a 403", async () => {
    expect((await call(schedules.loader, "GET", PATH, { key: null })).status).toBe(401);
    const forbidden = await call(schedules.loader, "GET", PATH, { key: keys.requests });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.message).toContain("schedules:read");
    const scope = await newAccount();
    const before = await scheduleCount();
    const readOnly = await propose(body(scope), { key: keys.read });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.message).toContain("schedules:write");
    expect(await scheduleCount()).toBe(before);
  });

  it("proposes and sends: 201 with every instalment, and the email's link opens the proposal", async () => {
    const scope = await newAccount();
    const response = await propose(body(scope, { send: true }));
    expect(response.status, response.text).toBe(201);
    const { schedule, delivery } = response.body;
    expect(schedule.reference).toMatch(/^PS-[0-9A-Z]{8}$/);
    expect(schedule.state).toBe("proposed");
    expect(schedule.instalments.map((i: { amountCents: number }) => i.amountCents)).toEqual([300_00, 300_00, 300_00]);
    expect(schedule.instalments[0]).toMatchObject({ seq: 1, dueDate: day(5), status: "scheduled", view: "upcoming" });
    expect(delivery).toEqual({ email: scope.email, sent: true });
    expect(response.text).not.toMatch(/[A-Za-z0-9_-]{59}/);
    const mail = await catcher.waitForMail(scope.email);
    const token = mail.links.find((l) => l.includes("/payment-schedule/acceptance/"))!.split("/acceptance/")[1]!;
    expect((await checkLinkToken(acme, "payment-schedule", token)).status).toBe("valid");
    expect(mail.html).toContain("Review and accept");
  });

  it("answers a repeat with the same Idempotency-Key with the first answer, and another body with 422", async () => {
    const scope = await newAccount();
    const key = randomUUID();
    const first = await propose(body(scope), { headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    const before = await scheduleCount();
    const again = await propose(body(scope), { headers: { "idempotency-key": key } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.schedule.id).toBe(first.body.schedule.id);
    const other = await propose(body(scope, { amountCents: 901_00 }), { headers: { "idempotency-key": key } });
    expect(other.status).toBe(422);
    expect(await scheduleCount()).toBe(before);
  });

  it("names the field of every bad input in a 400, and proposes nothing", async () => {
    const scope = await newAccount();
    const other = await newAccount();
    const [theirs] = await fx.invoices(other, [100_00]);
    const cases: [string, Record<string, unknown>, string][] = [
      [
        "instalments not adding up",
        {
          instalments: [
            { dueDate: day(1), amountCents: 400_00 },
            { dueDate: day(2), amountCents: 400_00 },
          ],
        },
        "instalments",
      ],
      ["a date in the past", { instalments: [{ dueDate: day(-2), amountCents: 900_00 }] }, "instalments.0.dueDate"],
      [
        "a zero instalment",
        {
          instalments: [
            { dueDate: day(1), amountCents: 900_00 },
            { dueDate: day(2), amountCents: 0 },
          ],
        },
        "instalments.1.amountCents",
      ],
      [
        "a negative instalment",
        { instalments: [{ dueDate: day(1), amountCents: -900_00 }] },
        "instalments.0.amountCents",
      ],
      [
        "a fractional instalment",
        { instalments: [{ dueDate: day(1), amountCents: 899_99.9 }] },
        "instalments.0.amountCents",
      ],
      [
        "unordered dates",
        {
          instalments: [
            { dueDate: day(9), amountCents: 450_00 },
            { dueDate: day(3), amountCents: 450_00 },
          ],
        },
        "instalments.1.dueDate",
      ],
      ["too many", { instalments: { count: 200, frequency: "weekly", firstDate: day(1) } }, "instalments.count"],
      [
        "a bad frequency",
        { instalments: { count: 3, frequency: "yearly", firstDate: day(1) } },
        "instalments.frequency",
      ],
      [
        "another account's invoice",
        { amountCents: undefined, description: undefined, invoices: [theirs!.number] },
        "invoices.0",
      ],
      ["an unknown contact", { contact: "ghost@example.com" }, "contact"],
      ["a zero amount", { amountCents: 0 }, "amountCents"],
      ["a hostile description", { description: "<img src=x onerror=alert(1)>".repeat(40) }, "description"],
    ];
    const before = await scheduleCount();
    for (const [what, change, field] of cases) {
      const response = await propose(body(scope, change));
      expect(response.status, `${what}: ${response.text}`).toBe(400);
      expect(response.body.error.code).toBe("validation");
      expect(Object.keys(response.body.error.fields), what).toContain(field);
      expect(response.body.error.fields[field], what).toEqual(expect.any(String));
    }
    expect(
      (await propose(undefined, { rawBody: "{not json", headers: { "content-type": "application/json" } })).status,
    ).toBe(400);
    expect((await propose(undefined, { rawBody: "[]", headers: { "content-type": "application/json" } })).status).toBe(
      400,
    );
    expect((await propose(undefined, { rawBody: "{}", headers: { "content-type": "text/plain" } })).status).toBe(415);
    const huge = await propose(undefined, {
      rawBody: JSON.stringify({ description: "x".repeat(70_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(huge.status).toBe(413);
    const send = await propose(body(scope, { send: "yes" }));
    expect(send.body.error.fields.send).toBeTruthy();
    expect(await scheduleCount()).toBe(before);
  });

  it("reads one with its instalments and tries, lists by state, and keeps another business's out", async () => {
    const scope = await newAccount();
    const made = (await propose(body(scope))).body.schedule;
    const byReference = await getOne(made.reference);
    expect(byReference.status).toBe(200);
    expect(byReference.body.schedule).toMatchObject({
      id: made.id,
      totalCents: 900_00,
      remainingCents: 900_00,
      attempts: { total: 0, succeeded: 0, declined: 0 },
      wayToPay: null,
    });
    expect(byReference.body.schedule.instalments).toHaveLength(3);
    expect((await getOne(made.id)).body.schedule.reference).toBe(made.reference);
    for (const id of [made.reference, made.id]) {
      const foreign = await getOne(id, { key: KIWI_KEY });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe("not_found");
    }
    expect((await getOne("PS-'; DROP TABLE x")).status).toBe(404);
    const listed = await call(schedules.loader, "GET", `${PATH}?state=proposed&account=${scope.accountNumber}`);
    expect(listed.body.items.map((i: { reference: string }) => i.reference)).toEqual([made.reference]);
    const bad = await call(schedules.loader, "GET", `${PATH}?state=asleep&limit=500`);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(expect.arrayContaining(["state", "limit"]));
    const kiwi = await call(schedules.loader, "GET", `${PATH}?limit=100`, { key: KIWI_KEY });
    expect(kiwi.body.items.map((i: { id: string }) => i.id)).not.toContain(made.id);
  });

  it("sends, resends, withdraws and cancels with 409 where the state does not allow it", async () => {
    const scope = await newAccount();
    const made = (await propose(body(scope))).body.schedule;
    expect((await verb(made.reference, "resend")).status).toBe(409);
    const sent = await verb(made.reference, "send");
    expect(sent.status).toBe(200);
    expect(sent.body.delivery.sent).toBe(true);
    const again = await verb(made.reference, "send");
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/resend/);
    expect((await verb(made.id, "resend")).body.schedule.sendCount).toBe(2);
    expect((await verb(made.reference, "cancel")).status).toBe(409);
    expect((await verb(made.reference, "send", { key: KIWI_KEY })).status).toBe(404);
    expect((await verb(made.reference, "withdraw", { key: KIWI_KEY })).status).toBe(404);
    const withdrawn = await verb(made.reference, "withdraw");
    expect(withdrawn.body.schedule.state).toBe("withdrawn");
    expect((await verb(made.reference, "withdraw")).status).toBe(200);
    expect((await verb(made.reference, "resend")).status).toBe(409);

    // Accepted (by its contact, with a card), then cancelled by the business.
    const other = await newAccount();
    const active = (await propose(body(other))).body.schedule;
    const cardId = await fx.card(other);
    const accepted = await acceptSchedule(
      { businessId: acme, contactId: other.contactId, clientIp: "198.51.100.1" },
      {
        reference: active.reference,
        way: { kind: "card", cardId },
        authorityAccepted: true,
        authorityText: "I agree.",
      },
    );
    expect(accepted.ok).toBe(true);
    expect((await verb(active.reference, "withdraw")).status).toBe(409);
    const cancelled = await verb(active.reference, "cancel", { headers: { "idempotency-key": randomUUID() } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.schedule.state).toBe("cancelled");
    expect(cancelled.body.schedule.instalments.every((i: { status: string }) => i.status === "cancelled")).toBe(true);

    expect((await verb(active.reference, "pause")).status).toBe(404);
    const extra = await verb(active.reference, "cancel", { body: { reason: "x" } });
    expect(extra.status).toBe(400);
    expect(extra.body.error.fields.reason).toBeTruthy();
    const asGet = await verbs.loader({ params: { verb: "cancel" } });
    expect(asGet.status).toBe(405);
  });
}

describe("the back-office schedules API on PGlite", () => {
  apiSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("the back-office schedules API on PostgreSQL (TEST_DATABASE_URL)", () => {
  apiSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
