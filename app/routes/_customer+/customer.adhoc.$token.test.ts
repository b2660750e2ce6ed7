import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createLinkToken, revokeLinkTokens } from "~/services/links/link-tokens.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { paymentRequestFixtures } from "../../../tests/support/payment-request-fixtures";
import { action, headers, loader } from "./customer.adhoc.$token";
import { loader as receiptLoader } from "./payment.complete.$slug";

/**
 * Paying an amount of one's choice from an emailed link (issue 14; decisions 031 and 033),
 * through the route's loader and action with real Requests: a valid link opens exactly its
 * account with a new card only (no saved method, no saving), counts the opening and pays as
 * the link's contact; any token that does not check out is the one "This link isn't valid"
 * 404; an expired or withdrawn link says so and takes nothing; the paying browser then opens
 * the receipt. Every answer keeps the token out of a Referer and out of caches.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const nextYear = String(new Date().getUTCFullYear() + 1);
const NEW_CARD = {
  method: "new",
  cardNumber: "4111 1111 1111 1111",
  cardHolderName: "Pat Payer",
  expiryMonth: "12",
  expiryYear: nextYear,
  cvn: "123",
};

let handle: DatabaseHandle;
let acme = "";
let kiwi = "";
const contacts: Record<string, string> = {};
const accounts: Record<string, string> = {};

beforeAll(async () => {
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
  await setAdhoc(true);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function setAdhoc(enabled: boolean) {
  await handle.db
    .insertInto("adhoc_settings")
    .values({ business_id: acme, enabled, min_cents: 1_000, max_cents: 500_000 })
    .onConflict((oc) => oc.column("business_id").doUpdateSet({ enabled, min_cents: 1_000, max_cents: 500_000 }))
    .execute();
}

/** A link like the back-office API sends: purpose adhoc, the account as subject, one contact. */
async function mint(
  input: { businessId?: string; account?: string; contact?: string; purpose?: "adhoc" | "payment-request" } = {},
  expiresInMs = 86_400_000,
) {
  return createLinkToken(handle.db, {
    businessId: input.businessId ?? acme,
    purpose: input.purpose ?? "adhoc",
    subjectId: accounts[input.account ?? "ACME-1000"]!,
    contactId: contacts[input.contact ?? "olivia@coastal.example"]!,
    expiresAt: new Date(Date.now() + expiresInMs),
  });
}

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

async function run(handler: Handler, request: Request, params: object) {
  try {
    return await handler({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    if ((thrown as { type?: string } | null)?.type === "DataWithResponseInit") return thrown;
    throw thrown;
  }
}

type Reply = {
  errors: Record<string, string>;
  message: string | null;
  breakdown: { totalCents: number } | null;
};

function answer(result: unknown) {
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get("location"), headers: result.headers };
  }
  const { data, init } = result as { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };
  if (data === undefined) return { status: 200, data: result as Reply & Record<string, unknown>, headers: undefined };
  return {
    status: init?.status ?? 200,
    data: data as Reply & Record<string, unknown>,
    headers: new Headers(init?.headers),
  };
}

const linkUrl = (token: string) => `${ORIGIN}/customer/adhoc/${token}`;
const open = (token: string, cookie?: string) =>
  run(loader as Handler, new Request(linkUrl(token), { headers: { host: HOST, ...(cookie ? { cookie } : {}) } }), {
    token,
  }).then(answer);

