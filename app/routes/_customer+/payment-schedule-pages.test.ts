import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SCHEDULE_TOKEN } from "../../../db/seed/schedules";
import { scheduleFixtures } from "../../../tests/support/schedule-fixtures";
import { openSeededPglite } from "../../../tests/support/test-db";
import { todayIn } from "~/lib/dates";
import { addDays } from "~/lib/instalments";
import type { PayFormReply } from "~/lib/pay-form";
import type { AcceptanceData, ProgressData } from "~/lib/schedule-pages";
import { createSession } from "~/services/auth/session.server";
import { createLinkToken } from "~/services/links/link-tokens.server";
import { fixedClock, setClockForTesting } from "~/services/platform/clock.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import {
  createScheduleLink,
  proposeSchedule,
  sendSchedule,
  withdrawSchedule,
} from "~/services/schedules/commands.server";
import { getSchedule } from "~/services/schedules/queries.server";
import * as acceptance from "./payment-schedule.acceptance.$slug";
import * as progress from "./customer.payment-schedule+/$slug";
import * as list from "./customer.payment-schedule+/_index";
import * as home from "./payment.payment-request.all";

/**
 * The payment-schedule pages (issue 15; decision 034), their loaders and actions called with
 * real Requests: the proposal by its link (no session; the whole review, "Sign in to accept" by
 * reference, never the token) and signed in (accept with a saved card of this account and the
 * authority box); refusals that change nothing (accept twice, after a withdrawal, another
 * account's card, no tick, hostile values, a cross-site POST); progress by reference and by a
 * declined instalment's link; the change of way to pay; the list and the home's section. Another
 * account's or business's reference is "Page not found".
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

let handle: DatabaseHandle;
let fx: ReturnType<typeof scheduleFixtures>;
let acme = "";
const cookies: Record<string, string> = {};
const today = () => todayIn("Australia/Sydney", new Date());

async function sessionFor(businessId: string, contactId: string) {
  const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
  return (await createSession(request, { businessId, contactId, authMethod: "credentials" })).split(";")[0]!;
}

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  fx = scheduleFixtures(handle.db);
  acme = await fx.businessOf(HOST);
  for (const [who, email] of [
    ["olivia", "olivia@coastal.example"],
    ["sam", "sam@coastal.example"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    cookies[who] = await sessionFor(acme, contact.id);
  }
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});
afterEach(() => setClockForTesting(undefined));

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

async function run(handler: Handler, request: Request, slug?: string) {
  try {
    return await handler({ request, params: slug === undefined ? {} : { slug }, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    if ((thrown as { type?: string } | null)?.type === "DataWithResponseInit") return thrown;
    throw thrown;
  }
}

/** What a loader or action answered: a status, a redirect's location, or the page's data. */
function answer<T>(result: unknown): { status: number; location?: string | null; data: T } {
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get("location"), data: undefined as T };
  }
  const { data, init } = result as { data: unknown; init?: { status?: number } | null };
  if (data === undefined) return { status: 200, data: result as T };
  return { status: init?.status ?? 200, data: data as T };
}

const get = (path: string, cookie?: string, host = HOST) =>
  new Request(`http://${host}${path}`, { headers: { host, ...(cookie ? { cookie } : {}) } });

const post = (path: string, cookie: string, form: Record<string, string | string[]>, origin = ORIGIN) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { host: HOST, cookie, origin, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
};

/** A proposal on an account of its own, whose contact is signed in. */
async function proposal(options: { portal?: boolean } = {}) {
  const scope = await fx.account(acme, { portal: options.portal });
  const schedule = await proposeSchedule(acme, {
    account: scope.accountNumber,
    contact: scope.email,
    amountCents: 1_200_00,
    description: "Four fortnightly parts <b>with care</b>",
    instalments: { count: 4, frequency: "fortnightly", firstDate: addDays(today(), 6) },
  });
  const cookie = await sessionFor(acme, scope.contactId);
  const link = await createLinkToken(handle.db, {
    businessId: acme,
    purpose: "payment-schedule",
    subjectId: schedule.id,
    contactId: scope.contactId,
    expiresAt: new Date(schedule.expiresAt),
  });
  return { scope, schedule, cookie, token: link.token };
}

