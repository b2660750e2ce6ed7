import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_ANSWERED_RESPONSE_TOKEN, DEMO_RESPONSE_TOKENS } from "../../../db/seed/responses";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { openSeededPglite } from "../../../tests/support/test-db";
import { createLinkToken } from "~/services/links/link-tokens.server";
import { fixedClock, setClockForTesting } from "~/services/platform/clock.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import { CLIENT_ADDRESS_HEADER } from "~/services/platform/request-log.server";
import {
  createResponseRequest,
  resendResponseRequest,
  withdrawResponseRequest,
} from "~/services/responses/responses.server";
import { action, headers, loader } from "./response.$slug";
import { headers as completeHeaders, loader as completeLoader } from "./response.complete.$slug";

/**
 * The response pages through their loaders and actions with real Requests (issue 17; decisions
 * 031 and 040): the emailed link shows the question and takes one answer of the request's own
 * kind — with what that answer needs and a typed name where the kind is signed — then shows
 * exactly what was recorded, from then on; every bad field is said at the field with nothing
 * written; every token that does not check out opens nothing, and a closed link says why.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;
let handle: DatabaseHandle;
let acme = "";
let kiwi = "";
const contacts: Record<string, string> = {};
const accounts: Record<string, string> = {};

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const row of await handle.db.selectFrom("contacts").select(["id", "email", "business_id"]).execute()) {
    contacts[row.email] = row.id;
    if (row.email === "olivia@coastal.example") acme = row.business_id;
    if (row.email === "aroha@orchards.example") kiwi = row.business_id;
  }
  for (const row of await handle.db.selectFrom("accounts").select(["id", "number"]).execute()) {
    accounts[row.number] = row.id;
  }
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});
beforeEach(() => catcher.clear());
afterEach(() => setClockForTesting(undefined));

let day = 700;
const pastDay = () => new Date(Date.now() - day++ * 86_400_000).toISOString().slice(0, 10);

let invoiceNumber = 1;

/** A new contact of ACME-2000: an address is asked once per contact and account while open. */
async function freshContact() {
  const contact = await handle.db
    .insertInto("contacts")
    .values({
      business_id: acme,
      email: `site-${randomUUID().slice(0, 8)}@hillside.example`,
      first_name: "Kim",
      last_name: "Site",
      position: "Site manager",
      verified_at: new Date(),
      permissions: [],
      password_hash: null,
      external_subject: null,
      disabled_at: null,
    })
    .returning(["id", "email"])
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto("account_contacts")
    .values({ business_id: acme, account_id: accounts["ACME-2000"]!, contact_id: contact.id, role: "contact" })
    .execute();
  return contact.email;
}

/**
 * A request made as the back office makes one, its link taken from the email being sent: an
 * address to a new contact of ACME-2000, a statement of a date of its own, a credit on an
 * invoice of its own — so no two ask the same open question.
 */
async function ask(kind: "delivery-address" | "statement" | "dispute", extra: Record<string, unknown> = {}) {
  let link = "";
  const body: Record<string, unknown> = {
    kind,
    account: "ACME-2000",
    contact: kind === "delivery-address" ? await freshContact() : "olivia@coastal.example",
    ...(kind === "delivery-address"
      ? { address: { line1: "3 Ridge Rd", locality: "Katoomba", state: "NSW", postcode: "2780", country: "AU" } }
      : {}),
    ...(kind === "statement" ? { statement: { periodEnd: pastDay(), closingBalanceCents: 12_345 } } : {}),
    ...(kind === "dispute"
      ? {
          dispute: {
            invoice: `ACME-2000-INV-${String(invoiceNumber++).padStart(3, "0")}`,
            resolution: { type: "credit", amountCents: 2_500 },
          },
        }
      : {}),
    ...extra,
  };
  const { request } = await createResponseRequest(acme, body, {
    onLink: (_email, url) => (link = url),
  });
  return { id: request.id, reference: request.reference, token: link.split("/response/")[1]! };
}

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = { status: number; data: any; headers: Headers | undefined; location?: string | null };

