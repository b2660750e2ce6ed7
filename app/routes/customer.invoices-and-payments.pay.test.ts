import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { openSeededPglite } from "../../tests/support/test-db";
import { action, loader } from "./customer.invoices-and-payments.pay";

/**
 * The pay page's loader and action called with real Requests (issue 12): the save-card box
 * is for contacts who may manage payment methods only, and the action enforces it; a quote
 * prices the form and charges nothing.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const nextYear = String(new Date().getUTCFullYear() + 1);

let handle: DatabaseHandle;
const cookies: Record<string, string> = {};
const accounts: Record<string, string> = {};

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