const acceptancePath = (slug: string) => `/payment-schedule/acceptance/${slug}`;
const progressPath = (slug: string) => `/customer/payment-schedule/${slug}`;
const loadAcceptance = (slug: string, cookie?: string, host?: string) =>
  run(acceptance.loader as Handler, get(acceptancePath(slug), cookie, host), slug);
const accept = (slug: string, cookie: string, form: Record<string, string | string[]>, origin?: string) =>
  run(acceptance.action as Handler, post(acceptancePath(slug), cookie, form, origin), slug);

const statusOf = async (id: string) =>
  (await handle.db.selectFrom("payment_schedules").select("status").where("id", "=", id).executeTakeFirstOrThrow())
    .status;

describe("the proposal by its emailed link", () => {
  it("shows the whole review to anyone holding the link, and signs in to the reference, never the token", async () => {
    const { schedule, token } = await proposal();
    const page = answer<AcceptanceData>(await loadAcceptance(token));
    expect(page.status).toBe(200);
    const data = page.data as Extract<AcceptanceData, { kind: "review"; mode: "link" }>;
    expect(data).toMatchObject({ kind: "review", mode: "link" });
    expect(data.schedule.instalments.map((i) => i.amount)).toEqual(["$300.00", "$300.00", "$300.00", "$300.00"]);
    expect(data.schedule.description).toBe("Four fortnightly parts <b>with care</b>");
    expect(data.signInHref).toBe(
      `/auth/signin?callbackUrl=${encodeURIComponent(`/payment-schedule/acceptance/${schedule.reference}`)}`,
    );
    expect(JSON.stringify(data)).not.toContain(token);
    // The fees by way to pay: acme's card surcharge by brand, and PayTo free.
    expect(data.fees).toEqual(
      expect.arrayContaining([
        { kind: "brands", brands: "Visa, Mastercard", rate: "1.2%", first: "$3.60", total: "$14.40" },
        { kind: "brands", brands: "American Express", rate: "2.5%", first: "$7.50", total: "$30.00" },
        { kind: "other", brands: null, rate: "1.5%", first: "$4.50", total: "$18.00" },
        { kind: "payto", brands: null, rate: null, first: "$0.00", total: "$0.00" },
      ]),
    );
    expect(data.authority).toMatchObject({ reference: schedule.reference, count: 4, total: "$1,200.00" });
    // Opening counted; nothing else changed.
    const link = await handle.db
      .selectFrom("link_tokens")
      .select("open_count")
      .where("subject_id", "=", schedule.id)
      .executeTakeFirstOrThrow();
    expect(link.open_count).toBe(1);
    expect(await statusOf(schedule.id)).toBe("proposed");
    // The link takes no POST: accepting needs a sign-in.
    expect(answer(await accept(token, "", { intent: "accept" })).status).toBe(404);
  });

  it("says what became of it: withdrawn, replaced, accepted, its contact gone; any other token is not valid", async () => {
    const withdrawn = await proposal();
    await withdrawSchedule(acme, withdrawn.schedule.reference);
    expect(answer<AcceptanceData>(await loadAcceptance(withdrawn.token)).data).toMatchObject({
      kind: "closed",
      reason: "withdrawn",
    });

    const replaced = await proposal();
    await sendSchedule(acme, replaced.schedule.reference);
    expect(answer<AcceptanceData>(await loadAcceptance(replaced.token)).data).toMatchObject({ reason: "replaced" });

    const left = await proposal();
    await handle.db.deleteFrom("account_contacts").where("contact_id", "=", left.scope.contactId).execute();
    const gone = answer<AcceptanceData>(await loadAcceptance(left.token)).data;
    expect(gone).toMatchObject({ kind: "closed", reason: "linkWithdrawn", reference: left.schedule.reference });
    expect(JSON.stringify(gone)).not.toContain("$1,200.00");

    const expired = await proposal();
    setClockForTesting(fixedClock(new Date(Date.parse(expired.schedule.expiresAt) + 1000)));
    expect(answer<AcceptanceData>(await loadAcceptance(expired.token)).data).toMatchObject({ reason: "expired" });
    setClockForTesting(undefined);

    for (const bad of [
      DEMO_SCHEDULE_TOKEN.slice(0, -1),
      `${DEMO_SCHEDULE_TOKEN.slice(0, -3)}AAA`,
      "x".repeat(5_000),
      "<script>alert(1)</script>",
    ]) {
      const invalid = answer<{ reason: string }>(await loadAcceptance(bad));
      expect(invalid.status, bad.slice(0, 20)).toBe(404);
      expect(invalid.data).toEqual({ reason: "link-invalid" });
    }
    // The real demo link on another business's host: not found there.
    expect(answer(await loadAcceptance(DEMO_SCHEDULE_TOKEN, undefined, "kiwi.localhost")).status).toBe(404);
  });
});

