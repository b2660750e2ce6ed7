import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SCHEDULE_REFERENCE, DEMO_SCHEDULE_TOKEN } from "../../../db/seed/schedules";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { scheduleFixtures } from "../../../tests/support/schedule-fixtures";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { startOfDayIn, todayIn } from "~/lib/dates";
import { addDays } from "~/lib/instalments";
import { checkLinkToken } from "../links/link-tokens.server";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import { RequestProblem } from "../platform/problems.server";
import { acceptSchedule, changeWayToPay, parseWayToPay } from "./acceptance.server";
import { cancelSchedule, createScheduleLink, proposeSchedule, sendSchedule, withdrawSchedule } from "./commands.server";
import { getSchedule, listSchedules, scheduleInstalments } from "./queries.server";
import type { ScheduleView } from "./schedule-rows.server";

let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
});
afterAll(async () => {
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});
beforeEach(() => {
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});
afterEach(() => setClockForTesting(undefined));

async function problemOf(run: () => Promise<unknown>): Promise<RequestProblem> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RequestProblem) return error;
    throw error;
  }
  throw new Error("expected a RequestProblem");
}

const SYDNEY = "Australia/Sydney";
const AUTHORITY = "I authorise Acme Plumbing Supplies to charge each instalment on its day.";

function scheduleSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme: string;
  let kiwi: string;
  let fx: ReturnType<typeof scheduleFixtures>;
  const today = () => todayIn(SYDNEY, new Date());

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    fx = scheduleFixtures(handle.db);
    acme = await fx.businessOf("acme.localhost");
    kiwi = await fx.businessOf("kiwi.localhost");
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const counts = async () => {
    const count = async (table: "payment_schedules" | "schedule_instalments" | "payment_schedule_invoices") =>
      Number(
        (
          await handle.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      schedules: await count("payment_schedules"),
      instalments: await count("schedule_instalments"),
      invoices: await count("payment_schedule_invoices"),
    };
  };

  /** A proposal on a new account of its own: `count` monthly instalments of `total` from today + `startIn` days. */
  async function proposal(options: { total?: number; count?: number; startIn?: number; portal?: boolean } = {}) {
    const scope = await fx.account(acme, { portal: options.portal });
    const schedule = await proposeSchedule(acme, {
      account: scope.accountNumber,
      contact: scope.email,
      amountCents: options.total ?? 600_00,
      description: "Six months to pay for the Newcastle fit-out",
      instalments: {
        count: options.count ?? 6,
        frequency: "monthly",
        firstDate: addDays(today(), options.startIn ?? 7),
      },
    });
    return { scope, schedule };
  }

  const actorOf = (scope: { businessId: string; contactId: string }) => ({
    businessId: scope.businessId,
    contactId: scope.contactId,
    clientIp: "203.0.113.9",
  });

  async function accepted(options: Parameters<typeof proposal>[0] = {}) {
    const made = await proposal(options);
    const cardId = await fx.card(made.scope);
    const outcome = await acceptSchedule(actorOf(made.scope), {
      reference: made.schedule.reference,
      way: { kind: "card", cardId },
      authorityAccepted: true,
      authorityText: AUTHORITY,
    });
    expect(outcome.ok).toBe(true);
    return { ...made, cardId, schedule: (outcome as { ok: true; schedule: ScheduleView }).schedule };
  }

  describe("the seeded schedules", () => {
    it("give acme a proposal with the README's fixed link, an active schedule with real payments, and one in arrears", async () => {
      const proposal = (await getSchedule(acme, DEMO_SCHEDULE_REFERENCE))!;
      expect(proposal.state).toBe("proposed");
      expect(proposal.instalments.map((i) => i.amountCents)).toEqual(Array(6).fill(500_00));
      const check = await checkLinkToken(acme, "payment-schedule", DEMO_SCHEDULE_TOKEN);
      expect(check.status === "valid" && check.link.subjectId).toBe(proposal.id);

      const active = (await getSchedule(acme, "PS-DEMO0001"))!;
      expect(active.state).toBe("active");
      expect(active.wayToPay).toMatchObject({ kind: "card", brand: "visa", last4: "4242" });
      expect(active.account.number).toBe("ACME-1002");
      expect(active.instalments.map((i) => i.view)).toEqual([
        "paid",
        "paid",
        "upcoming",
        "upcoming",
        "upcoming",
        "upcoming",
      ]);
      expect(active.paidCents).toBe(600_00);
      expect(active.acceptance?.authorityText).toContain("PS-DEMO0001");
      for (const paid of active.instalments.slice(0, 2)) {
        expect(paid.payment?.status).toBe("succeeded");
        const payment = await handle.db
          .selectFrom("payments")
          .select(["amount_cents", "subtotal_cents", "merchant_fee_cents", "purpose", "schedule_instalment_id"])
          .where("reference", "=", paid.payment!.reference)
          .executeTakeFirstOrThrow();
        expect(payment).toMatchObject({
          subtotal_cents: 300_00,
          merchant_fee_cents: 3_60,
          amount_cents: 303_60,
          purpose: "instalment",
          schedule_instalment_id: paid.id,
        });
        const lines = await handle.db
          .selectFrom("statement_lines")
          .select(["debit_cents", "credit_cents"])
          .where("reference", "=", paid.payment!.reference)
          .execute();
        // The statement nets to the instalment: the payment's credit less its surcharge.
        expect(lines.reduce((net, line) => net + line.credit_cents - line.debit_cents, 0)).toBe(300_00);
      }
      expect(active.attempts).toMatchObject({ total: 2, succeeded: 2 });

      const arrears = (await getSchedule(acme, "PS-DEMO0002"))!;
      expect(arrears.state).toBe("arrears");
      expect(arrears.instalments.map((i) => i.view)).toEqual(["paid", "failed", "upcoming", "upcoming", "upcoming"]);
      expect(arrears.instalments[1]).toMatchObject({ attempts: 3, lastFailure: "insufficient_funds" });
      expect(arrears.attempts).toMatchObject({ total: 4, succeeded: 1, declined: 3 });
    });
  });

  describe("proposing", () => {
    it("splits an amount into equal monthly instalments, the rounding cents on the last, each first tried on its day", async () => {
      const { schedule } = await proposal({ total: 100_00, count: 3 });
      expect(schedule.reference).toMatch(/^PS-[0-9A-Z]{8}$/);
      expect(schedule.state).toBe("proposed");
      expect(schedule.totalCents).toBe(100_00);
      expect(schedule.remainingCents).toBe(100_00);
      expect(schedule.instalments.map((i) => i.amountCents)).toEqual([33_33, 33_33, 33_34]);
      const first = addDays(today(), 7);
      expect(schedule.instalments[0]!.dueDate).toBe(first);
      expect(schedule.instalments.map((i) => i.seq)).toEqual([1, 2, 3]);
      expect(schedule.instalments.every((i) => i.status === "scheduled" && i.view === "upcoming")).toBe(true);
      expect(schedule.instalments.map((i) => i.nextAttemptOn)).toEqual(schedule.instalments.map((i) => i.dueDate));
      expect(schedule.nextInstalment).toMatchObject({ seq: 1, dueDate: first, amountCents: 33_33 });
      // Fourteen days to accept by default, but never past the end of the first instalment's day.
      const latest = startOfDayIn(SYDNEY, addDays(first, 1)).getTime();
      expect(new Date(schedule.expiresAt).getTime()).toBeLessThanOrEqual(latest);
      expect(new Date(schedule.expiresAt).getTime()).toBe(latest);
      const stored = await scheduleInstalments(handle.db, acme, schedule.id);
      expect(stored.map((i) => i.amountCents)).toEqual([33_33, 33_33, 33_34]);
    });

    it("takes explicit days and amounts, and invoices for their open balances", async () => {
      const scope = await fx.account(acme);
      const [a, b] = await fx.invoices(scope, [300_00, 450_50]);
      const schedule = await proposeSchedule(acme, {
        account: scope.accountId,
        contact: scope.contactId,
        invoices: [a!.number, b!.id],
        instalments: [
          { dueDate: today(), amountCents: 250_00 },
          { dueDate: addDays(today(), 14), amountCents: 250_00 },
          { dueDate: addDays(today(), 28), amountCents: 250_50 },
        ],
      });
      expect(schedule.totalCents).toBe(750_50);
      expect(schedule.invoices.map((i) => i.number).sort()).toEqual([a!.number, b!.number].sort());
      expect(schedule.instalments[0]!.view).toBe("due");
      // A first instalment today: the proposal expires by the end of today in Sydney.
      expect(new Date(schedule.expiresAt).getTime()).toBeLessThanOrEqual(
        startOfDayIn(SYDNEY, addDays(today(), 1)).getTime(),
      );
    });

    it("refuses an invoice already in another live schedule, another account's invoice, and a paid one", async () => {
      const scope = await fx.account(acme);
      const [invoice] = await fx.invoices(scope, [200_00]);
      const plan = { count: 2, frequency: "fortnightly", firstDate: addDays(today(), 3) };
      const first = await proposeSchedule(acme, {
        account: scope.accountNumber,
        contact: scope.email,
        invoices: [invoice!.number],
        instalments: plan,
      });
      const before = await counts();
      const held = await problemOf(() =>
        proposeSchedule(acme, {
          account: scope.accountNumber,
          contact: scope.email,
          invoices: [invoice!.number],
          instalments: plan,
        }),
      );
      expect(held.code).toBe("validation");
      expect(held.fields!["invoices.0"]).toContain(first.reference);
      const other = await fx.account(acme);
      const [theirs] = await fx.invoices(other, [100_00]);
      const foreign = await problemOf(() =>
        proposeSchedule(acme, {
          account: scope.accountNumber,
          contact: scope.email,
          invoices: [theirs!.id],
          instalments: plan,
        }),
      );
      expect(foreign.fields!["invoices.0"]).toMatch(/No invoice .* on this account/);
      expect(await counts()).toEqual(before);
      // Once the first is withdrawn the invoice is free again.
      await withdrawSchedule(acme, first.reference);
      const again = await proposeSchedule(acme, {
        account: scope.accountNumber,
        contact: scope.email,
        invoices: [invoice!.number],
        instalments: plan,
      });
      expect(again.totalCents).toBe(200_00);
    });

    it("answers every bad input with a message on its field, and changes nothing", async () => {
      const scope = await fx.account(acme);
      const stranger = await fx.account(acme);
      const base = {
        account: scope.accountNumber,
        contact: scope.email,
        amountCents: 300_00,
        description: "Fit-out",
      };
      const day = (n: number) => addDays(today(), n);
      const cases: [string, Record<string, unknown>, string, RegExp][] = [
        [
          "instalments not adding up",
          {
            instalments: [
              { dueDate: day(1), amountCents: 100_00 },
              { dueDate: day(2), amountCents: 100_00 },
            ],
          },
          "instalments",
          /add up to \$200\.00, but the schedule is for \$300\.00 \(\$100\.00 short\)/,
        ],
        [
          "a date in the past",
          { instalments: [{ dueDate: day(-1), amountCents: 300_00 }] },
          "instalments.0.dueDate",
          /before today/,
        ],
        [
          "a zero instalment",
          {
            instalments: [
              { dueDate: day(1), amountCents: 0 },
              { dueDate: day(2), amountCents: 300_00 },
            ],
          },
          "instalments.0.amountCents",
          /more than zero/,
        ],
        [
          "a negative instalment",
          {
            instalments: [
              { dueDate: day(1), amountCents: 400_00 },
              { dueDate: day(2), amountCents: -100_00 },
            ],
          },
          "instalments.1.amountCents",
          /more than zero/,
        ],
        [
          "a fractional amount",
          {
            instalments: [
              { dueDate: day(1), amountCents: 299_99.5 },
              { dueDate: day(2), amountCents: 0.5 },
            ],
          },
          "instalments.0.amountCents",
          /fraction of a cent/,
        ],
        [
          "an amount as text",
          { instalments: [{ dueDate: day(1), amountCents: "300.00" }] },
          "instalments.0.amountCents",
          /whole number of cents/,
        ],
        [
          "days out of order",
          {
            instalments: [
              { dueDate: day(5), amountCents: 150_00 },
              { dueDate: day(5), amountCents: 150_00 },
            ],
          },
          "instalments.1.dueDate",
          /later than the one before/,
        ],
        [
          "not a real date",
          { instalments: [{ dueDate: "2027-02-30", amountCents: 300_00 }] },
          "instalments.0.dueDate",
          /real date/,
        ],
        [
          "too many",
          {
            instalments: Array.from({ length: 61 }, (_, i) => ({ dueDate: day(i + 1), amountCents: 1 })),
          },
          "instalments",
          /At most 60/,
        ],
        [
          "too many regular ones",
          { instalments: { count: 61, frequency: "weekly", firstDate: day(1) } },
          "instalments.count",
          /1 to 60/,
        ],
        [
          "a bad frequency",
          { instalments: { count: 3, frequency: "daily", firstDate: day(1) } },
          "instalments.frequency",
          /weekly, fortnightly, monthly, quarterly/,
        ],
        [
          "a first day in the past",
          { instalments: { count: 3, frequency: "monthly", firstDate: day(-3) } },
          "instalments.firstDate",
          /before today/,
        ],
        [
          "more instalments than cents",
          { amountCents: 5, instalments: { count: 6, frequency: "weekly", firstDate: day(1) } },
          "instalments.count",
          /cannot be split into 6/,
        ],
        ["no instalments", {}, "instalments", /Give the instalments/],
        ["an empty list", { instalments: [] }, "instalments", /at least one/],
        [
          "a hostile instalment",
          { instalments: ["<script>alert(1)</script>"] },
          "instalments.0",
          /dueDate, amountCents/,
        ],
        [
          "an extra field in an instalment",
          { instalments: [{ dueDate: day(1), amountCents: 300_00, "'; DROP TABLE invoices;--": 1 }] },
          "instalments.0.'; DROP TABLE invoices;--",
          /not part of an instalment/,
        ],
        [
          "an unknown contact",
          { contact: "nobody@nowhere.example", instalments: { count: 1, frequency: "monthly", firstDate: day(1) } },
          "contact",
          /No contact "nobody@nowhere\.example"/,
        ],
        [
          "another account's contact",
          { contact: stranger.email, instalments: { count: 1, frequency: "monthly", firstDate: day(1) } },
          "contact",
          /may not act for account/,
        ],
        [
          "an account of another business",
          { account: "KIWI-1000", instalments: { count: 1, frequency: "monthly", firstDate: day(1) } },
          "account",
          /No account "KIWI-1000"/,
        ],
        [
          "a zero amount",
          { amountCents: 0, instalments: { count: 1, frequency: "monthly", firstDate: day(1) } },
          "amountCents",
          /more than zero/,
        ],
        [
          "an expiry after the first day",
          { expiresInDays: 30, instalments: { count: 2, frequency: "monthly", firstDate: day(2) } },
          "expiresInDays",
          /by the end of its first instalment's day/,
        ],
        [
          "an unknown field",
          { colour: "red", instalments: { count: 1, frequency: "monthly", firstDate: day(1) } },
          "colour",
          /not part of the call/,
        ],
        [
          "invoices and an amount",
          { invoices: ["X"], instalments: { count: 1, frequency: "monthly", firstDate: day(1) } },
          "amountCents",
          /either invoices/,
        ],
      ];
      const before = await counts();
      for (const [what, change, field, message] of cases) {
        const problem = await problemOf(() => proposeSchedule(acme, { ...base, ...change }));
        expect(problem.code, what).toBe("validation");
        expect(problem.fields?.[field], `${what}: ${JSON.stringify(problem.fields)}`).toMatch(message);
      }
      expect(await counts()).toEqual(before);
    });

    it("keeps a schedule to its business: another business's reference or id is not found", async () => {
      const { schedule } = await proposal();
      expect(await getSchedule(kiwi, schedule.reference)).toBeNull();
      expect(await getSchedule(kiwi, schedule.id)).toBeNull();
      expect(await getSchedule(acme, "PS-<script>")).toBeNull();
      expect(await getSchedule(acme, "x".repeat(10_000))).toBeNull();
      for (const run of [
        () => sendSchedule(kiwi, schedule.reference),
        () => withdrawSchedule(kiwi, schedule.id),
        () => cancelSchedule(kiwi, schedule.reference),
      ]) {
        expect((await problemOf(run)).code).toBe("not-found");
      }
      expect((await listSchedules(kiwi, { limit: 100 })).items.map((i) => i.id)).not.toContain(schedule.id);
    });
  });

  describe("sending", () => {
    it("emails a link that opens the proposal; a resend revokes it; only a proposal is sent", async () => {
      const { schedule } = await proposal({ total: 120_00, count: 2 });
      const since = Date.now();
      const sent = await sendSchedule(acme, schedule.reference);
      expect(sent.delivery).toEqual({ email: schedule.contact.email, sent: true });
      expect(sent.schedule.sentAt).not.toBeNull();
      const mail = await catcher.waitForMail(schedule.contact.email, { after: since });
      expect(mail.subject).toContain(schedule.reference);
      expect(mail.text).toContain("$60.00");
      const link = mail.links.find((l) => l.includes("/payment-schedule/acceptance/"))!;
      const token = link.split("/payment-schedule/acceptance/")[1]!;
      const check = await checkLinkToken(acme, "payment-schedule", token);
      expect(check.status).toBe("valid");
      expect(check.status === "valid" && check.link.subjectId).toBe(schedule.id);
      expect((await checkLinkToken(kiwi, "payment-schedule", token)).status).toBe("unknown");

      expect((await problemOf(() => sendSchedule(acme, schedule.reference))).message).toMatch(/resend/);
      const resent = await sendSchedule(acme, schedule.reference, { resend: true });
      expect(resent.schedule.sendCount).toBe(2);
      expect((await checkLinkToken(acme, "payment-schedule", token)).status).toBe("revoked");

      const fresh = await proposal();
      expect((await problemOf(() => sendSchedule(acme, fresh.schedule.id, { resend: true }))).message).toMatch(
        /send it first/,
      );
      await withdrawSchedule(acme, fresh.schedule.id);
      expect((await problemOf(() => sendSchedule(acme, fresh.schedule.id))).message).toMatch(/withdrawn/);
    });

    it("does not send an expired proposal", async () => {
      const { schedule } = await proposal({ startIn: 2 });
      setClockForTesting(fixedClock(new Date(Date.parse(schedule.expiresAt) + 1000)));
      const problem = await problemOf(() => sendSchedule(acme, schedule.reference));
      expect(problem.code).toBe("conflict");
      expect(problem.message).toMatch(/expired/);
      expect((await getSchedule(acme, schedule.id))!.state).toBe("expired");
    });
  });

  describe("accepting", () => {
    it("binds a saved card of the account, records who, when, where and the words, and revokes the link", async () => {
      const { scope, schedule } = await proposal();
      await sendSchedule(acme, schedule.reference);
      const cardId = await fx.card(scope);
      const outcome = await acceptSchedule(actorOf(scope), {
        reference: schedule.reference,
        way: { kind: "card", cardId },
        authorityAccepted: true,
        authorityText: AUTHORITY,
      });
      expect(outcome.ok).toBe(true);
      const view = (outcome as { ok: true; schedule: ScheduleView }).schedule;
      expect(view.state).toBe("active");
      expect(view.wayToPay).toMatchObject({ kind: "card", id: cardId, brand: "visa", last4: "1111" });
      expect(view.acceptance).toMatchObject({
        contactId: scope.contactId,
        ip: "203.0.113.9",
        authorityText: AUTHORITY,
      });
      const links = await handle.db
        .selectFrom("link_tokens")
        .select("revoked_at")
        .where("subject_id", "=", schedule.id)
        .execute();
      expect(links.length).toBeGreaterThan(0);
      expect(links.every((l) => l.revoked_at !== null)).toBe(true);
      const audit = await handle.db
        .selectFrom("audit_events")
        .select("details")
        .where("action", "=", "schedule.accepted")
        .where("contact_id", "=", scope.contactId)
        .executeTakeFirstOrThrow();
      expect(audit.details).toMatchObject({ reference: schedule.reference, way: "card", id: cardId });
    });

    it("refuses a second accept, and of two at the same moment exactly one wins", async () => {
      const { scope, schedule } = await proposal();
      const cardId = await fx.card(scope);
      const agreementId = await fx.agreement(scope);
      const input = (way: { kind: "card"; cardId: string } | { kind: "payto"; agreementId: string }) => ({
        reference: schedule.reference,
        way,
        authorityAccepted: true,
        authorityText: AUTHORITY,
      });
      const [a, b] = await Promise.all([
        acceptSchedule(actorOf(scope), input({ kind: "card", cardId })),
        acceptSchedule(actorOf(scope), input({ kind: "payto", agreementId })),
      ]);
      expect([a.ok, b.ok].sort()).toEqual([false, true]);
      const loser = (a.ok ? b : a) as { ok: false; reason: string };
      expect(loser.reason).toBe("accepted");
      const again = await acceptSchedule(actorOf(scope), input({ kind: "card", cardId }));
      expect(again).toEqual({ ok: false, reason: "accepted" });
      const row = await handle.db
        .selectFrom("payment_schedules")
        .select(["card_id", "payto_agreement_id"])
        .where("id", "=", schedule.id)
        .executeTakeFirstOrThrow();
      expect([row.card_id, row.payto_agreement_id].filter(Boolean)).toHaveLength(1);
    });

    it("refuses a withdrawn, expired or cancelled proposal, and another account's or an unusable way to pay", async () => {
      const withdrawn = await proposal();
      const card = await fx.card(withdrawn.scope);
      await withdrawSchedule(acme, withdrawn.schedule.reference);
      const accept = (scope: { businessId: string; contactId: string }, reference: string, way: unknown, tick = true) =>
        acceptSchedule(actorOf(scope), {
          reference,
          way: way as { kind: "card"; cardId: string },
          authorityAccepted: tick,
          authorityText: AUTHORITY,
        });
      expect(await accept(withdrawn.scope, withdrawn.schedule.reference, { kind: "card", cardId: card })).toEqual({
        ok: false,
        reason: "withdrawn",
      });

      const { scope, schedule } = await proposal({ total: 900_00, count: 3 });
      const other = await fx.account(acme);
      const theirCard = await fx.card(other);
      const theirAgreement = await fx.agreement(other);
      const expiredCard = await fx.card(scope, { expired: true });
      const removedCard = await fx.card(scope, { removed: true });
      const pending = await fx.agreement(scope, "CREATED");
      const small = await fx.agreement(scope, "ACTIVE", 200_00);
      const refusals: [unknown, string, boolean?][] = [
        [{ kind: "card", cardId: theirCard }, "method"],
        [{ kind: "payto", agreementId: theirAgreement }, "method"],
        [{ kind: "card", cardId: removedCard }, "method"],
        [{ kind: "card", cardId: expiredCard }, "cardExpired"],
        [{ kind: "payto", agreementId: pending }, "agreementInactive"],
        [{ kind: "payto", agreementId: small }, "payToLimit"],
        [null, "method"],
        [{ kind: "card", cardId: await fx.card(scope) }, "authority", false],
      ];
      for (const [way, reason, tick] of refusals) {
        expect(await accept(scope, schedule.reference, way, tick ?? true), `${JSON.stringify(way)}`).toEqual({
          ok: false,
          reason,
        });
      }
      expect((await getSchedule(acme, schedule.id))!.state).toBe("proposed");
      // Another account's contact, another business, a malformed reference: not found.
      expect(await accept(other, schedule.reference, { kind: "card", cardId: theirCard })).toEqual({
        ok: false,
        reason: "notFound",
      });
      expect(
        await acceptSchedule(
          { businessId: kiwi, contactId: scope.contactId, clientIp: "::1" },
          { reference: schedule.reference, way: null, authorityAccepted: true, authorityText: AUTHORITY },
        ),
      ).toEqual({ ok: false, reason: "notFound" });
      expect(await accept(scope, "PS-' OR 1=1", null)).toEqual({ ok: false, reason: "notFound" });

      // Past its expiry it reads (and is refused) as expired.
      setClockForTesting(fixedClock(new Date(Date.parse(schedule.expiresAt) + 1)));
      expect(await accept(scope, schedule.reference, { kind: "card", cardId: await fx.card(scope) })).toEqual({
        ok: false,
        reason: "expired",
      });
      setClockForTesting(undefined);
      expect((await getSchedule(acme, schedule.id))!.status).toBe("proposed");
    });

    it("reads the form's way to pay strictly", () => {
      const id = "0b7f5a52-7c1e-4b4a-9d39-3f1f5b0d7a11";
      expect(parseWayToPay(`card:${id}`)).toEqual({ kind: "card", cardId: id });
      expect(parseWayToPay(`payto:${id.toUpperCase()}`)).toEqual({ kind: "payto", agreementId: id });
      for (const bad of ["", "new", `bank:${id}`, "card:1 OR 1=1", `card:${id}x`, null, 42, `card:${id}:x`]) {
        expect(parseWayToPay(bad)).toBeNull();
      }
    });
  });

  describe("changing the way to pay", () => {
    it("moves future instalments to another saved card or active agreement; an in-flight charge is untouched", async () => {
      const { scope, schedule, cardId } = await accepted();
      const agreementId = await fx.agreement(scope);
      const first = schedule.instalments[0]!;
      await handle.db
        .updateTable("schedule_instalments")
        .set({ status: "processing" })
        .where("id", "=", first.id)
        .execute();
      const outcome = await changeWayToPay(actorOf(scope), {
        reference: schedule.reference,
        way: { kind: "payto", agreementId },
      });
      expect(outcome.ok).toBe(true);
      const view = (outcome as { ok: true; schedule: ScheduleView }).schedule;
      expect(view.wayToPay).toMatchObject({ kind: "payto", id: agreementId, status: "ACTIVE" });
      expect(view.instalments[0]!.status).toBe("processing");
      // Back to the card; the same one again is no change.
      expect(
        (await changeWayToPay(actorOf(scope), { reference: schedule.reference, way: { kind: "card", cardId } })).ok,
      ).toBe(true);
      expect(
        (await changeWayToPay(actorOf(scope), { reference: schedule.reference, way: { kind: "card", cardId } })).ok,
      ).toBe(true);
      const other = await fx.account(acme);
      expect(
        await changeWayToPay(actorOf(scope), {
          reference: schedule.reference,
          way: { kind: "card", cardId: await fx.card(other) },
        }),
      ).toEqual({ ok: false, reason: "method" });
      expect(
        await changeWayToPay(actorOf(other), { reference: schedule.reference, way: { kind: "card", cardId } }),
      ).toEqual({ ok: false, reason: "notFound" });
      expect((await getSchedule(acme, schedule.id))!.wayToPay).toMatchObject({ kind: "card", id: cardId });
    });

    it("is only for an accepted schedule", async () => {
      const { scope, schedule } = await proposal();
      const cardId = await fx.card(scope);
      expect(
        await changeWayToPay(actorOf(scope), { reference: schedule.reference, way: { kind: "card", cardId } }),
      ).toEqual({ ok: false, reason: "notActive" });
    });
  });

  describe("withdrawing and cancelling", () => {
    it("withdraws a proposal once (again is no change); an accepted schedule is cancelled instead", async () => {
      const { schedule } = await proposal();
      const withdrawn = await withdrawSchedule(acme, schedule.reference);
      expect(withdrawn.state).toBe("withdrawn");
      expect(withdrawn.instalments.every((i) => i.status === "cancelled")).toBe(true);
      expect((await withdrawSchedule(acme, schedule.reference)).withdrawnAt).toBe(withdrawn.withdrawnAt);
      expect((await problemOf(() => cancelSchedule(acme, schedule.reference))).code).toBe("conflict");

      const active = await accepted();
      expect((await problemOf(() => withdrawSchedule(acme, active.schedule.reference))).message).toMatch(/cancel it/);
      const fresh = await proposal();
      expect((await problemOf(() => cancelSchedule(acme, fresh.schedule.reference))).message).toMatch(/withdraw/);
    });

    it("cancels an accepted schedule: waiting and failed instalments stop, one in flight is left to finish", async () => {
      const { scope, schedule } = await accepted({ count: 4 });
      const [first, second] = schedule.instalments;
      await handle.db
        .updateTable("schedule_instalments")
        .set({ status: "processing" })
        .where("id", "=", first!.id)
        .execute();
      await handle.db
        .updateTable("schedule_instalments")
        .set({ status: "failed" })
        .where("id", "=", second!.id)
        .execute();
      const link = await createScheduleLink(handle.db, schedule.id, scope.contactId);
      const cancelled = await cancelSchedule(acme, schedule.reference);
      expect(cancelled.state).toBe("cancelled");
      expect(cancelled.instalments.map((i) => i.status)).toEqual(["processing", "cancelled", "cancelled", "cancelled"]);
      expect((await checkLinkToken(acme, "payment-schedule", link!.token)).status).toBe("revoked");
      expect((await cancelSchedule(acme, schedule.reference)).cancelledAt).toBe(cancelled.cancelledAt);
    });
  });

  describe("links for a declined instalment's email", () => {
    it("mints a payment-schedule link for a contact of the account, the newest only, and none for anyone else", async () => {
      const { scope, schedule } = await accepted();
      const first = await createScheduleLink(handle.db, schedule.id, scope.contactId);
      expect(first!.path).toBe(`/customer/payment-schedule/${first!.token}`);
      expect(first!.url).toMatch(
        new RegExp(`^http://acme\\.localhost:\\d+/customer/payment-schedule/${first!.token}$`),
      );
      const check = await checkLinkToken(acme, "payment-schedule", first!.token);
      expect(check.status === "valid" && check.link.subjectId).toBe(schedule.id);
      const second = await handle.db
        .transaction()
        .execute((tx) => createScheduleLink(tx, schedule.id, scope.contactId));
      expect((await checkLinkToken(acme, "payment-schedule", first!.token)).status).toBe("revoked");
      expect((await checkLinkToken(acme, "payment-schedule", second!.token)).status).toBe("valid");
      const other = await fx.account(acme);
      expect(await createScheduleLink(handle.db, schedule.id, other.contactId)).toBeNull();
      expect(await createScheduleLink(handle.db, "not-a-uuid", scope.contactId)).toBeNull();
    });
  });

  describe("listing", () => {
    it("filters by state and account, pages with a cursor, and keeps to the contact's accounts", async () => {
      const a = await proposal();
      const b = await accepted();
      const withdrawn = await proposal();
      await withdrawSchedule(acme, withdrawn.schedule.reference);
      const page = await listSchedules(acme, { account: a.scope.accountNumber });
      expect(page.items.map((i) => i.reference)).toEqual([a.schedule.reference]);
      const active = await listSchedules(acme, { state: "active", limit: 100 });
      expect(active.items.map((i) => i.reference)).toContain(b.schedule.reference);
      expect(active.items.every((i) => i.state === "active")).toBe(true);
      const gone = await listSchedules(acme, { state: "withdrawn", limit: 100 });
      expect(gone.items.map((i) => i.reference)).toContain(withdrawn.schedule.reference);
      const mine = await listSchedules(acme, { visibleTo: b.scope.contactId });
      expect(mine.items.map((i) => i.reference)).toEqual([b.schedule.reference]);

      const first = await listSchedules(acme, { limit: 1 });
      expect(first.nextCursor).not.toBeNull();
      const second = await listSchedules(acme, { limit: 1, cursor: first.nextCursor });
      expect(second.items[0]!.id).not.toBe(first.items[0]!.id);

      for (const [query, field] of [
        [{ state: "sleeping" }, "state"],
        [{ limit: 0 }, "limit"],
        [{ cursor: "not-a-cursor!" }, "cursor"],
        [{ account: "NOPE-1" }, "account"],
      ] as const) {
        expect((await problemOf(() => listSchedules(acme, query))).fields).toHaveProperty(field);
      }
    });
  });
}

describe("on PGlite", () => {
  scheduleSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  scheduleSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