function post(token: string, form: Record<string, string>, origin = ORIGIN) {
  return run(
    action as Handler,
    new Request(linkUrl(token), {
      method: "POST",
      headers: { host: HOST, origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    }),
    { token },
  ).then(answer);
}

async function pay(token: string, fields: Record<string, string>) {
  const quote = await post(token, { ...fields, intent: "quote", cardNumber: "", cardPrefix: "41111111" });
  const requestGuid = randomUUID();
  const total = quote.data?.breakdown?.totalCents;
  const paid = await post(token, {
    ...fields,
    intent: "pay",
    requestGuid,
    expectedAmount: total === undefined ? "" : String(total),
  });
  return { quote, paid, requestGuid };
}

const countPayments = async () =>
  Number(
    (
      await handle.db
        .selectFrom("payments")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("opening an ad-hoc link", () => {
  it("shows the form for exactly its account, a new card only, counts the opening and changes nothing else", async () => {
    const { id, token } = await mint();
    const page = await open(token);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      kind: "open",
      account: { number: "ACME-1000" },
      adhoc: { enabled: true, min: "$10.00", max: "$5,000.00" },
      // ACME-1000 has saved cards; a link offers none of them, and no saving (decision 031).
      methods: { cards: [], agreements: [], saveCard: false, promise: false },
      method: { kind: "new" },
      // Acme has PayTo: the account's own PayID is the other way to pay.
      payId: { status: "ready" },
    });
    await open(token);
    const link = await handle.db
      .selectFrom("link_tokens")
      .select(["open_count", "revoked_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(link).toEqual({ open_count: 2, revoked_at: null });
    expect(headers({} as never)).toEqual({ "Referrer-Policy": "strict-origin", "Cache-Control": "private, no-store" });
  });

  it("answers one 'This link isn't valid' 404 for every token that does not check out", async () => {
    const { token } = await mint();
    const otherPurpose = await mint({ purpose: "payment-request" });
    const otherHost = await mint({ businessId: kiwi, account: "KF-500", contact: "aroha@orchards.example" });
    const tampered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    const before = await countPayments();
    for (const bad of [
      tampered,
      token.slice(0, 40),
      `${token}x`,
      otherPurpose.token,
      otherHost.token,
      randomBytes(44).toString("base64url").slice(0, 59),
      "not-a-token",
      "%3Cscript%3E",
    ]) {
      const page = await open(bad);
      expect(page.status, bad).toBe(404);
      expect(page.data, bad).toEqual({ reason: "link-invalid" });
      expect(page.headers?.get("referrer-policy"), bad).toBe("strict-origin");
      const posted = await post(bad, { ...NEW_CARD, intent: "pay", amount: "20.00", reference: "x" });
      expect(posted.status, bad).toBe(404);
    }
    expect(await countPayments()).toBe(before);
  });

  it("says an expired or withdrawn link can't be used, with whom to ask, and takes nothing", async () => {
    const expired = await mint({}, -1_000);
    const withdrawn = await mint({ account: "ACME-2000" });
    await revokeLinkTokens(handle.db, { businessId: acme, purpose: "adhoc", subjectId: accounts["ACME-2000"]! });
    const before = await countPayments();
    for (const [link, reason] of [
      [expired, "expired"],
      [withdrawn, "revoked"],
    ] as const) {
      const page = await open(link.token);
      expect(page.data).toMatchObject({
        kind: "closed",
        reason,
        contact: { email: "accounts@acme.example", phone: "1300 226 300" },
      });
      const posted = await post(link.token, { ...NEW_CARD, intent: "pay", amount: "20.00", reference: "x" });
      expect(posted.status).toBe(303);
      expect(posted.location).toBe(`/customer/adhoc/${link.token}`);
    }
    expect(await countPayments()).toBe(before);
  });

  it("no longer opens the account once the link's contact may not see it (reads as withdrawn)", async () => {
    const contact = await handle.db
      .insertInto("contacts")
      .values({
        business_id: acme,
        email: `gone-${randomUUID().slice(0, 8)}@acme.test`,
        first_name: "Gone",
        last_name: "Contact",
        position: "",
        verified_at: new Date(),
        permissions: [],
        password_hash: null,
        external_subject: null,
        disabled_at: null,
      })
      .returning(["id", "email"])
      .executeTakeFirstOrThrow();
    contacts[contact.email] = contact.id;
    // Never joined to ACME-2000: a link made out to them for it opens nothing.
    const { token } = await mint({ account: "ACME-2000", contact: contact.email });
    expect((await open(token)).data).toMatchObject({ kind: "closed", reason: "revoked" });
  });

  it("no longer opens the account once the link's contact is disabled, and takes nothing", async () => {
    const payer = await paymentRequestFixtures(handle).contact({ businessId: acme, accountId: accounts["ACME-1000"]! });
    const contact = await handle.db
      .selectFrom("contacts")
      .select("email")
      .where("id", "=", payer.scope.contactId)
      .executeTakeFirstOrThrow();
    contacts[contact.email] = payer.scope.contactId;
    const { token } = await mint({ contact: contact.email });
    expect((await open(token)).data).toMatchObject({ kind: "open" });
    await payer.disable();
    expect((await open(token)).data).toMatchObject({ kind: "closed", reason: "revoked" });
    const before = await countPayments();
    const { paid } = await pay(token, { amount: "25.00", reference: "Deposit", method: "new" });
    expect(paid.status).toBe(303);
    expect(await countPayments()).toBe(before);
  });
});

describe("paying from an ad-hoc link", () => {
  it("pays as the link's contact, remembers the link in this browser and opens its receipt", async () => {
    const { id, token } = await mint({ account: "ACME-2000", contact: "olivia@coastal.example" });
    const { paid, requestGuid } = await pay(token, { ...NEW_CARD, amount: "42.00", reference: "Deposit for job 7" });
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/payment\/complete\/PAY-[0-9A-F]+$/);
    expect(paid.headers!.get("referrer-policy")).toBe("strict-origin");
    const cookie = paid.headers!.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^portal_link=/);
    const payment = await handle.db
      .selectFrom("payments")
      .selectAll()
      .where("request_guid", "=", requestGuid)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      purpose: "adhoc",
      status: "succeeded",
      subtotal_cents: 4_200,
      account_id: accounts["ACME-2000"],
      created_by: contacts["olivia@coastal.example"],
      link_token_id: id,
      payer_reference: "Deposit for job 7",
      card_id: null,
    });
    // Opening is not using, and paying does not spend the link: it stays live until it expires.
    expect((await open(token)).data).toMatchObject({ kind: "open" });
    // The browser that paid may open the receipt without a session; another browser may not.
    const receipt = (await run(
      receiptLoader as Handler,
      new Request(`${ORIGIN}${paid.location}`, { headers: { host: HOST, cookie: cookie.split(";")[0]! } }),
      { slug: payment.reference },
    )) as { receipt: { reference: string; payerReference: string | null } };
    expect(receipt.receipt).toMatchObject({ reference: payment.reference, payerReference: "Deposit for job 7" });
    const stranger = answer(
      await run(receiptLoader as Handler, new Request(`${ORIGIN}${paid.location}`, { headers: { host: HOST } }), {
        slug: payment.reference,
      }),
    );
    expect(stranger.status).toBe(302);
  });

  it("takes a Pay tap made before any total was shown (the 'Continue' button): the confirm step, never a refusal", async () => {
    // The page's first render has no total (the amount is the payer's to type), so its button says
    // "Continue" and is never disabled (issue 31): the server prices what was typed and asks to confirm.
    const { token } = await mint({ account: "ACME-2000" });
    const before = await countPayments();
    const first = await post(token, {
      ...NEW_CARD,
      amount: "25.00",
      reference: "Continue tap",
      intent: "pay",
      requestGuid: randomUUID(),
      expectedAmount: "",
    });
    expect(first.status).toBe(200);
    const confirm = (first.data as unknown as { confirm: { method: string; shownTotal: string | null } | null })
      .confirm;
    expect(confirm).toMatchObject({ method: expect.stringMatching(/^held:/), shownTotal: null });
    expect(first.data!.message).toBeNull();
    expect(first.data!.breakdown!.totalCents).toBeGreaterThan(2_500);
    expect(await countPayments()).toBe(before);
    // A bad amount under the same button is the field's error, said at the field, and nothing moves.
    const bad = await post(token, { ...NEW_CARD, amount: "", reference: "x", intent: "pay", expectedAmount: "" });
    expect(bad.status).toBe(400);
    expect(bad.data!.errors.amount).toBeTruthy();
    expect(await countPayments()).toBe(before);
  });

  it("refuses the account's saved cards and PayTo agreements, and saves no card", async () => {
    const { token } = await mint();
    const card = await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", accounts["ACME-1000"]!)
      .where("removed_at", "is", null)
      .executeTakeFirstOrThrow();
    const cardsBefore = await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", accounts["ACME-1000"]!)
      .execute();
    const before = await countPayments();
    for (const method of [`card:${card.id}`, `payto:${randomUUID()}`, "promise"]) {
      const { paid } = await pay(token, { ...NEW_CARD, method, amount: "20.00", reference: "Stored method?" });
      expect(paid.status, method).toBe(400);
      expect(paid.data!.errors.method, method).toMatch(/error/);
    }
    expect(await countPayments()).toBe(before);
    const { paid } = await pay(token, { ...NEW_CARD, amount: "20.00", reference: "Save?", saveCard: "on" });
    expect(paid.status).toBe(302);
    const cardsAfter = await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", accounts["ACME-1000"]!)
      .execute();
    expect(cardsAfter).toHaveLength(cardsBefore.length);
  });

  it("keeps bad amounts and references from moving anything", async () => {
    const { token } = await mint();
    const before = await countPayments();
    for (const [amount, reference, field] of [
      ["0", "x", "amount"],
      ["9.99", "x", "amount"],
      ["5000.01", "x", "amount"],
      ["10.005", "x", "amount"],
      ["20.00", "", "reference"],
      ["20.00", "y".repeat(81), "reference"],
    ] as const) {
      const { paid } = await pay(token, { ...NEW_CARD, amount, reference });
      expect(paid.status, `${amount} ${reference}`).toBe(400);
      expect(Object.keys(paid.data!.errors)).toContain(field);
    }
    expect(await countPayments()).toBe(before);
  });

  it("refuses a cross-site POST, and a business that stopped taking ad-hoc payments", async () => {
    const { token } = await mint();
    const before = await countPayments();
    const quote = await post(token, { ...NEW_CARD, intent: "quote", amount: "20.00", cardPrefix: "41111111" });
    const forged = {
      ...NEW_CARD,
      intent: "pay",
      amount: "20.00",
      reference: "x",
      requestGuid: randomUUID(),
      expectedAmount: String(quote.data!.breakdown!.totalCents),
    };
    expect((await post(token, forged, "http://evil.example")).status).toBe(403);
    await setAdhoc(false);
    try {
      expect((await open(token)).data).toMatchObject({ kind: "open", adhoc: { enabled: false } });
      const refused = await post(token, forged);
      expect(refused.status).toBe(409);
      expect(refused.data!.message).toBe("adhoc.error.disabled");
    } finally {
      await setAdhoc(true);
    }
    expect(await countPayments()).toBe(before);
  });

  it("'Sign in to use a saved card' takes the amount and reference typed to the signed-in page, and charges nothing", async () => {
    const { token } = await mint({ account: "ACME-2000" });
    const before = await countPayments();
    const signIn = await post(token, { ...NEW_CARD, amount: "42.50", reference: "Job 9", intent: "signIn" });
    expect(signIn.status).toBe(303);
    expect(signIn.location).toBe(`/payment/adhoc/${accounts["ACME-2000"]}?amount=4250&reference=Job+9`);
    // Nothing of the card comes along: only what the signed-in page reads.
    expect(signIn.location).not.toMatch(/4111|cvn|card/i);
    // An amount the business would not take, or a bad reference, is left behind, not carried.
    const outside = await post(token, { amount: "1.00", reference: "x".repeat(300), intent: "signIn" });
    expect(outside.location).toBe(`/payment/adhoc/${accounts["ACME-2000"]}`);
    expect(await countPayments()).toBe(before);
    // A withdrawn link takes nothing, even this.
    await revokeLinkTokens(handle.db, { businessId: acme, purpose: "adhoc", subjectId: accounts["ACME-2000"]! });
    const closed = await post(token, { amount: "42.50", reference: "Job 9", intent: "signIn" });
    expect(closed.location).toBe(`/customer/adhoc/${token}`);
  });
});