async function run(handler: Handler, request: Request, params: object): Promise<Page> {
  let result: unknown;
  try {
    result = await handler({ request, params, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response) && (thrown as { type?: string } | null)?.type !== "DataWithResponseInit") {
      throw thrown;
    }
    result = thrown;
  }
  if (result instanceof Response) {
    const type = result.headers.get("content-type") ?? "";
    return {
      status: result.status,
      data: type.includes("json") ? await result.json() : undefined,
      location: result.headers.get("location"),
      headers: result.headers,
    };
  }
  const { data, init } = result as { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };
  if (data === undefined) return { status: 200, data: result, headers: undefined };
  return { status: init?.status ?? 200, data, headers: new Headers(init?.headers) };
}

const open = (token: string, query = "") =>
  run(loader as Handler, new Request(`${ORIGIN}/response/${token}${query}`, { headers: { host: HOST } }), {
    slug: token,
  });
const complete = (token: string, query = "") =>
  run(
    completeLoader as Handler,
    new Request(`${ORIGIN}/response/complete/${token}${query}`, { headers: { host: HOST } }),
    { slug: token },
  );

function post(token: string, form: Record<string, string> | string, options: { origin?: string; type?: string } = {}) {
  return run(
    action as Handler,
    new Request(`${ORIGIN}/response/${token}`, {
      method: "POST",
      headers: {
        host: HOST,
        origin: options.origin ?? ORIGIN,
        "content-type": options.type ?? "application/x-www-form-urlencoded",
        "user-agent": "Mozilla/5.0 (route test)",
        [CLIENT_ADDRESS_HEADER]: "192.0.2.44",
      },
      body: typeof form === "string" ? form : new URLSearchParams(form).toString(),
    }),
    { slug: token },
  );
}

