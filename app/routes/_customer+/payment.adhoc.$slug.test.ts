import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { action, loader } from "./payment.adhoc.$slug";

/**
 * The signed-in ad-hoc page (issue 14; decision 033), its loader and action called with real
 * Requests: only an account the contact may see opens (else 404, in both); the amount is parsed
 * exactly and kept within the business's limits; the payer's reference is required, at most 80
 * characters, free of control characters, and stored as typed (markup and SQL are only text);
 * a payment is credit on the account with the reference on the statement; bad input, a
 * cross-site POST and a business that takes no ad-hoc payments move nothing.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const nextYear = String(new Date().getUTCFullYear() + 1);

let handle: DatabaseHandle;
const cookies: Record<string, string> = {};
const contacts: Record<string, string> = {};
const accounts: Record<string, string> = {};
let acme = "";

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const [who, email] of [
    ["olivia", "olivia@coastal.example"],
    ["sam", "sam@coastal.example"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    acme = contact.business_id;
    contacts[who] = contact.id;
    const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
    cookies[who] = (
      await createSession(request, { businessId: acme, contactId: contact.id, authMethod: "credentials" })
    ).split(";")[0]!;
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

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

async function run(handler: Handler, request: Request, slug: string) {
  try {
    return await handler({ request, params: { slug }, context: {} });
  } catch (thrown) {
    // A thrown Response (redirect, cross-site 403) or `data(…, { status })` (the 404 screen) is an answer too.
    if (thrown instanceof Response) return thrown;
    if ((thrown as { type?: string } | null)?.type === "DataWithResponseInit") return thrown;
    throw thrown;
  }
}

type Reply = {
  errors: Record<string, string>;
  message: string | null;
  messageParams?: Record<string, string>;
  breakdown: { totalCents: number; total: string; surcharge: string | null } | null;
  amounts: Record<string, string>;
  extra: Record<string, string>;
};

/** What a loader or action answered: a status, a redirect's location, or the reply. */
function answer(result: unknown) {
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location") };
  const { data, init } = result as { data: unknown; init?: { status?: number } | null };
  if (data === undefined) return { status: 200, data: result as Reply };
  return { status: init?.status ?? 200, data: data as Reply };
}

const pageUrl = (accountId: string) => `${ORIGIN}/payment/adhoc/${accountId}`;

const get = (who: string | null, accountId: string) =>
  run(
    loader as Handler,
    new Request(pageUrl(accountId), { headers: { host: HOST, ...(who ? { cookie: cookies[who]! } : {}) } }),
    accountId,
  );

