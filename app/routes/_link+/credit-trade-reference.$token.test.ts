import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TRADE_REFERENCE_TOKEN } from "../../../db/seed/credit";
import { isLinkPagePath, redactLinkPath } from "~/lib/link-paths";
import { createCreditApplication, refereeForm } from "../../../tests/support/credit-fixtures";
import { openSeededPglite } from "../../../tests/support/test-db";
import { decideCreditApplication, resendTradeReference } from "~/services/credit/credit-backoffice.server";
import { fixedClock, setClockForTesting } from "~/services/platform/clock.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setRateLimitClockForTesting } from "~/services/platform/rate-limit.server";
import { CLIENT_ADDRESS_HEADER } from "~/services/platform/request-log.server";
import { action, headers, loader } from "./credit-trade-reference.$token";
import { loader as startLoader } from "../_public+/credit-trade-reference._index";

/**
 * The referee's page through its loader and action with real Requests (issue 17; decisions 031
 * and 041): the link opens the form for exactly its referee and business, counts the opening and
 * spends nothing; the answer is taken once (a second use says when it was answered); every token
 * that does not check out is the same 404; the form's mistakes come back at their fields with what
 * was typed; misses from one address are limited; the page never carries its token on.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

let handle: DatabaseHandle;
let acme = "";
let kiwi = "";

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  const business = async (host: string) =>
    (await handle.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow())
      .business_id;
  acme = await business("acme.localhost");
  kiwi = await business("kiwi.localhost");
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});
afterEach(() => {
  setClockForTesting(undefined);
  setRateLimitClockForTesting(null);
});

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = { status: number; data: any; headers: Headers; location: string | null };

async function run(handler: Handler, request: Request, params: object): Promise<Page> {
  let result: unknown;
  try {
    result = await handler({ request, params, context: {} });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return {
      status: result.status,
      data: undefined,
      headers: result.headers,
      location: result.headers.get("location"),
    };
  }
  const { data, init } = result as { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };
  if (data === undefined) return { status: 200, data: result, headers: new Headers(), location: null };
  return { status: init?.status ?? 200, data, headers: new Headers(init?.headers), location: null };
}

/** Each test's own client address, so the per-address limit of one test never meets another's. */
let addressCounter = 0;
const nextAddress = () => `203.0.113.${++addressCounter}`;

function open(token: string, options: { host?: string; query?: string; address?: string } = {}) {
  const host = options.host ?? HOST;
  return run(
    loader as Handler,
    new Request(`http://${host}/credit-trade-reference/${token}${options.query ?? ""}`, {
      headers: { host, [CLIENT_ADDRESS_HEADER]: options.address ?? nextAddress() },
    }),
    { token },
  );
}

function post(
  token: string,
  form: Record<string, string>,
  options: { origin?: string; address?: string; host?: string; body?: string } = {},
) {
  const host = options.host ?? HOST;
  return run(
    action as Handler,
    new Request(`http://${host}/credit-trade-reference/${token}`, {
      method: "POST",
      headers: {
        host,
        origin: options.origin ?? `http://${host}`,
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "Mozilla/5.0 (route test)",
        [CLIENT_ADDRESS_HEADER]: options.address ?? nextAddress(),
      },
      body: options.body ?? new URLSearchParams(form).toString(),
    }),
    { token },
  );
}