describe("accepting, signed in", () => {
  it("asks a signed-out visitor to sign in and come back to the same reference", async () => {
    const { schedule } = await proposal();
    const result = answer(await loadAcceptance(schedule.reference));
    expect(result.status).toBe(302);
    expect(result.location).toContain(encodeURIComponent(`/payment-schedule/acceptance/${schedule.reference}`));
  });

  it("is 'Page not found' for a contact who may not act for the account, and for another business", async () => {
    const { schedule, token } = await proposal();
    for (const [label, result] of [
      ["another account's contact", await loadAcceptance(schedule.reference, cookies.sam)],
      ["a lower-case reference", await loadAcceptance(schedule.reference.toLowerCase(), cookies.olivia)],
    ] as const) {
      expect(answer(result).status, label).toBe(404);
    }
    expect(answer(await accept(schedule.reference, cookies.sam!, { intent: "accept", way: "x" })).status).toBe(404);
    expect(await statusOf(schedule.id)).toBe("proposed");
    // A forged cross-site POST is refused before anything is read.
    const { cookie } = await proposal();
    expect(answer(await accept(schedule.reference, cookie, { intent: "accept" }, "https://evil.example")).status).toBe(
      403,
    );
    expect(token).toBeTruthy();
  });

  it("accepts with a saved card of the account and the authority, once; the way back is its progress page", async () => {
    const { scope, schedule, cookie } = await proposal();
    const cardId = await fx.card(scope, { isDefault: true });
    await fx.card(scope, { expired: true });
    const review = answer<AcceptanceData>(await loadAcceptance(schedule.reference, cookie)).data;
    expect(review).toMatchObject({ kind: "review", mode: "signedIn", refusal: null });
    const form = (review as Extract<AcceptanceData, { mode: "signedIn" }>).form;
    // Only live cards are offered; the default first chosen; a portal contact may add one and come back.
    expect(form.options.map((o) => o.value)).toEqual([`card:${cardId}`]);
    expect(form.chosen).toBe(`card:${cardId}`);
    expect(form.addCardHref).toBe(
      `/payment-methods/cards/new?returnTo=${encodeURIComponent(`/payment-schedule/acceptance/${schedule.reference}`)}`,
    );

    const done = answer(
      await accept(schedule.reference, cookie, { intent: "accept", way: `card:${cardId}`, authority: "on" }),
    );
    expect(done).toMatchObject({
      status: 302,
      location: `/customer/payment-schedule/${schedule.reference}?notice=accepted`,
    });
    const view = (await getSchedule(acme, schedule.id))!;
    expect(view.state).toBe("active");
    expect(view.acceptance?.authorityText).toContain(`payment schedule ${schedule.reference}`);
    expect(view.acceptance?.authorityText).toContain("3 days later, then 7 days after that");

    // Again: refused, nothing changes, and the page says it is accepted with the way to its progress.
    const again = answer<AcceptanceData>(
      await accept(schedule.reference, cookie, { intent: "accept", way: `card:${cardId}`, authority: "on" }),
    );
    expect(again.status).toBe(409);
    expect(again.data).toMatchObject({
      kind: "closed",
      reason: "accepted",
      refused: true,
      progressHref: `/customer/payment-schedule/${schedule.reference}`,
    });
  });

  it("refuses another account's card, no tick, and hostile values with a message on the field, changing nothing", async () => {
    const { scope, schedule, cookie } = await proposal();
    const mine = await fx.card(scope);
    const other = await fx.account(acme);
    const theirs = await fx.card(other);
    const cases: [Record<string, string | string[]>, string, number][] = [
      [{ intent: "accept", way: `card:${theirs}`, authority: "on" }, "method", 400],
      [{ intent: "accept", way: `card:${mine}` }, "authority", 400],
      [{ intent: "accept", way: "card:' OR '1'='1", authority: "on" }, "method", 400],
      [{ intent: "accept", way: "<img src=x onerror=alert(1)>", authority: "on" }, "method", 400],
      [{ intent: "accept", way: `card:${mine}`.repeat(200), authority: "on" }, "method", 400],
      [{ intent: "accept", way: [`card:${theirs}`, `card:${mine}`], authority: "on" }, "method", 400],
      [{ intent: "accept", way: `payto:${mine}`, authority: "on" }, "method", 400],
      [{ intent: "delete", way: `card:${mine}`, authority: "on" }, "method", 400],
      [{ way: `card:${mine}`, authority: "on" }, "method", 400],
    ];
    for (const [form, refusal, status] of cases) {
      const result = answer<AcceptanceData>(await accept(schedule.reference, cookie, form));
      expect(result.status, JSON.stringify(form).slice(0, 80)).toBe(status);
      expect(result.data).toMatchObject({ kind: "review", refusal });
    }
    expect(await statusOf(schedule.id)).toBe("proposed");
    // Withdrawn meanwhile: the page says so; nothing is accepted.
    await withdrawSchedule(acme, schedule.reference);
    const late = answer<AcceptanceData>(
      await accept(schedule.reference, cookie, { intent: "accept", way: `card:${mine}`, authority: "on" }),
    );
    expect(late.status).toBe(409);
    expect(late.data).toMatchObject({ kind: "closed", reason: "withdrawn", refused: true });
    expect(await statusOf(schedule.id)).toBe("withdrawn");
  });

  it("tells a customer-style contact how to get a card added rather than linking to pages they can't open", async () => {
    const { schedule, cookie } = await proposal({ portal: false });
    const review = answer<AcceptanceData>(await loadAcceptance(schedule.reference, cookie)).data as Extract<
      AcceptanceData,
      { mode: "signedIn" }
    >;
    expect(review.form).toMatchObject({ options: [], addCardHref: null, setUpPayToHref: null, noAccess: true });
  });
});