function post(who: string, accountId: string, form: Record<string, string>, origin = ORIGIN) {
  return run(
    action as Handler,
    new Request(pageUrl(accountId), {
      method: "POST",
      headers: {
        host: HOST,
        origin,
        cookie: cookies[who]!,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(form).toString(),
    }),
    accountId,
  ).then(answer);
}

const count = async (table: "payments" | "statement_lines") =>
  Number(
    (
      await handle.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const NEW_CARD = {
  method: "new",
  cardNumber: "4111 1111 1111 1111",
  cardHolderName: "Sam Taylor",
  expiryMonth: "12",
  expiryYear: nextYear,
  cvn: "123",
};

/** Quote the form, then pay exactly the quoted total. */
async function pay(who: string, accountId: string, fields: Record<string, string>) {
  const quote = await post(who, accountId, { ...fields, intent: "quote", cardNumber: "", cardPrefix: "41111111" });
  const total = quote.data?.breakdown?.totalCents;
  const requestGuid = randomUUID();
  const paid = await post(who, accountId, {
    ...fields,
    intent: "pay",
    requestGuid,
    expectedAmount: total === undefined ? "" : String(total),
  });
  return { quote, paid, requestGuid };
}

describe("who may open the ad-hoc page of an account", () => {
  it("opens for an account the contact may see, with the business's limits and their ways to pay", async () => {
    const sam = answer(await get("sam", accounts["ACME-1001"]!));
    expect(sam.status).toBe(200);
    expect(sam.data).toMatchObject({
      account: { number: "ACME-1001" },
      adhoc: { enabled: true, min: "$10.00", max: "$5,000.00" },
      // Saving a card is for contacts who may manage payment methods; a promise moves no money.
      methods: { saveCard: false, promise: false },
    });
    // A portal contact may open it too, for a child account their business shows them.
    const olivia = answer(await get("olivia", accounts["ACME-1001"]!));
    expect(olivia.data).toMatchObject({ methods: { saveCard: true } });
  });

  it("is 'Page not found' for any other id, in the loader and the action, and nothing moves", async () => {
    const before = await count("payments");
    const others = [
      accounts["ACME-1000"]!, // the parent of Sam's account, not his
      accounts["ACME-2000"]!, // another customer's
      accounts["KF-500"]!, // another business's
      randomUUID(),
      "not-an-id",
      "' OR 1=1 --",
    ];
    for (const slug of others) {
      expect(answer(await get("sam", slug)).status, slug).toBe(404);
      const posted = await post("sam", slug, { ...NEW_CARD, intent: "pay", amount: "20.00", reference: "x" });
      expect(posted.status, slug).toBe(404);
    }
    expect(await count("payments")).toBe(before);
  });

  it("sends a visitor without a session to sign-in", async () => {
    const result = answer(await get(null, accounts["ACME-1001"]!));
    expect(result.status).toBe(302);
    expect(result.location).toMatch(/^\/auth\/signin\?/);
  });

  it("refuses a cross-site POST that would otherwise pay, before anything is read", async () => {
    const before = await count("payments");
    const fields = { ...NEW_CARD, amount: "20.00", reference: "Cross-site" };
    const quote = await post("sam", accounts["ACME-1001"]!, { ...fields, intent: "quote", cardPrefix: "41111111" });
    const forged = {
      ...fields,
      intent: "pay",
      requestGuid: randomUUID(),
      expectedAmount: String(quote.data!.breakdown!.totalCents),
    };
    for (const origin of ["http://evil.example", "http://kiwi.localhost", "null"]) {
      expect((await post("sam", accounts["ACME-1001"]!, forged, origin)).status, origin).toBe(403);
    }
    expect(await count("payments")).toBe(before);
  });
});

describe("paying an amount of the payer's choice", () => {
  it("credits the account, shows the payer's reference on the statement as typed, and answers a repeat with the same receipt", async () => {
    const account = accounts["ACME-1001"]!;
    const reference = `Job <b>42</b> '; DROP TABLE payments; -- 東京 😀`;
    const linesBefore = await count("statement_lines");
    const { quote, paid, requestGuid } = await pay("sam", account, { ...NEW_CARD, amount: "25.50", reference });
    expect(quote.status).toBe(200);
    // Acme surcharges a Visa: the credit is the amount, the surcharge its own line.
    expect(quote.data!.breakdown!.surcharge).not.toBeNull();
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/payment\/complete\/PAY-[0-9A-F]+$/);
    const payment = await handle.db
      .selectFrom("payments")
      .selectAll()
      .where("request_guid", "=", requestGuid)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      purpose: "adhoc",
      status: "succeeded",
      subtotal_cents: 2_550,
      amount_cents: quote.data!.breakdown!.totalCents,
      payer_reference: reference,
      created_by: contacts.sam,
      account_id: account,
      link_token_id: null,
    });
    const lines = await handle.db
      .selectFrom("statement_lines")
      .select(["type", "description", "debit_cents", "credit_cents"])
      .where("reference", "=", payment.reference)
      .orderBy("type")
      .execute();
    expect(lines).toEqual([
      { type: "fee", description: "Card surcharge", debit_cents: payment.merchant_fee_cents, credit_cents: 0 },
      {
        type: "payment",
        description: `Payment: ${reference} (card Visa •••• 1111)`,
        debit_cents: 0,
        credit_cents: payment.amount_cents,
      },
    ]);
    expect(await count("statement_lines")).toBe(linesBefore + 2);
    // The same form sent again (a double click, a reloaded POST): the first receipt, nothing more.
    const again = await post("sam", account, {
      ...NEW_CARD,
      intent: "pay",
      amount: "25.50",
      reference,
      requestGuid,
      expectedAmount: String(payment.amount_cents),
    });
    expect(again).toEqual({ status: 302, location: paid.location });
    expect(await count("statement_lines")).toBe(linesBefore + 2);
  });

  it("keeps no card for a contact without portal access who posts saveCard=on", async () => {
    const account = accounts["ACME-1001"]!;
    const cards = () =>
      handle.db
        .selectFrom("cards")
        .select("id")
        .where("account_id", "=", account)
        .execute()
        .then((r) => r.length);
    const before = await cards();
    const { paid } = await pay("sam", account, { ...NEW_CARD, amount: "12.00", reference: "Save?", saveCard: "on" });
    expect(paid.status).toBe(302);
    expect(await cards()).toBe(before);
  });
});