const referenceRow = (id: string) =>
  handle.db.selectFrom("credit_trade_references").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("opening the link", () => {
  it("shows who asks about whom, counts the opening, spends nothing, and keeps the token out of Referers and caches", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const referee = app.referees[0]!;
    const page = await open(referee.token);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      kind: "open",
      businessName: "Acme Plumbing Supplies",
      applicant: app.legalName,
      reference: app.reference,
      referee: { name: "Referee 1", business: expect.stringContaining("Referee Supplies 1") },
      currency: "AUD",
    });
    expect(page.headers.get("referrer-policy")).toBe("strict-origin");
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(new Headers(headers({} as never)).get("referrer-policy")).toBe("strict-origin");
    // The documents' own headers and every log line treat the path as a link's (decision 031).
    expect(isLinkPagePath(`/credit-trade-reference/${referee.token}`)).toBe(true);
    expect(isLinkPagePath("/credit-trade-reference")).toBe(false);
    expect(redactLinkPath(`/credit-trade-reference/${referee.token}.data?x=1`)).toBe(
      `/credit-trade-reference/${referee.token.slice(0, 6)}….data`,
    );
    await open(referee.token);
    const row = await referenceRow(referee.id);
    expect(row.open_count).toBe(2);
    expect(row.answered_at).toBeNull();
  });

  it("answers every token that does not check out with the same 404, another host's included", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const token = app.referees[0]!.token;
    const kiwiApp = await createCreditApplication(handle.db, kiwi);
    for (const bad of [
      `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`,
      token.slice(0, 58),
      "not-a-token",
      "%3Cscript%3E",
      kiwiApp.referees[0]!.token,
    ]) {
      const page = await open(bad);
      expect(page.status).toBe(404);
      expect(page.data).toEqual({ reason: "link-invalid" });
      expect(page.headers.get("referrer-policy")).toBe("strict-origin");
    }
    // The kiwi link on its own host works; acme's does not there.
    expect((await open(kiwiApp.referees[0]!.token, { host: "kiwi.localhost" })).status).toBe(200);
    expect((await open(token, { host: "kiwi.localhost" })).status).toBe(404);
    expect((await referenceRow(app.referees[0]!.id)).open_count).toBe(0);
  });

  it("says the link expired, or the reference is no longer needed, without saying what the business decided", async () => {
    const clock = fixedClock(new Date());
    setClockForTesting(clock);
    const app = await createCreditApplication(handle.db, acme);
    clock.advanceDays(31);
    const expired = await open(app.referees[0]!.token);
    expect(expired.data).toMatchObject({ kind: "closed", reason: "expired", applicant: app.legalName });
    expect(expired.data.date).not.toBe("");
    clock.advanceDays(-31);
    await decideCreditApplication(acme, app.id, "declined", { reason: "Confidential reason" });
    const closed = await open(app.referees[0]!.token);
    expect(closed.data).toMatchObject({ kind: "closed", reason: "closed" });
    expect(JSON.stringify(closed.data)).not.toMatch(/declined|Confidential/);
    expect((await referenceRow(app.referees[0]!.id)).open_count).toBe(0);
  });

  it("opens the demo's fixed link on acme", async () => {
    expect((await open(DEMO_TRADE_REFERENCE_TOKEN)).data).toMatchObject({
      kind: "open",
      applicant: "Harbourside Fit-outs Pty Ltd",
    });
  });
});

