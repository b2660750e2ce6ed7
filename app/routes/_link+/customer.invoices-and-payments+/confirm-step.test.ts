import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/services/auth/session.server";
import { HELD_CARD_MINUTES, sweepHeldCards } from "~/services/payments/held-cards.server";
import { setClockForTesting } from "~/services/platform/clock.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { action, loader } from "./pay";

/**
 * The confirm step (issue 31, decision 071), through the pay page's action with real Requests
 * and the sandbox gateway: a first tap whose total or action differs from what its button showed
 * charges nothing and is refused nothing — the card is held at the gateway and the exact total is
 * confirmed — and the confirm pays exactly once, only from the browser that held the card, only
 * before the hold expires. The card number and CVN are never in an answer.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const nextYear = String(new Date().getUTCFullYear() + 1).slice(-2);
// The account's default is a saved Visa (1.2% surcharge): the page prices that. An Amex costs 2.5%.
const AMEX = "3782 822463 10005";
const CVN = "7373";

let handle: DatabaseHandle;
let session: string;
let accountId: string;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  const contact = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", "olivia@coastal.example")
    .executeTakeFirstOrThrow();
  session = (
    await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
      businessId: contact.business_id,
      contactId: contact.id,
      authMethod: "credentials",
    })
  ).split(";")[0]!;
  accountId = (
    await handle.db.selectFrom("accounts").select("id").where("number", "=", "ACME-1000").executeTakeFirstOrThrow()
  ).id;
});
afterEach(() => setClockForTesting(undefined));
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

type Handler = (args: { request: Request; params: object; context: object }) => unknown;
type Reply = {
  requestGuid: string;
  message: string | null;
  errors: Record<string, string>;
  holder: string;
  expiryMonth: string;
  expiryYear: string;
  breakdown: { totalCents: number; surcharge: string | null } | null;
  confirm?: {
    action: string;
    method: string;
    card: { brand: string; last4: string; expiry: string } | null;
    promiseDate: string | null;
    shownTotal: string | null;
    surcharge: { brand: string; rate: string } | null;
  };
};

async function run(handler: Handler, request: Request) {
  try {
    return await handler({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** An answer: a redirect's location, or the reply, its status, its Set-Cookie and its whole text. */
function answer(result: unknown) {
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get("location"), reply: null, cookie: null, text: "" };
  }
  const { data, init } = result as { data: Reply; init?: { status?: number; headers?: Record<string, string> } };
  const cookie = init?.headers?.["Set-Cookie"] ?? null;
  return { status: init?.status ?? 200, location: null, reply: data, cookie, text: JSON.stringify(data) };
}

async function payableInvoice() {
  return handle.db
    .selectFrom("invoices")
    .select(["id", "balance_cents"])
    .where("account_id", "=", accountId)
    .where("status", "in", [1, 3])
    .where("balance_cents", ">", 1000)
    .orderBy("number")
    .executeTakeFirstOrThrow();
}

const payUrl = (invoiceId: string) => `${ORIGIN}/customer/invoices-and-payments/pay?invoice=${invoiceId}`;