const answers = async (requestId: string) =>
  Number(
    (
      await handle.db
        .selectFrom("response_answers")
        .where("request_id", "=", requestId)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("the question", () => {
  it("shows what the business asks, with the form, and counts the opening; the link stays usable", async () => {
    const { id, token, reference } = await ask("delivery-address", { message: "Our trucks <b>moved</b>." });
    const page = await open(token);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      kind: "open",
      question: {
        reference,
        kind: "delivery-address",
        businessName: "Acme Plumbing Supplies",
        account: "Hillside Renovations (ACME-2000)",
        message: "Our trucks <b>moved</b>.",
        address: ["3 Ridge Rd", "KATOOMBA NSW 2780", "Australia"],
      },
      form: { choices: ["confirmed", "corrected"], nameRequired: false, country: "AU" },
    });
    expect(headers({} as never)).toEqual({ "Referrer-Policy": "strict-origin", "Cache-Control": "private, no-store" });
    expect(completeHeaders({} as never)).toEqual(headers({} as never));
    await open(token);
    const link = await handle.db
      .selectFrom("link_tokens")
      .select(["open_count", "revoked_at"])
      .where("subject_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(link).toEqual({ open_count: 2, revoked_at: null });
  });

  it("opens each of the README's demo links, and the answered one goes to its complete page", async () => {
    expect((await open(DEMO_RESPONSE_TOKENS["delivery-address"])).data.question.kind).toBe("delivery-address");
    const statement = await open(DEMO_RESPONSE_TOKENS.statement);
    expect(statement.data.form).toMatchObject({ choices: ["acknowledged", "disputed"], nameRequired: true });
    const dispute = await open(DEMO_RESPONSE_TOKENS.dispute);
    expect(dispute.data.question.dispute).toMatchObject({
      invoice: "ACME-1000-INV-017",
      disputeReason: "Goods arrived damaged",
      resolution: { type: "credit" },
    });
    const answered = await open(DEMO_ANSWERED_RESPONSE_TOKEN);
    expect(answered.status).toBe(302);
    expect(answered.location).toBe(`/response/complete/${DEMO_ANSWERED_RESPONSE_TOKEN}`);
    expect(answered.headers?.get("cache-control")).toBe("private, no-store");
    const record = await complete(DEMO_ANSWERED_RESPONSE_TOKEN);
    expect(record.data).toMatchObject({
      kind: "complete",
      answer: { choice: "acknowledged", typedName: "Olivia Nguyen" },
    });
    // The network address is in the record, not on a page anyone holding the link can open.
    expect(record.data.answer).not.toHaveProperty("clientAddress");
    expect(JSON.stringify(record.data)).not.toContain("203.0.113.10");
  });

  it("answers one 'This link isn't valid' 404 for every token that does not check out, and writes nothing", async () => {
    const { id, token } = await ask("statement");
    const otherPurpose = await createLinkToken(handle.db, {
      businessId: acme,
      purpose: "agreement",
      subjectId: id,
      contactId: contacts["olivia@coastal.example"]!,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const kiwiRequest = await createResponseRequest(
      kiwi,
      {
        kind: "statement",
        account: "KF-500",
        contact: "aroha@orchards.example",
        statement: { periodEnd: pastDay(), closingBalanceCents: 1 },
      },
      { onLink: () => {} },
    );
    const kiwiToken = await createLinkToken(handle.db, {
      businessId: kiwi,
      purpose: "response",
      subjectId: kiwiRequest.request.id,
      contactId: contacts["aroha@orchards.example"]!,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    for (const bad of [
      token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"),
      token.slice(0, 40),
      `${token}x`,
      otherPurpose.token,
      kiwiToken.token,
      "RR-DEMO0001",
      "complete",
      "%3Cscript%3E",
      "' OR 1=1 --",
    ]) {
      const page = await open(bad);
      expect(page.status, bad).toBe(404);
      expect(page.data, bad).toEqual({ reason: "link-invalid" });
      expect(page.headers?.get("referrer-policy"), bad).toBe("strict-origin");
      expect((await complete(bad)).status, bad).toBe(404);
      const posted = await post(bad, { choice: "acknowledged", typedName: "X" });
      expect(posted.status, bad).toBe(404);
    }
    expect(await answers(id)).toBe(0);
    expect(await answers(kiwiRequest.request.id)).toBe(0);
  });
});

describe("answering", () => {
  it("confirms an address: POST/redirect/GET to the complete page, which shows what was recorded from then on", async () => {
    const { id, token } = await ask("delivery-address");
    const at = new Date("2026-12-03T23:15:02.123Z");
    setClockForTesting(fixedClock(at));
    const posted = await post(token, { choice: "confirmed" });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/response/complete/${token}`);
    expect(posted.headers?.get("referrer-policy")).toBe("strict-origin");
    const row = await handle.db
      .selectFrom("response_answers")
      .selectAll()
      .where("request_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      account_id: accounts["ACME-2000"],
      choice: "confirmed",
      typed_name: null,
      ip_address: "192.0.2.44",
      user_agent: "Mozilla/5.0 (route test)",
    });
    const page = await complete(token);
    expect(page.data).toMatchObject({
      kind: "complete",
      notice: null,
      answer: {
        choice: "confirmed",
        address: null,
        time: "Dec 4, 2026, 10:15 am",
      },
      question: { kind: "delivery-address", address: ["3 Ridge Rd", "KATOOMBA NSW 2780", "Australia"] },
    });
    // Kept in the record (above) and the API; the page shows the time and the name only.
    expect(JSON.stringify(page.data)).not.toContain("192.0.2.44");
    // The link from now on: the question page redirects to what was recorded.
    const again = await open(token);
    expect(again.status).toBe(302);
    expect(again.location).toBe(`/response/complete/${token}`);
    // A double submit (or a second tab) records nothing new and says so.
    const second = await post(token, { choice: "corrected", line1: "1 Other St" });
    expect(second.location).toBe(`/response/complete/${token}?notice=already`);
    expect((await complete(token, "?notice=already")).data.notice).toBe("already");
    expect(await answers(id)).toBe(1);
  });

  it("takes a corrected Australian or New Zealand address, kept as typed", async () => {
    const { id, token } = await ask("delivery-address");
    const posted = await post(token, {
      choice: "corrected",
      line1: `Unit 4, <b>7</b> O'Brien's Rd; DROP TABLE x;--`,
      line2: "Mapua",
      locality: "Nelson",
      state: "NSW",
      postcode: "7005",
      country: "NZ",
    });
    expect(posted.location).toBe(`/response/complete/${token}`);
    const page = await complete(token);
    expect(page.data.answer.address).toEqual([
      `Unit 4, <b>7</b> O'Brien's Rd; DROP TABLE x;--`,
      "Mapua",
      "Nelson 7005",
      "New Zealand",
    ]);
    expect(await answers(id)).toBe(1);
  });

  it("acknowledges a statement with a typed name, and says what is wrong with one", async () => {
    const first = await ask("statement");
    expect((await post(first.token, { choice: "acknowledged", typedName: "  Olivia Nguyen  " })).location).toBe(
      `/response/complete/${first.token}`,
    );
    expect((await complete(first.token)).data.answer).toMatchObject({
      choice: "acknowledged",
      typedName: "Olivia Nguyen",
    });
    const second = await ask("statement");
    const note = "Payment of $50 on 3 March is missing.\r\nمرحبا 🧾 <script>x</script>";
    await post(second.token, { choice: "disputed", note, typedName: "Olivia" });
    expect((await complete(second.token)).data.answer).toMatchObject({
      choice: "disputed",
      note: "Payment of $50 on 3 March is missing.\nمرحبا 🧾 <script>x</script>",
    });
  });

  it("accepts or rejects a proposal on a disputed invoice", async () => {
    const accepted = await ask("dispute", {
      dispute: { invoice: "ACME-2000-INV-017", resolution: { type: "credit", amountCents: 2_500 } },
    });
    await post(accepted.token, { choice: "accepted", typedName: "Olivia Nguyen" });
    expect((await complete(accepted.token)).data).toMatchObject({
      answer: { choice: "accepted", typedName: "Olivia Nguyen" },
      question: {
        dispute: {
          invoice: "ACME-2000-INV-017",
          disputeReason: "Goods arrived damaged",
          resolution: { type: "credit", amount: "$25.00" },
        },
      },
    });
    const rejected = await ask("dispute", {
      dispute: { invoice: "ACME-2000-INV-024", resolution: { type: "position", text: "Delivered as ordered." } },
    });
    await post(rejected.token, { choice: "rejected", reason: "Two boxes were crushed.", typedName: "Olivia" });
    expect((await complete(rejected.token)).data.answer).toMatchObject({
      choice: "rejected",
      reason: "Two boxes were crushed.",
    });
  });

  it("records one answer when two submissions arrive at once", async () => {
    const { id, token } = await ask("statement");
    const results = await Promise.all([
      post(token, { choice: "acknowledged", typedName: "Olivia" }),
      post(token, { choice: "disputed", note: "Wrong", typedName: "Olivia" }),
      post(token, { choice: "acknowledged", typedName: "Olivia" }),
    ]);
    expect(results.every((r) => r.status === 303)).toBe(true);
    expect(results.filter((r) => r.location === `/response/complete/${token}`)).toHaveLength(1);
    expect(results.filter((r) => r.location === `/response/complete/${token}?notice=already`)).toHaveLength(2);
    expect(await answers(id)).toBe(1);
  });
});

describe("bad input", () => {
  it.each([
    ["no choice", "statement", { typedName: "Olivia" }, { choice: "response.error.choice.required" }],
    ["another kind's answer", "delivery-address", { choice: "accepted" }, { choice: "response.error.choice.other" }],
    ["an invented answer", "dispute", { choice: "maybe", typedName: "O" }, { choice: "response.error.choice.other" }],
    [
      "a corrected address with nothing filled in",
      "delivery-address",
      { choice: "corrected", country: "AU" },
      {
        line1: "response.error.line1.required",
        locality: "response.error.suburb.required",
        state: "response.error.state.required",
        postcode: "response.error.postcode.required",
      },
    ],
    [
      "a postcode of another state",
      "delivery-address",
      { choice: "corrected", line1: "1 Hay St", locality: "Perth", state: "WA", postcode: "2000", country: "AU" },
      { postcode: "response.error.postcode.state" },
    ],
    [
      "a postcode that is not 4 digits",
      "delivery-address",
      { choice: "corrected", line1: "1 Hay St", locality: "Perth", state: "WA", postcode: "60O0", country: "AU" },
      { postcode: "response.error.postcode" },
    ],
    [
      "the address already stated",
      "delivery-address",
      { choice: "corrected", line1: "3 ridge rd", locality: "KATOOMBA", state: "NSW", postcode: "2780", country: "AU" },
      { line1: "response.error.address.same" },
    ],
    [
      "an oversized street line",
      "delivery-address",
      { choice: "corrected", line1: "x".repeat(101), locality: "Perth", state: "WA", postcode: "6000", country: "AU" },
      { line1: "response.error.tooLong" },
    ],
    [
      "another country",
      "delivery-address",
      { choice: "corrected", line1: "1 Main St", locality: "Springfield", postcode: "1234", country: "US" },
      { country: "response.error.country" },
    ],
    [
      "a statement disputed without a note",
      "statement",
      { choice: "disputed", typedName: "O" },
      { note: "response.error.note.required" },
    ],
    [
      "an oversized note",
      "statement",
      { choice: "disputed", note: "n".repeat(2001), typedName: "O" },
      { note: "response.error.tooLong" },
    ],
    [
      "no typed name",
      "statement",
      { choice: "acknowledged", typedName: "   " },
      { typedName: "response.error.name.required" },
    ],
    [
      "a name with a direction override",
      "statement",
      { choice: "acknowledged", typedName: "Olivia \u202eNguyen" },
      { typedName: "response.error.characters" },
    ],
    [
      "a name on two lines",
      "dispute",
      { choice: "accepted", typedName: "Olivia\r\nNguyen" },
      { typedName: "response.error.characters" },
    ],
    [
      "a 201-character name",
      "dispute",
      { choice: "accepted", typedName: "n".repeat(201) },
      { typedName: "response.error.tooLong" },
    ],
    [
      "a rejection without a reason",
      "dispute",
      { choice: "rejected", typedName: "Olivia" },
      { reason: "response.error.reason.required" },
    ],
  ] as const)(
    "answers %s with the form again, each error at its field, nothing written",
    async (_label, kind, form, errors) => {
      const { id, token } = await ask(kind);
      const page = await post(token, form);
      expect(page.status).toBe(400);
      expect(page.data.errors).toEqual(errors);
      expect(page.headers?.get("referrer-policy")).toBe("strict-origin");
      expect(await answers(id)).toBe(0);
      // What was typed comes back (clipped: a huge field is never reflected whole).
      for (const [name, value] of Object.entries(form)) {
        expect(page.data.values[name]).toBe((value as string).slice(0, 4000));
      }
      // The page still asks.
      expect((await open(token)).data.kind).toBe("open");
    },
  );

  it("names the field that held control characters, keeps everything typed (without them), and takes nothing", async () => {
    const { id, token } = await ask("statement");
    const note = "Payment of $50 on 3 March is missing.\r\nمرحبا <b>x</b>";
    const page = await post(token, { choice: "disputed", note, typedName: "Olivia\u0000 Ng\u0007uyen" });
    expect(page.status).toBe(400);
    expect(page.data.errors).toEqual({ typedName: "response.error.controlCharacters" });
    expect(page.data.values).toEqual({ choice: "disputed", note, typedName: "Olivia Nguyen" });
    expect(page.headers?.get("referrer-policy")).toBe("strict-origin");

    // Other mistakes of the same form are said at their fields too.
    const address = await ask("delivery-address");
    const both = await post(address.token, {
      choice: "corrected",
      line1: "4 Hay\u001b St",
      locality: "Perth",
      state: "WA",
      postcode: "2000",
      country: "AU",
    });
    expect(both.status).toBe(400);
    expect(both.data.errors).toEqual({
      line1: "response.error.controlCharacters",
      postcode: "response.error.postcode.state",
    });
    expect(both.data.values).toMatchObject({
      choice: "corrected",
      line1: "4 Hay St",
      locality: "Perth",
      postcode: "2000",
    });

    // Held by a field the form does not have: said above the form, what was typed kept.
    const stray = await post(token, { choice: "acknowledged", typedName: "Olivia", extra: "\u0000" });
    expect(stray.status).toBe(400);
    expect(stray.data.errors).toEqual({ form: "response.error.characters" });
    expect(stray.data.values).toEqual({ choice: "acknowledged", typedName: "Olivia" });
    expect(await answers(id)).toBe(0);
    expect(await answers(address.id)).toBe(0);
  });

  it("refuses a POST from another site, a body that is no form, and a body too large, with nothing written", async () => {
    const { id, token } = await ask("statement");
    const crossSite = await post(token, { choice: "acknowledged", typedName: "O" }, { origin: "http://evil.example" });
    expect(crossSite.status).toBe(403);
    const json = await post(token, JSON.stringify({ choice: "acknowledged" }), { type: "application/json" });
    expect(json.status).toBe(415);
    const huge = await post(token, { choice: "disputed", note: "x".repeat(70_000), typedName: "O" });
    expect(huge.status).toBe(413);
    expect(await answers(id)).toBe(0);
  });
});

describe("a link that no longer opens its request", () => {
  it("says withdrawn, replaced, expired or already answered — with nothing of the answer — and takes nothing", async () => {
    const withdrawn = await ask("statement");
    await withdrawResponseRequest(acme, withdrawn.id);
    const replaced = await ask("statement");
    await resendResponseRequest(acme, replaced.id);
    const answeredElsewhere = await ask("statement");
    let newer = "";
    await resendResponseRequest(acme, answeredElsewhere.id, {
      onLink: (_e, url) => (newer = url.split("/response/")[1]!),
    });
    expect((await post(newer, { choice: "acknowledged", typedName: "Olivia" })).status).toBe(303);
    const expired = await ask("statement", { expiresInDays: 1 });
    setClockForTesting(fixedClock(new Date(Date.now() + 2 * 86_400_000)));
    for (const [made, reason] of [
      [withdrawn, "withdrawn"],
      [replaced, "replaced"],
      [answeredElsewhere, "answered"],
      [expired, "expired"],
    ] as const) {
      for (const page of [await open(made.token), await complete(made.token)]) {
        expect(page.status, reason).toBe(200);
        expect(page.data, reason).toMatchObject({
          kind: "closed",
          reason,
          reference: made.reference,
          businessName: "Acme Plumbing Supplies",
          contact: { email: "accounts@acme.example", phone: "1300 226 300" },
        });
        expect(JSON.stringify(page.data), reason).not.toContain("Olivia");
      }
      const posted = await post(made.token, { choice: "acknowledged", typedName: "Olivia" });
      expect(posted.status, reason).toBe(303);
      expect(posted.location, reason).toBe(`/response/${made.token}`);
    }
    expect((await open(answeredElsewhere.token)).data.answeredOn).toMatch(/\d{4}/);
    expect(await answers(withdrawn.id)).toBe(0);
    expect(await answers(replaced.id)).toBe(0);
    expect(await answers(expired.id)).toBe(0);
    expect(await answers(answeredElsewhere.id)).toBe(1);
  });

  it("reads as withdrawn once the contact is off the account or disabled, and works again when they are back", async () => {
    const { id, token } = await ask("statement", { account: "ACME-1000", contact: "new@coastal.example" });
    await handle.db
      .deleteFrom("account_contacts")
      .where("contact_id", "=", contacts["new@coastal.example"]!)
      .where("account_id", "=", accounts["ACME-1000"]!)
      .execute();
    try {
      expect((await open(token)).data).toMatchObject({ kind: "closed", reason: "withdrawn" });
      expect((await post(token, { choice: "acknowledged", typedName: "N" })).location).toBe(`/response/${token}`);
      expect(await answers(id)).toBe(0);
    } finally {
      await handle.db
        .insertInto("account_contacts")
        .values({
          business_id: acme,
          account_id: accounts["ACME-1000"]!,
          contact_id: contacts["new@coastal.example"]!,
          role: "contact",
        })
        .execute();
    }
    expect((await open(token)).data.kind).toBe("open");
    await handle.db
      .updateTable("contacts")
      .set({ disabled_at: new Date() })
      .where("id", "=", contacts["new@coastal.example"]!)
      .execute();
    try {
      expect((await complete(token)).data).toMatchObject({ kind: "closed", reason: "withdrawn" });
    } finally {
      await handle.db
        .updateTable("contacts")
        .set({ disabled_at: null })
        .where("id", "=", contacts["new@coastal.example"]!)
        .execute();
    }
  });

  it("sends the complete page of a request not yet answered back to its question", async () => {
    const { token } = await ask("statement");
    const page = await complete(token);
    expect(page.status).toBe(302);
    expect(page.location).toBe(`/response/${token}`);
    expect(page.headers?.get("referrer-policy")).toBe("strict-origin");
    expect((await complete(randomUUID())).status).toBe(404);
  });
});