describe("bad input moves nothing", () => {
  const account = () => accounts["ACME-1001"]!;

  it.each([
    ["0", "pay.error.amount.zero"],
    ["-5", "pay.error.amount.negative"],
    ["1e3", "pay.error.amount.format"],
    ["10.005", "pay.error.amount.decimals"],
    ["9.99", "adhoc.error.amount.belowMinimum"],
    ["5000.01", "adhoc.error.amount.aboveMaximum"],
    ["99999999999", "pay.error.amount.tooLarge"],
    ["", "pay.error.amount.format"],
    ["<script>", "pay.error.amount.format"],
  ])("the amount %j: %s", async (amount, error) => {
    const before = await count("payments");
    const { quote, paid } = await pay("sam", account(), { ...NEW_CARD, amount, reference: "Job 1" });
    expect(quote.data!.errors.amount).toBe(error);
    expect(quote.data!.breakdown).toBeNull();
    expect(paid.status).toBe(400);
    expect(paid.data!.errors.amount).toBe(error);
    // What was typed comes back to be corrected.
    expect(paid.data!.amounts.amount).toBe(amount);
    expect(await count("payments")).toBe(before);
  });

  it.each([
    ["", "adhoc.error.reference.required"],
    ["   ", "adhoc.error.reference.required"],
    ["x".repeat(81), "adhoc.error.reference.tooLong"],
    ["line\nbreak", "adhoc.error.reference.characters"],
    ["tab\there", "adhoc.error.reference.characters"],
    ["pay\u202emoc.evil", "adhoc.error.reference.characters"],
  ])("the reference %j: %s", async (reference, error) => {
    const before = await count("payments");
    const { paid } = await pay("sam", account(), { ...NEW_CARD, amount: "20.00", reference });
    expect(paid.status).toBe(400);
    expect(paid.data!.errors.reference).toBe(error);
    expect(await count("payments")).toBe(before);
  });

  it("a null byte anywhere in the form is refused by the form reader (400), before the page reads it", async () => {
    const before = await count("payments");
    const result = await post("sam", account(), {
      ...NEW_CARD,
      intent: "pay",
      amount: "20.00",
      reference: "nul\u0000byte",
      requestGuid: randomUUID(),
      expectedAmount: "2000",
    });
    expect(result.status).toBe(400);
    expect(await count("payments")).toBe(before);
  });

  it("a missing reference field, a missing intent and a total the payer never saw", async () => {
    const before = await count("payments");
    const noReference = await post("sam", account(), { ...NEW_CARD, intent: "pay", amount: "20.00" });
    expect(noReference.status).toBe(400);
    expect(noReference.data!.errors.reference).toBe("adhoc.error.reference.required");
    const noIntent = await post("sam", account(), { ...NEW_CARD, amount: "20.00", reference: "x" });
    expect(noIntent.status).toBe(400);
    const otherTotal = await post("sam", account(), {
      ...NEW_CARD,
      intent: "pay",
      amount: "20.00",
      reference: "x",
      requestGuid: randomUUID(),
      expectedAmount: "1",
    });
    // A total the payer never saw is confirmed, never charged and never refused (decision 071).
    expect(otherTotal.status).toBe(200);
    expect(otherTotal.data!.message).toBeNull();
    expect(otherTotal.data).toHaveProperty("confirm.action", "card");
    expect(await count("payments")).toBe(before);
  });

  it("where the business takes no ad-hoc payments, the page says so and a POST is refused", async () => {
    await setAdhoc(false);
    try {
      const before = await count("payments");
      const page = answer(await get("sam", account()));
      expect(page.status).toBe(200);
      expect(page.data).toMatchObject({ adhoc: { enabled: false } });
      const { paid } = await pay("sam", account(), { ...NEW_CARD, amount: "20.00", reference: "x" });
      expect(paid.status).toBe(409);
      expect(paid.data).toMatchObject({
        message: "adhoc.error.disabled",
        messageParams: { business: "Acme Plumbing Supplies" },
      });
      expect(await count("payments")).toBe(before);
    } finally {
      await setAdhoc(true);
    }
  });
});