function post(url: string, form: Record<string, string>, holdCookie?: string | null) {
  const hold = holdCookie ? `; ${holdCookie.split(";")[0]}` : "";
  return new Request(url, {
    method: "POST",
    headers: {
      host: HOST,
      origin: ORIGIN,
      cookie: `${session}${hold}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(form).toString(),
  });
}

/** The page as a browser without JavaScript gets it: the loader's total and a fresh requestGuid. */
async function loaded(invoiceId: string) {
  const page = (await run(
    loader as Handler,
    new Request(payUrl(invoiceId), { headers: { host: HOST, cookie: session } }),
  )) as { requestGuid: string; breakdown: { totalCents: number } };
  return page;
}

const count = async (table: "payments" | "held_cards" | "sandbox_gateway_charges") =>
  Number(
    (
      await handle.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The first tap of a page without JavaScript: a new card typed, the loader's total posted. */
async function firstTap(invoiceId: string, cardNumber = AMEX, extra: Record<string, string> = {}) {
  const page = await loaded(invoiceId);
  const invoice = await handle.db
    .selectFrom("invoices")
    .select("balance_cents")
    .where("id", "=", invoiceId)
    .executeTakeFirstOrThrow();
  const amount = `${Math.floor(invoice.balance_cents / 100)}.${String(invoice.balance_cents % 100).padStart(2, "0")}`;
  const form = {
    requestGuid: page.requestGuid,
    expectedAmount: String(page.breakdown.totalCents),
    shownAction: "card",
    intent: "pay",
    method: "new",
    [`amount-${invoiceId}`]: amount,
    cardNumber,
    cardHolderName: "Olivia Coast",
    expiryMonth: "12",
    expiryYear: nextYear,
    cvn: CVN,
    ...extra,
  };
  return { page, form, result: answer(await run(action as Handler, post(payUrl(invoiceId), form))) };
}

/** The confirm form's fields, as the confirm step renders them (no card number, no CVN). */
function confirmForm(first: Awaited<ReturnType<typeof firstTap>>) {
  const reply = first.result.reply!;
  const { cardNumber: _number, cvn: _cvn, ...typed } = first.form;
  return {
    ...typed,
    requestGuid: reply.requestGuid,
    expectedAmount: String(reply.breakdown!.totalCents),
    shownAction: reply.confirm!.action,
    method: reply.confirm!.method,
  };
}

describe("the confirm step: a first tap that would charge another total", () => {
  it("holds the card, charges nothing, refuses nothing, and shows the exact total with its surcharge", async () => {
    const invoice = await payableInvoice();
    const before = { payments: await count("payments"), charges: await count("sandbox_gateway_charges") };
    const first = await firstTap(invoice.id);
    expect(first.result.status).toBe(200);
    const reply = first.result.reply!;
    expect(reply.message).toBeNull();
    expect(reply.errors).toEqual({});
    // The loader priced the saved Visa (1.2%); the Amex typed carries 2.5%.
    expect(reply.breakdown!.totalCents).toBeGreaterThan(first.page.breakdown.totalCents);
    expect(reply.confirm).toMatchObject({
      action: "card",
      card: { brand: "American Express", last4: "0005", expiry: `12/${nextYear}` },
      surcharge: { brand: "American Express", rate: "2.5%" },
    });
    expect(reply.confirm!.method).toMatch(/^held:[0-9a-f-]{36}$/);
    expect(reply.confirm!.shownTotal).not.toBeNull();
    // The same requestGuid comes back: the confirm is this form's one payment.
    expect(reply.requestGuid).toBe(first.page.requestGuid);
    // What was typed comes back, but never the number or the CVN.
    expect(reply).toMatchObject({ holder: "Olivia Coast", expiryMonth: "12", expiryYear: nextYear });
    expect(first.result.text).not.toContain("378282246310005");
    expect(first.result.text).not.toContain(AMEX);
    expect(first.result.text).not.toContain(`"${CVN}"`);
    expect(first.result.cookie).toMatch(/^portal_hold=[^;]+;.*HttpOnly/i);
    expect(await count("payments")).toBe(before.payments);
    expect(await count("sandbox_gateway_charges")).toBe(before.charges);
    const held = await handle.db.selectFrom("held_cards").selectAll().execute();
    expect(held.map((row) => row.request_guid)).toContain(first.page.requestGuid);
    for (const row of held) expect(JSON.stringify(row)).not.toContain("378282246310005");
  });

  it("the confirm pays exactly the confirmed total once, lets the held card go, and a repeat finds the receipt", async () => {
    const invoice = await payableInvoice();
    const first = await firstTap(invoice.id);
    const form = confirmForm(first);
    const paid = answer(await run(action as Handler, post(payUrl(invoice.id), form, first.result.cookie)));
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/payment\/complete\//);
    const payment = await handle.db
      .selectFrom("payments")
      .select(["status", "amount_cents", "card_last4", "card_brand"])
      .where("request_guid", "=", first.page.requestGuid)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      status: "succeeded",
      amount_cents: first.result.reply!.breakdown!.totalCents,
      card_last4: "0005",
      card_brand: "amex",
    });
    expect(
      await handle.db.selectFrom("held_cards").where("request_guid", "=", first.page.requestGuid).execute(),
    ).toEqual([]);
    const again = answer(await run(action as Handler, post(payUrl(invoice.id), form, first.result.cookie)));
    expect(again.location).toBe(paid.location);
    expect(
      await handle.db.selectFrom("payments").select("id").where("request_guid", "=", first.page.requestGuid).execute(),
    ).toHaveLength(1);
  });

  it("50 concurrent confirms of one held card and one requestGuid charge once", async () => {
    const invoice = await payableInvoice();
    const first = await firstTap(invoice.id);
    const form = confirmForm(first);
    const charges = await count("sandbox_gateway_charges");
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => run(action as Handler, post(payUrl(invoice.id), form, first.result.cookie))),
    );
    const locations = new Set(answers.map((result) => answer(result).location));
    expect([...locations]).toHaveLength(1);
    expect([...locations][0]).toMatch(/^\/payment\/complete\//);
    expect(await count("sandbox_gateway_charges")).toBe(charges + 1);
    expect(
      await handle.db.selectFrom("payments").select("id").where("request_guid", "=", first.page.requestGuid).execute(),
    ).toHaveLength(1);
  });

  it("a confirm from another browser (no hold cookie) is refused and charges nothing", async () => {
    const invoice = await payableInvoice();
    const first = await firstTap(invoice.id);
    const charges = await count("sandbox_gateway_charges");
    const elsewhere = answer(await run(action as Handler, post(payUrl(invoice.id), confirmForm(first), null)));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.reply!.message).toBe("pay.error.heldExpired");
    expect(elsewhere.reply!.errors.cardNumber).toBe("pay.error.heldExpired.field");
    // The other fields are kept for the card to be typed again.
    expect(elsewhere.reply).toMatchObject({ holder: "Olivia Coast", expiryMonth: "12" });
    expect(await count("sandbox_gateway_charges")).toBe(charges);
    expect(
      await handle.db.selectFrom("payments").select("id").where("request_guid", "=", first.page.requestGuid).execute(),
    ).toEqual([]);
  });

  it("a confirm after the hold expired is refused, charges nothing, and the sweep removes the card", async () => {
    const invoice = await payableInvoice();
    const first = await firstTap(invoice.id);
    const charges = await count("sandbox_gateway_charges");
    setClockForTesting(() => new Date(Date.now() + (HELD_CARD_MINUTES + 1) * 60_000));
    const late = answer(
      await run(action as Handler, post(payUrl(invoice.id), confirmForm(first), first.result.cookie)),
    );
    expect(late.status).toBe(400);
    expect(late.reply!.message).toBe("pay.error.heldExpired");
    expect(await count("sandbox_gateway_charges")).toBe(charges);
    expect(await sweepHeldCards()).toBeGreaterThanOrEqual(1);
    expect(
      await handle.db.selectFrom("held_cards").where("request_guid", "=", first.page.requestGuid).execute(),
    ).toEqual([]);
  });

  it("a made-up or another form's held card is refused like an expired one", async () => {
    const invoice = await payableInvoice();
    const first = await firstTap(invoice.id);
    for (const method of [`held:${randomUUID()}`, "held:not-a-uuid", "held:"]) {
      const made = answer(
        await run(action as Handler, post(payUrl(invoice.id), { ...confirmForm(first), method }, first.result.cookie)),
      );
      expect(made.status, method).toBe(400);
      expect(made.reply!.message, method).toBe("pay.error.heldExpired");
    }
    // The right held card under another requestGuid: not this form's.
    const other = answer(
      await run(
        action as Handler,
        post(payUrl(invoice.id), { ...confirmForm(first), requestGuid: randomUUID() }, first.result.cookie),
      ),
    );
    expect(other.status).toBe(400);
  });

  it("a card the gateway refuses while holding is the decline, at the top, with nothing charged", async () => {
    const invoice = await payableInvoice();
    // A page whose Pay button said PayTo (its default), and a new (Visa) card chosen without JavaScript.
    const first = await firstTap(invoice.id, "4000 0000 0000 0002", { cvn: "737", shownAction: "payto" });
    expect(first.result.status).toBe(402);
    expect(first.result.reply!.message).toBe("pay.refusal.declined");
    expect(first.result.reply!.confirm).toBeUndefined();
    expect(first.result.reply).toMatchObject({ holder: "Olivia Coast", expiryMonth: "12", expiryYear: nextYear });
    expect(first.result.text).not.toContain("4000000000000002");
  });

  it("a card declined at the confirm says so and lets the held card go", async () => {
    const invoice = await payableInvoice();
    const first = await firstTap(invoice.id, "4000 0000 0000 9995", { cvn: "737", shownAction: "payto" });
    expect(first.result.status).toBe(200);
    const declined = answer(
      await run(action as Handler, post(payUrl(invoice.id), confirmForm(first), first.result.cookie)),
    );
    expect(declined.status).toBe(402);
    expect(declined.reply!.message).toBe("pay.refusal.insufficient_funds");
    expect(
      await handle.db.selectFrom("held_cards").where("request_guid", "=", first.page.requestGuid).execute(),
    ).toEqual([]);
  });

  it("a promise chosen under a 'Pay $X' button is confirmed as a promise, then recorded", async () => {
    const invoice = await payableInvoice();
    const page = await loaded(invoice.id);
    const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const amount = `${Math.floor(invoice.balance_cents / 100)}.${String(invoice.balance_cents % 100).padStart(2, "0")}`;
    const form = {
      requestGuid: page.requestGuid,
      expectedAmount: String(page.breakdown.totalCents),
      shownAction: "card",
      intent: "pay",
      method: "promise",
      promiseDate: date,
      [`amount-${invoice.id}`]: amount,
    };
    const first = answer(await run(action as Handler, post(payUrl(invoice.id), form)));
    expect(first.status).toBe(200);
    expect(first.reply!.confirm).toMatchObject({ action: "promise", method: "promise", card: null });
    expect(first.reply!.confirm!.promiseDate).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const confirmed = answer(
      await run(
        action as Handler,
        post(payUrl(invoice.id), {
          ...form,
          shownAction: "promise",
          expectedAmount: String(first.reply!.breakdown!.totalCents),
        }),
      ),
    );
    expect(confirmed.status).toBe(302);
    const payment = await handle.db
      .selectFrom("payments")
      .select(["status", "promise_date"])
      .where("request_guid", "=", page.requestGuid)
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe("promised");
  });

  it("where what was shown is what would be charged, Pay pays at once (no confirm step)", async () => {
    const invoice = await payableInvoice();
    const first = await firstTap(invoice.id);
    // The live total (JavaScript) showed the Visa total already: its Pay pays at once.
    const page = await loaded(invoice.id);
    const atOnce = answer(
      await run(
        action as Handler,
        post(payUrl(invoice.id), {
          ...first.form,
          requestGuid: page.requestGuid,
          expectedAmount: String(first.result.reply!.breakdown!.totalCents),
        }),
      ),
    );
    expect(atOnce.status).toBe(302);
    expect(atOnce.location).toMatch(/^\/payment\/complete\//);
  });
});
