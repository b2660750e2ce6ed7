import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { setPayToProviderForTesting, webhookSecret } from "~/services/payments/payto/index.server";
import { createSandboxPayTo, type SandboxPayTo } from "~/services/payments/payto/sandbox-provider.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { action, loader } from "./pay";

/**
 * The pay page's loader and action called with real Requests (issue 12): the save-card box
 * is for contacts who may manage payment methods only, and the action enforces it; a quote
 * prices the form and charges nothing.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const nextYear = String(new Date().getUTCFullYear() + 1);

let handle: DatabaseHandle;
let bank: SandboxPayTo;
const cookies: Record<string, string> = {};
const accounts: Record<string, string> = {};

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  bank = createSandboxPayTo({
    secret: webhookSecret(),
    db: async () => handle.db,
    delayMs: 0,
    deliver: async () => 200,
  });
  setPayToProviderForTesting(bank);
  for (const [who, email] of [
    ["olivia", "olivia@coastal.example"],
    ["sam", "sam@coastal.example"],
    // Joined to ACME-1000 with accessCustomerPortal, but the email is not confirmed: no portal access.
    ["unverified", "new@coastal.example"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
    cookies[who] = (
      await createSession(request, {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
  }
  for (const number of ["ACME-1000", "ACME-1001"]) {
    accounts[number] = (
      await handle.db.selectFrom("accounts").select("id").where("number", "=", number).executeTakeFirstOrThrow()
    ).id;
  }
});
afterAll(async () => {
  setPayToProviderForTesting(undefined);
  setDatabaseForTesting(undefined);
  await handle.close();
});

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

/** Runs a loader or action; a thrown Response is an answer too. */
async function run(handler: Handler, request: Request) {
  try {
    return await handler({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** The action's answers are `data(...)` (a body and a status) or a redirect Response. */
function answer(result: unknown) {
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location") };
  const { data, init } = result as { data: Record<string, unknown>; init?: { status?: number } };
  return { status: init?.status ?? 200, data: data as { breakdown: { totalCents: number } | null } };
}

const payUrl = (invoiceId: string) => `${ORIGIN}/customer/invoices-and-payments/pay?invoice=${invoiceId}`;

function post(who: string, url: string, form: Record<string, string>) {
  return new Request(url, {
    method: "POST",
    headers: {
      host: HOST,
      origin: ORIGIN,
      cookie: cookies[who]!,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(form).toString(),
  });
}

async function firstPayableInvoice(accountId: string) {
  return handle.db
    .selectFrom("invoices")
    .select(["id"])
    .where("account_id", "=", accountId)
    .where("status", "in", [1, 3])
    .where("balance_cents", ">", 100)
    .orderBy("number")
    .executeTakeFirstOrThrow();
}

const cardsOn = async (accountId: string) =>
  (await handle.db.selectFrom("cards").select(["id", "last4"]).where("account_id", "=", accountId).execute()).map(
    (card) => card.last4,
  );

/** Quote, then pay exactly the quoted total with a new card and the save box ticked. */
async function payWithSaveCard(who: string, accountId: string, cardNumber: string) {
  const invoice = await firstPayableInvoice(accountId);
  const url = payUrl(invoice.id);
  const fields = { [`amount-${invoice.id}`]: "1.00", method: "new", cardNumber };
  const quote = answer(
    await run(
      action as Handler,
      post(who, url, {
        ...fields,
        cardNumber: "",
        cardPrefix: cardNumber.replace(/\D/g, "").slice(0, 8),
        intent: "quote",
      }),
    ),
  );
  expect(quote.status).toBe(200);
  const total = quote.data!.breakdown!.totalCents;
  const requestGuid = randomUUID();
  const paid = answer(
    await run(
      action as Handler,
      post(who, url, {
        ...fields,
        intent: "pay",
        requestGuid,
        expectedAmount: String(total),
        cardHolderName: "Card Holder",
        expiryMonth: "12",
        expiryYear: nextYear,
        cvn: "123",
        saveCard: "on",
      }),
    ),
  );
  const payment = await handle.db
    .selectFrom("payments")
    .select(["status", "amount_cents", "card_id"])
    .where("request_guid", "=", requestGuid)
    .executeTakeFirst();
  return { quote, paid, payment, total };
}

describe("the save-card box on the pay page", () => {
  it("is offered to a contact who may manage payment methods, and not to one without portal access", async () => {
    const get = (who: string, accountId: string) =>
      firstPayableInvoice(accountId).then((invoice) =>
        run(loader as Handler, new Request(payUrl(invoice.id), { headers: { host: HOST, cookie: cookies[who]! } })),
      );
    expect(await get("olivia", accounts["ACME-1000"]!)).toMatchObject({ mayManagePaymentMethods: true });
    expect(await get("sam", accounts["ACME-1001"]!)).toMatchObject({ mayManagePaymentMethods: false });
  });

  it("a contact without accessCustomerPortal who posts saveCard=on pays, and no card is kept", async () => {
    const account = accounts["ACME-1001"]!;
    const before = await cardsOn(account);
    const { paid, payment, total } = await payWithSaveCard("sam", account, "4111 1111 1111 1111");
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/payment\/complete\/PAY-/);
    expect(payment).toMatchObject({ status: "succeeded", amount_cents: total, card_id: null });
    expect(await cardsOn(account)).toEqual(before);
  });

  it("a contact with portal access who ticks it keeps the card on the account (the same path, saving)", async () => {
    const account = accounts["ACME-1000"]!;
    const before = await cardsOn(account);
    const { paid, payment } = await payWithSaveCard("olivia", account, "5105 1051 0510 5100");
    expect(paid.status).toBe(302);
    expect(payment?.status).toBe("succeeded");
    expect(payment?.card_id).not.toBeNull();
    expect((await cardsOn(account)).sort()).toEqual([...before, "5100"].sort());
  });
});

describe("a quote", () => {
  it("answers the server's breakdown for the form as it is, and charges nothing", async () => {
    const invoice = await firstPayableInvoice(accounts["ACME-1000"]!);
    const count = async () =>
      Number(
        (
          await handle.db
            .selectFrom("payments")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const paymentsBefore = await count();
    const quote = (fields: Record<string, string>) =>
      run(
        action as Handler,
        post("olivia", payUrl(invoice.id), { intent: "quote", [`amount-${invoice.id}`]: "10.00", ...fields }),
      ).then(answer);
    const payto = await quote({ method: "promise" });
    const visa = await quote({ method: "new", cardPrefix: "41111111" });
    const none = await quote({ method: "new" });
    expect(payto.status).toBe(200);
    // Acme's Visa surcharge is 1.2% of the net: the card's first digits alone change the total.
    expect(visa.data!.breakdown!.totalCents).toBeGreaterThan(none.data!.breakdown!.totalCents);
    // A quote never reads a whole card number: one sent anyway prices no surcharge.
    const whole = await quote({ method: "new", cardNumber: "4111 1111 1111 1111" });
    expect(whole.data!.breakdown!.totalCents).toBe(none.data!.breakdown!.totalCents);
    // Too few digits, or hostile text, name no brand.
    for (const cardPrefix of ["41111", "4111111111111111", "<script>", "4111-1111"]) {
      expect((await quote({ method: "new", cardPrefix })).data!.breakdown!.totalCents).toBe(
        none.data!.breakdown!.totalCents,
      );
    }
    const bad = await quote({ method: "new", [`amount-${invoice.id}`]: "1e3" });
    expect(bad.status).toBe(200);
    expect(bad.data).toMatchObject({
      breakdown: null,
      errors: { [`amount-${invoice.id}`]: "pay.error.amount.format" },
    });
    expect(await count()).toBe(paymentsBefore);
  });
});

describe("intents", () => {
  it("an unknown or missing intent is a 400 and charges nothing", async () => {
    const invoice = await firstPayableInvoice(accounts["ACME-1000"]!);
    for (const intent of [undefined, "charge"]) {
      const form: Record<string, string> = { [`amount-${invoice.id}`]: "1.00", method: "promise" };
      if (intent) form.intent = intent;
      const result = answer(await run(action as Handler, post("olivia", payUrl(invoice.id), form)));
      expect(result.status).toBe(400);
      expect(result.data).toMatchObject({ breakdown: null, message: "pay.error.form" });
    }
  });
});

/** An ACTIVE agreement of the account at the sandbox bank, with the portal's row. */
async function activeAgreement(accountId: string) {
  const olivia = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", "olivia@coastal.example")
    .executeTakeFirstOrThrow();
  const guid = randomUUID();
  const created = await bank.createAgreement({
    idempotencyKey: `${olivia.business_id}:${guid}`,
    merchant: olivia.business_id,
    hostname: HOST,
    debtor: {
      partyType: "PERS",
      partyName: "Olivia",
      ultimatePartyName: "",
      kind: "alias",
      aliasType: "EMAL",
      aliasValue: "approve@payto.test",
    },
    maxAmountCents: 1_000_000,
    description: "Acme",
  });
  if (!created.ok) throw new Error(created.refusal);
  const step = await bank.payerApproves(created.value.agreementId);
  if (!step.ok) throw new Error(step.message);
  const row = await handle.db
    .insertInto("payto_agreements")
    .values({
      business_id: olivia.business_id,
      account_id: accountId,
      request_guid: guid,
      request_hash: createHash("sha256").update(guid).digest("hex"),
      status: step.agreement.status,
      provider_agreement_id: step.agreement.agreementId,
      provider_version: step.agreement.version,
      party_name: "Olivia",
      alias_type: "EMAL",
      alias_value: "approve@payto.test",
      max_amount_cents: 1_000_000,
      created_by: olivia.id,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("the account's saved cards and PayTo agreements (decision 056)", () => {
  type Methods = { methods: { cards: { id: string }[]; agreements: { id: string }[] }; method: { kind: string } };
  const page = async (who: string, invoiceId: string) =>
    (await run(
      loader as Handler,
      new Request(payUrl(invoiceId), { headers: { host: HOST, cookie: cookies[who]! } }),
    )) as Methods;

  /** Pays 1.00 of the invoice with `method`, quoting first for the exact total. */
  async function payWith(who: string, invoiceId: string, method: string) {
    const url = payUrl(invoiceId);
    const fields = { [`amount-${invoiceId}`]: "1.00", method };
    const quote = answer(await run(action as Handler, post(who, url, { ...fields, intent: "quote" })));
    const requestGuid = randomUUID();
    const paid = answer(
      await run(
        action as Handler,
        post(who, url, {
          ...fields,
          intent: "pay",
          requestGuid,
          expectedAmount: String(quote.data?.breakdown?.totalCents ?? 100),
        }),
      ),
    );
    const payment = await handle.db
      .selectFrom("payments")
      .select(["status", "method"])
      .where("request_guid", "=", requestGuid)
      .executeTakeFirst();
    return { paid, payment };
  }

  it("are not offered to an unverified contact, and a crafted POST with either is refused with a 400, charging nothing", async () => {
    const account = accounts["ACME-1000"]!;
    const agreementId = await activeAgreement(account);
    const card = await handle.db
      .selectFrom("cards")
      .select("id")
      .where("account_id", "=", account)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const invoice = await firstPayableInvoice(account);

    const offered = await page("olivia", invoice.id);
    expect(offered.methods.agreements.map((a) => a.id)).toContain(agreementId);
    expect(offered.methods.cards.length).toBeGreaterThan(0);
    const notOffered = await page("unverified", invoice.id);
    expect(notOffered.methods).toMatchObject({ cards: [], agreements: [] });
    expect(notOffered.method).toEqual({ kind: "new" });

    const count = async () =>
      Number(
        (
          await handle.db
            .selectFrom("payments")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const method of [`payto:${agreementId}`, `card:${card.id}`]) {
      const { paid, payment } = await payWith("unverified", invoice.id, method);
      expect(paid.status, method).toBe(400);
      expect(paid.data, method).toMatchObject({ errors: { method: "pay.error.savedNeedsAccess" } });
      expect(payment, method).toBeUndefined();
    }
    expect(await count()).toBe(before);

    // The same agreement still pays for a verified contact with portal access.
    const { paid, payment } = await payWith("olivia", invoice.id, `payto:${agreementId}`);
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/payment\/complete\/PAY-/);
    expect(payment).toMatchObject({ method: "payto", status: "submitted" });
  });

  it("are not offered to a verified contact without accessCustomerPortal either", async () => {
    const account = accounts["ACME-1001"]!;
    const agreementId = await activeAgreement(account);
    const invoice = await firstPayableInvoice(account);
    expect((await page("sam", invoice.id)).methods).toMatchObject({ cards: [], agreements: [] });
    const { paid, payment } = await payWith("sam", invoice.id, `payto:${agreementId}`);
    expect(paid.status).toBe(400);
    expect(payment).toBeUndefined();
  });
});

describe("the way back from 'Set up PayTo' (issue 31; decision 077)", () => {
  type Page = {
    invoices: { id: string; amount: string; partial: boolean }[];
    method: { kind: string; agreementId?: string };
    methods: { payTo: { setUp: string | null } };
    breakdown: { totalCents: number; subTotal: string } | null;
  };
  const open = (who: string, query: string) =>
    run(
      loader as Handler,
      new Request(`${ORIGIN}/customer/invoices-and-payments/pay?${query}`, {
        headers: { host: HOST, cookie: cookies[who]! },
      }),
    );
  async function twoInvoices(accountId: string) {
    const rows = await handle.db
      .selectFrom("invoices")
      .select(["id", "balance_cents"])
      .where("account_id", "=", accountId)
      .where("status", "in", [1, 3])
      .where("balance_cents", ">", 1000)
      .orderBy("number")
      .limit(2)
      .execute();
    expect(rows).toHaveLength(2);
    return rows.map((row) => ({ id: row.id, balance: Number(row.balance_cents) }));
  }

  it("'Set up PayTo' posts what was typed and goes to the set-up with the way back, never the card", async () => {
    const [a, b] = await twoInvoices(accounts["ACME-1000"]!);
    const url = `${ORIGIN}/customer/invoices-and-payments/pay?invoice=${a!.id}&invoice=${b!.id}`;
    const page = (await open("olivia", `invoice=${a!.id}&invoice=${b!.id}`)) as Page;
    expect(page.methods.payTo.setUp).toBe("return");
    const before = await handle.db.selectFrom("payments").select("id").execute();
    const answered = answer(
      await run(
        action as Handler,
        post("olivia", url, {
          intent: "setUpPayTo",
          [`amount-${a!.id}`]: "10.05",
          [`amount-${b!.id}`]: "not money",
          method: "new",
          cardNumber: "4111 1111 1111 1111",
          cvn: "123",
        }),
      ),
    );
    expect(answered.status).toBe(302);
    const location = new URL(answered.location!, ORIGIN);
    expect(location.pathname).toBe("/payment-methods/payto/new");
    expect([...location.searchParams.keys()]).toEqual(["returnTo"]);
    expect(location.searchParams.get("returnTo")).toBe(
      `/customer/invoices-and-payments/pay?invoice=${a!.id}&invoice=${b!.id}&amount-${a!.id}=1005`,
    );
    expect(answered.location).not.toMatch(/4111|cvn|123&/);
    expect(await handle.db.selectFrom("payments").select("id").execute()).toHaveLength(before.length);
    // Not offered to a contact without portal access: a crafted POST is a 400 and goes nowhere.
    const refused = answer(await run(action as Handler, post("unverified", url, { intent: "setUpPayTo" })));
    expect(refused.status).toBe(400);
  });

  it("the pay page opens with the invoices, the typed amounts and the new agreement chosen", async () => {
    const account = accounts["ACME-1000"]!;
    const [a, b] = await twoInvoices(account);
    const agreementId = await activeAgreement(account);
    const part = a!.balance - 500;
    const page = (await open(
      "olivia",
      `invoice=${a!.id}&invoice=${b!.id}&amount-${a!.id}=${part}&agreement=${agreementId}`,
    )) as Page;
    expect(page.invoices.map((i) => i.id)).toEqual([a!.id, b!.id]);
    expect(page.invoices[0]).toMatchObject({ amount: (part / 100).toFixed(2), partial: true });
    expect(page.invoices[1]).toMatchObject({ partial: false });
    expect(page.method).toEqual({ kind: "payto", agreementId });
    // The total is what paying exactly that by that agreement costs: the quote agrees.
    const quote = answer(
      await run(
        action as Handler,
        post("olivia", `${ORIGIN}/customer/invoices-and-payments/pay?invoice=${a!.id}&invoice=${b!.id}`, {
          intent: "quote",
          [`amount-${a!.id}`]: (part / 100).toFixed(2),
          [`amount-${b!.id}`]: page.invoices[1]!.amount,
          method: `payto:${agreementId}`,
        }),
      ),
    );
    expect(page.breakdown!.totalCents).toBe(quote.data!.breakdown!.totalCents);
  });

  it("ignores amounts, agreements and invoices it may not take, and stays bounded", async () => {
    const [a] = await twoInvoices(accounts["ACME-1000"]!);
    const foreign = await firstPayableInvoice(accounts["ACME-1001"]!);
    // All that is left to pay on it now (earlier tests here paid some of it).
    const full = ((await open("olivia", `invoice=${a!.id}`)) as Page).invoices[0]!.amount;
    for (const amount of ["0", "-5", "12.50", "1e3", String(a!.balance + 1), "999999999999999"]) {
      const page = (await open("olivia", `invoice=${a!.id}&amount-${a!.id}=${amount}`)) as Page;
      expect(page.invoices[0], amount).toMatchObject({ amount: full, partial: false });
    }
    // A control character in the address is refused at the edge, as on every page.
    expect(answer(await open("olivia", `invoice=${a!.id}&amount-${a!.id}=%00`)).status).toBe(400);
    // Another account's invoice, a made-up one, hostile text: left out, as the page always has.
    const mixed = (await open(
      "olivia",
      `invoice=${a!.id}&invoice=${foreign.id}&invoice=${randomUUID()}&invoice=%27--&amount-${foreign.id}=100`,
    )) as Page;
    expect(mixed.invoices.map((i) => i.id)).toEqual([a!.id]);
    // An agreement that is not an active one of this account: the page's usual default.
    for (const agreement of [randomUUID(), "nope"]) {
      const page = (await open("olivia", `invoice=${a!.id}&agreement=${agreement}`)) as Page;
      expect(page.method.kind).not.toBe("payto");
    }
    // Only invoices it may not take: back to the list, which says so (decision 072).
    const none = await open("olivia", `invoice=${foreign.id}&amount-${foreign.id}=100`);
    expect(answer(none)).toMatchObject({
      status: 302,
      location: "/customer/invoices-and-payments/invoices?error=choose#errors",
    });
    // At most 50 invoice ids are read: a 51st is never looked at.
    const fifty = Array.from({ length: 50 }, () => `invoice=${randomUUID()}`).join("&");
    expect(answer(await open("olivia", `${fifty}&invoice=${a!.id}`)).status).toBe(302);
  });
});