describe("progress", () => {
  const loadProgress = (slug: string, cookie?: string) =>
    run(progress.loader as Handler, get(progressPath(slug), cookie), slug);
  const act = (slug: string, cookie: string, form: Record<string, string>) =>
    run(progress.action as Handler, post(progressPath(slug), cookie, form), slug);

  it("shows the seeded active schedule to its contact: paid, upcoming, receipts, the way to pay and its change", async () => {
    const page = answer<ProgressData>(await loadProgress("PS-DEMO0001", cookies.olivia));
    expect(page.status).toBe(200);
    const data = page.data;
    expect(data.kind).toBe("progress");
    expect(data.schedule).toMatchObject({
      state: "active",
      paid: "$600.00",
      total: "$1,800.00",
      remaining: "$1,200.00",
    });
    expect(data.schedule.instalments.map((i) => i.view)).toEqual([
      "paid",
      "paid",
      "upcoming",
      "upcoming",
      "upcoming",
      "upcoming",
    ]);
    expect(data.schedule.instalments[0]!.receiptHref).toMatch(/^\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    expect(data.wayToPay).toEqual({ kind: "card", name: "Visa •••• 4242", status: null });
    expect(data.change?.options.map((o) => o.kind)).toContain("card");
    // The arrears schedule shows its failed instalment.
    const arrears = answer<ProgressData>(await loadProgress("PS-DEMO0002", cookies.olivia)).data;
    expect(arrears.schedule.instalments[1]!.view).toBe("failed");
    // Sam's account is not Wollongong's: not found, in the loader and the action.
    expect(answer(await loadProgress("PS-DEMO0001", cookies.sam)).status).toBe(404);
    expect(answer(await act("PS-DEMO0001", cookies.sam!, { intent: "change", way: "x" })).status).toBe(404);
    // A proposal's progress page is its acceptance page.
    const proposed = answer(await loadProgress("PS-DEMO0000", cookies.olivia));
    expect(proposed).toMatchObject({ status: 302, location: "/payment-schedule/acceptance/PS-DEMO0000" });
  });

  it("changes the way to pay to another saved card or active agreement of the account, and refuses anything else", async () => {
    const { scope, schedule, cookie } = await proposal();
    const cardId = await fx.card(scope);
    await accept(schedule.reference, cookie, { intent: "accept", way: `card:${cardId}`, authority: "on" });
    const agreementId = await fx.agreement(scope);
    const theirs = await fx.card(await fx.account(acme));
    const refused = answer<ProgressData>(
      await act(schedule.reference, cookie, { intent: "change", way: `card:${theirs}` }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.change?.refusal).toBe("method");
    expect((await getSchedule(acme, schedule.id))!.wayToPay).toMatchObject({ id: cardId });
    expect(answer(await act(schedule.reference, cookie, { intent: "bogus" })).status).toBe(400);
    const changed = answer(await act(schedule.reference, cookie, { intent: "change", way: `payto:${agreementId}` }));
    expect(changed).toMatchObject({
      status: 302,
      location: `/customer/payment-schedule/${schedule.reference}?notice=changed`,
    });
    expect((await getSchedule(acme, schedule.id))!.wayToPay).toMatchObject({ kind: "payto", id: agreementId });
    const after = answer<ProgressData>(await loadProgress(`${schedule.reference}`, cookie));
    expect(after.data.wayToPay).toMatchObject({ kind: "payto" });
  });

  it("opens from a declined instalment's link without a session, and a proposal's token leads to the proposal", async () => {
    const { scope, schedule, cookie, token } = await proposal();
    const redirected = answer(await loadProgress(token));
    expect(redirected).toMatchObject({ status: 302, location: `/payment-schedule/acceptance/${token}` });
    const cardId = await fx.card(scope);
    await accept(schedule.reference, cookie, { intent: "accept", way: `card:${cardId}`, authority: "on" });
    const link = (await createScheduleLink(handle.db, schedule.id, scope.contactId))!;
    const page = answer<ProgressData>(await loadProgress(link.token));
    expect(page.data).toMatchObject({ kind: "progress", mode: "link", change: null });
    expect(page.data.schedule.reference).toBe(schedule.reference);
    // The link page takes no change of way to pay (only a declined instalment's payment, and there is none).
    const refused = answer<{ message: string }>(await act(link.token, "", { intent: "change", way: `card:${cardId}` }));
    expect(refused.status).toBe(409);
    expect(refused.data.message).toBe("schedules.pay.error.closed");
    expect((await getSchedule(acme, schedule.id))!.wayToPay).toMatchObject({ id: cardId });
    expect(answer(await loadProgress("not-a-token")).status).toBe(404);
  });
});

describe("paying an instalment now", () => {
  const loadProgress = (slug: string, cookie?: string, query = "") =>
    run(progress.loader as Handler, get(`${progressPath(slug)}${query}`, cookie), slug);
  const act = (slug: string, cookie: string, form: Record<string, string>) =>
    run(progress.action as Handler, post(progressPath(slug), cookie, form), slug);
  const paymentsOf = (instalmentId: string) =>
    handle.db
      .selectFrom("payments")
      .select(["reference", "status", "amount_cents", "link_token_id"])
      .where("schedule_instalment_id", "=", instalmentId)
      .execute();

  async function accepted(outcome: "approve" | "decline" = "approve") {
    const made = await proposal();
    const cardId = await fx.card(made.scope, { outcome, isDefault: true });
    await accept(made.schedule.reference, made.cookie, { intent: "accept", way: `card:${cardId}`, authority: "on" });
    return { ...made, cardId, schedule: (await getSchedule(acme, made.schedule.id))! };
  }

  it("pays the next instalment early by the schedule's card, once however often the form is sent", async () => {
    const { schedule, cookie } = await accepted();
    const page = answer<ProgressData>(await loadProgress(schedule.reference, cookie)).data;
    // $300.00 and Visa's 1.2%: what the engine charges.
    expect(page.pay).toEqual([
      {
        instalmentId: schedule.instalments[0]!.id,
        seq: 1,
        amount: "$300.00",
        total: "$303.60",
        totalCents: 303_60,
        failed: false,
      },
    ]);
    const form = {
      intent: "pay",
      instalmentId: page.pay[0]!.instalmentId,
      requestGuid: page.requestGuid,
      expectedAmount: "30360",
    };
    const first = answer(await act(schedule.reference, cookie, form));
    expect(first.status).toBe(302);
    expect(first.location).toMatch(
      new RegExp(`^/customer/payment-schedule/${schedule.reference}\\?notice=paid&payment=PAY-[0-9A-F]{10}$`),
    );
    // The same submission again (a double click, a reloaded POST): the first answer, no second charge.
    const again = answer(await act(schedule.reference, cookie, form));
    expect(again.location).toBe(first.location);
    const payments = await paymentsOf(schedule.instalments[0]!.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: "succeeded", amount_cents: 303_60 });
    const after = answer<ProgressData>(
      await loadProgress(schedule.reference, cookie, first.location!.slice(first.location!.indexOf("?"))),
    ).data;
    expect(after.notice).toBe("paid");
    expect(after.receiptHref).toBe(`/payment/complete/${payments[0]!.reference}`);
    expect(after.schedule.instalments[0]!.view).toBe("paid");
    expect(after.pay[0]!.seq).toBe(2);
    // Someone else's payment reference in the address links no receipt here.
    const foreign = answer<ProgressData>(
      await loadProgress(schedule.reference, cookie, "?notice=paid&payment=PAY-0000000000"),
    ).data;
    expect(foreign.receiptHref).toBeNull();
  });

  it("says why when the card is declined or the instalment is not this schedule's, and charges nothing", async () => {
    const { schedule, cookie } = await accepted("decline");
    const page = answer<ProgressData>(await loadProgress(schedule.reference, cookie)).data;
    const declined = answer<ProgressData>(
      await act(schedule.reference, cookie, {
        intent: "pay",
        instalmentId: page.pay[0]!.instalmentId,
        requestGuid: page.requestGuid,
        expectedAmount: String(page.pay[0]!.totalCents),
      }),
    );
    expect(declined.status).toBe(402);
    expect(declined.data.message).toBe("pm.refusal.declined");
    // The contact's own try does not use up the runner's: the instalment waits for its day again.
    const view = (await getSchedule(acme, schedule.id))!;
    expect(view.instalments[0]).toMatchObject({ status: "scheduled", attempts: 0 });
    const other = await accepted();
    // Another schedule's instalment, hostile text, nothing, and this schedule's instalment the page
    // does not offer (the second: only the next one may be paid early).
    for (const instalmentId of [
      other.schedule.instalments[0]!.id,
      schedule.instalments[1]!.id,
      "'; drop table payments; --",
      "",
    ]) {
      const refused = answer<ProgressData>(
        await act(schedule.reference, cookie, {
          intent: "pay",
          instalmentId,
          requestGuid: page.requestGuid,
          expectedAmount: "30360",
        }),
      );
      expect(refused.status).toBe(400);
      expect(refused.data.message).toBe("schedules.pay.error.invalid");
    }
    // A total that is not the one the page offers now (tampered, or the way to pay changed): nothing charged.
    for (const expectedAmount of ["30000", "", "3.036e4", "-30360", "30360 OR 1=1"]) {
      const moved = answer<ProgressData>(
        await act(schedule.reference, cookie, {
          intent: "pay",
          instalmentId: schedule.instalments[0]!.id,
          requestGuid: randomUUID(),
          expectedAmount,
        }),
      );
      expect(moved.status).toBe(409);
      expect(moved.data.message).toBe("pay.error.totalChanged");
      expect(moved.data.messageParams).toEqual({ total: "$303.60" });
    }
    expect(await paymentsOf(other.schedule.instalments[0]!.id)).toEqual([]);
    expect(await paymentsOf(schedule.instalments[1]!.id)).toEqual([]);
    expect((await paymentsOf(schedule.instalments[0]!.id)).map((p) => p.status)).toEqual(["failed"]);
  });

  it("pays a declined instalment another way from its email's link, with a new card never saved, through the confirm step", async () => {
    const { scope, schedule } = await accepted();
    const first = schedule.instalments[0]!;
    await handle.db
      .updateTable("schedule_instalments")
      .set({ status: "failed", attempts: 3, next_attempt_on: null, last_failure: "insufficient_funds" })
      .where("id", "=", first.id)
      .execute();
    await handle.db.updateTable("payment_schedules").set({ status: "arrears" }).where("id", "=", schedule.id).execute();
    const link = (await createScheduleLink(handle.db, schedule.id, scope.contactId))!;
    const page = answer<ProgressData>(await loadProgress(link.token)).data;
    expect(page.rescue).toMatchObject({ instalmentId: first.id, seq: 1, amount: "$300.00" });
    expect(page.rescue!.signInHref).toBe(
      `/auth/signin?callbackUrl=${encodeURIComponent(`/customer/payment-schedule/${schedule.reference}`)}`,
    );
    const cards = async () =>
      Number(
        (
          await handle.db
            .selectFrom("cards")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("account_id", "=", scope.accountId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await cards();
    const card = (number: string) => ({
      method: "new",
      cardNumber: number,
      cardHolderName: "Sky Schedule",
      expiryMonth: "12",
      expiryYear: String(new Date().getUTCFullYear() + 2),
      cvn: "123",
      saveCard: "on",
    });
    const pay = (
      number: string,
      expectedAmount: string,
      requestGuid = page.rescue!.requestGuid,
      instalmentId = first.id,
    ) => act(link.token, "", { intent: "pay", requestGuid, expectedAmount, instalmentId, ...card(number) });
    // A form for another instalment than the one to rescue now (or none): refused, nothing charged.
    for (const instalmentId of [schedule.instalments[1]!.id, "", "<script>x</script>"]) {
      const changed = answer<PayFormReply>(await pay("4111 1111 1111 1111", "30360", undefined, instalmentId));
      expect(changed.status).toBe(409);
      expect(changed.data.message).toBe("schedules.pay.error.changed");
    }
    expect(await paymentsOf(first.id)).toEqual([]);
    expect(await paymentsOf(schedule.instalments[1]!.id)).toEqual([]);
    // A card the bank refuses, under the total its button showed: paid at once, declined.
    const refused = answer<PayFormReply>(await pay("4000 0000 0000 0002", "30360"));
    expect(refused.status).toBe(402);
    expect(refused.data.message).toBe("pm.refusal.declined");
    // The page without JavaScript shows $300.00 (no card chosen yet); a Visa adds 1.2%. The first
    // tap is neither charged nor refused: the card is held and the exact total confirmed (decision 071).
    expect(page.rescue!.breakdown!.totalCents).toBe(300_00);
    const held = await run(
      progress.action as Handler,
      post(progressPath(link.token), "", {
        intent: "pay",
        requestGuid: refused.data.requestGuid,
        expectedAmount: "30000",
        shownAction: "card",
        instalmentId: first.id,
        ...card("4111 1111 1111 1111"),
      }),
      link.token,
    );
    const confirm = answer<PayFormReply>(held);
    expect(confirm.status).toBe(200);
    expect(confirm.data.message).toBeNull();
    expect(confirm.data.breakdown?.totalCents).toBe(303_60);
    expect(confirm.data.confirm).toMatchObject({
      action: "card",
      card: { brand: "Visa", last4: "1111" },
      shownTotal: "$300.00",
      surcharge: { brand: "Visa", rate: "1.2%" },
    });
    expect(confirm.data.requestGuid).toBe(refused.data.requestGuid);
    expect(confirm.data.extra).toEqual({ instalmentId: first.id });
    // The card number and CVN are never in the answer; the gateway holds the card.
    expect(JSON.stringify(confirm.data)).not.toMatch(/4111 ?1111 ?1111 ?1111|"cvn"/);
    expect((await paymentsOf(first.id)).filter((p) => p.status === "succeeded")).toEqual([]);
    const hold = ((held as { init?: { headers?: Record<string, string> } }).init?.headers?.["Set-Cookie"] ?? "").split(
      ";",
    )[0]!;
    expect(hold).toMatch(/^portal_hold=/);
    const heldCards = () =>
      handle.db.selectFrom("held_cards").select(["id", "last4"]).where("account_id", "=", scope.accountId).execute();
    expect(await heldCards()).toEqual([expect.objectContaining({ last4: "1111" })]);
    // The confirm: the held card's id and the confirmed total, never a number or CVN.
    const confirmForm = {
      intent: "pay",
      requestGuid: confirm.data.requestGuid,
      expectedAmount: String(confirm.data.breakdown!.totalCents),
      shownAction: confirm.data.confirm!.action,
      method: confirm.data.confirm!.method,
      instalmentId: first.id,
      cardHolderName: "Sky Schedule",
      expiryMonth: "12",
      expiryYear: String(new Date().getUTCFullYear() + 2),
    };
    expect(confirmForm.method).toMatch(/^held:/);
    // From another browser (no hold cookie): refused as no longer held, nothing charged.
    const elsewhere = answer<PayFormReply>(await act(link.token, "", confirmForm));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.data.message).toBe("pay.error.heldExpired");
    expect((await paymentsOf(first.id)).filter((p) => p.status === "succeeded")).toEqual([]);
    const paid = await act(link.token, hold, confirmForm);
    expect(paid).toBeInstanceOf(Response);
    const response = paid as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    expect(response.headers.get("set-cookie")).toMatch(/portal_link=/);
    // Once charged, the held card is let go.
    expect(await heldCards()).toEqual([]);
    const payments = await paymentsOf(first.id);
    expect(payments.filter((p) => p.status === "succeeded")).toEqual([
      expect.objectContaining({ amount_cents: 303_60, link_token_id: link.id }),
    ]);
    expect((await getSchedule(acme, schedule.id))!.instalments[0]!.status).toBe("paid");
    // Never saved, whatever the form said.
    expect(await cards()).toBe(before);
    // Nothing left to rescue: the link page has no form any more.
    expect(answer<ProgressData>(await loadProgress(link.token)).data.rescue).toBeNull();
  });
});

describe("the list and the home", () => {
  it("lists the selected account's schedules for a portal contact, every account's for a customer-style one", async () => {
    const olivia = answer<Awaited<ReturnType<typeof list.loader>>>(
      await run(list.loader as Handler, get("/customer/payment-schedule", cookies.olivia)),
    ).data;
    // Her selected account is Coastal Builders Group: its proposal; its branch's schedules once she switches.
    expect(olivia.items.map((i) => i.reference)).toEqual(["PS-DEMO0000"]);
    expect(olivia.items[0]!.href).toBe("/payment-schedule/acceptance/PS-DEMO0000");
    const wollongong = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("number", "=", "ACME-1002")
      .executeTakeFirstOrThrow();
    await handle.db
      .updateTable("sessions")
      .set({ data: JSON.stringify({ selectedAccount: wollongong.id }) })
      .where(
        "contact_id",
        "=",
        (
          await handle.db
            .selectFrom("contacts")
            .select("id")
            .where("email", "=", "olivia@coastal.example")
            .executeTakeFirstOrThrow()
        ).id,
      )
      .execute();
    const branch = answer<Awaited<ReturnType<typeof list.loader>>>(
      await run(list.loader as Handler, get("/customer/payment-schedule", cookies.olivia)),
    ).data;
    expect(branch.items.map((i) => i.reference)).toEqual(["PS-DEMO0002", "PS-DEMO0001"]);
    expect(branch.items.find((i) => i.reference === "PS-DEMO0001")!.href).toBe(
      "/customer/payment-schedule/PS-DEMO0001",
    );

    const { scope, schedule, cookie } = await proposal({ portal: false });
    const mine = answer<Awaited<ReturnType<typeof list.loader>>>(
      await run(list.loader as Handler, get("/customer/payment-schedule?cursor=%27%3B--", cookie)),
    ).data;
    expect(mine.items.map((i) => i.reference)).toEqual([schedule.reference]);
    const homePage = answer<Awaited<ReturnType<typeof home.loader>>>(
      await run(home.loader as Handler, get("/payment/payment-request/all", cookie)),
    ).data;
    expect(homePage.schedules).toEqual([
      expect.objectContaining({
        reference: schedule.reference,
        href: `/payment-schedule/acceptance/${schedule.reference}`,
        remaining: "$1,200.00",
        state: "proposed",
      }),
    ]);
    expect(scope.accountNumber).toBeTruthy();
    // Signed out: sign in first.
    expect(answer(await run(list.loader as Handler, get("/customer/payment-schedule"))).status).toBe(302);
  });
});