describe("answering", () => {
  it("takes the answer once: thanks, then 'already answered on <date>' for any later use, nothing changed", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const referee = app.referees[0]!;
    const done = await post(referee.token, refereeForm({ comments: "<script>alert(1)</script>" }));
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/credit-trade-reference/${referee.token}?notice=thanks`);
    expect(done.headers.get("referrer-policy")).toBe("strict-origin");
    const stored = await referenceRow(referee.id);
    expect(stored.answer).toMatchObject({ comments: "<script>alert(1)</script>", creditLimitCents: 1_500_000 });
    expect(stored.answered_by_name).toBe("Grace Liu");
    const thanks = await open(referee.token, { query: "?notice=thanks" });
    expect(thanks.data).toMatchObject({ kind: "closed", reason: "thanks", applicant: app.legalName });
    const again = await open(referee.token);
    expect(again.data).toMatchObject({ kind: "closed", reason: "answered", reference: app.reference });
    expect(again.data.date).toMatch(/\d{4}/);
    const second = await post(referee.token, refereeForm({ name: "Someone Else", recommend: "no" }));
    expect(second.status).toBe(303);
    expect(second.location).toBe(`/credit-trade-reference/${referee.token}`);
    expect(await referenceRow(referee.id)).toEqual(stored);
  });

  it("gives the form back with each mistake at its field, and writes nothing", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const referee = app.referees[0]!;
    const typed = refereeForm({ creditLimit: "lots", terms: "other", termsOther: "", name: "<b>Grace</b>" });
    const reply = await post(referee.token, typed);
    expect(reply.status).toBe(400);
    expect(reply.headers.get("cache-control")).toBe("private, no-store");
    expect(reply.data.errors).toEqual({
      creditLimit: "tradeReference.error.money.format",
      termsOther: "tradeReference.error.termsOther.required",
    });
    expect(reply.data.values).toMatchObject({ creditLimit: "lots", name: "<b>Grace</b>", comments: "Orders weekly." });
    const empty = await post(referee.token, {});
    expect(Object.keys(empty.data.errors)).toEqual([
      "tradingLength",
      "terms",
      "creditLimit",
      "paymentBehaviour",
      "dishonours",
      "recommend",
      "name",
      "position",
    ]);
    // Control characters are that field's problem; the rest of the form is kept.
    const control = await post(referee.token, refereeForm({ comments: "bad\u0001byte" }));
    expect(control.status).toBe(400);
    expect(control.data.errors).toEqual({ comments: "tradeReference.error.characters" });
    expect(control.data.values.comments).toBe("badbyte");
    expect(control.data.values.name).toBe("Grace Liu");
    expect((await referenceRow(referee.id)).answered_at).toBeNull();
  });

  it("refuses a cross-site post, an oversized body and a tampered token, writing nothing", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const referee = app.referees[0]!;
    const crossSite = await post(referee.token, refereeForm(), { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const huge = await post(referee.token, {}, { body: `comments=${"x".repeat(70_000)}` });
    expect(huge.status).toBe(413);
    const tampered = await post(`${referee.token.slice(0, -2)}zz`, refereeForm());
    expect(tampered.status).toBe(404);
    expect((await referenceRow(referee.id)).answered_at).toBeNull();
  });

  it("sends an answer under a link replaced by a resend to the 404, and an answer after the decision to 'no longer needed'", async () => {
    const app = await createCreditApplication(handle.db, acme);
    await resendTradeReference(acme, app.id, "1");
    const replaced = await post(app.referees[0]!.token, refereeForm());
    expect(replaced.status).toBe(404);
    await decideCreditApplication(acme, app.id, "accepted", { approvedLimitCents: 100_000 });
    const late = await post(app.referees[1]!.token, refereeForm());
    expect(late.status).toBe(303);
    expect((await open(app.referees[1]!.token)).data).toMatchObject({ kind: "closed", reason: "closed" });
    expect((await referenceRow(app.referees[1]!.id)).answered_at).toBeNull();
  });
});

describe("guessing", () => {
  it("locks an address after 30 misses in 15 minutes (429), while its own link keeps working elsewhere", async () => {
    const clock = { at: Date.parse("2026-12-02T00:00:00Z") };
    setRateLimitClockForTesting(() => clock.at);
    const app = await createCreditApplication(handle.db, acme);
    const address = "198.51.100.77";
    // A real link, opened over and over from the address, never counts.
    for (let i = 0; i < 5; i++) expect((await open(app.referees[0]!.token, { address })).status).toBe(200);
    for (let i = 0; i < 30; i++) {
      expect((await open(`${"G".repeat(16)}${String(i).padStart(43, "0")}`, { address })).status).toBe(404);
    }
    const locked = await open(app.referees[0]!.token, { address });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("900");
    expect((await post(app.referees[0]!.token, refereeForm(), { address })).status).toBe(429);
    expect((await open(app.referees[0]!.token, { address: "198.51.100.78" })).status).toBe(200);
    clock.at += 15 * 60_000 + 1;
    expect((await open(app.referees[0]!.token, { address })).status).toBe(200);
    expect((await referenceRow(app.referees[0]!.id)).answered_at).toBeNull();
  });
});

describe("the bare path", () => {
  it("says a referee needs the link from their email, with the business's contact details", async () => {
    const page = await run(
      startLoader as Handler,
      new Request(`${ORIGIN}/credit-trade-reference`, { headers: { host: HOST } }),
      {},
    );
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ businessName: "Acme Plumbing Supplies", contact: { email: expect.any(String) } });
  });
});
