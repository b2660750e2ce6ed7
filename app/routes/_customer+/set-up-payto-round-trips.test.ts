import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, getSession } from "~/services/auth/session.server";
import { setPayToProviderForTesting, webhookSecret } from "~/services/payments/payto/index.server";
import { createSandboxPayTo, type SandboxPayTo } from "~/services/payments/payto/sandbox-provider.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { paymentRequestFixtures } from "../../../tests/support/payment-request-fixtures";
import * as requestPage from "./payment.payment-request.$slug";
import * as adhocPage from "./payment.adhoc.$slug";
import * as requestLink from "../_link+/customer.payment-request.$token";
import * as adhocLink from "./customer.adhoc.$token";
import * as newAgreement from "../_portal+/payment-methods+/payto.new";
import * as agreementPage from "../_portal+/payment-methods+/payto.$agreementId";

/**
 * "Set up PayTo" as a round trip from a payment request's signed-in page and the signed-in ad-hoc
 * page (issue 31; decision 077), through the routes' loaders and actions with real Requests and
 * the sandbox bank: the button posts what was typed (never the card fields, charging nothing),
 * makes the page's account the selected one (the payment-methods pages act on it), goes to the
 * set-up with the way back, and the agreement's page leads back to the same page with the amount
 * as typed and the new agreement chosen, so Pay pays at once. Where it is not offered — a contact
 * without portal access, a business without PayTo, a link's payer — a crafted POST is a 400 and
 * changes nothing.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const CARD = { cardNumber: "4111111111111111", cardHolderName: "Pat Payer", expiryMonth: "12", cvn: "123" };

let handle: DatabaseHandle;
let bank: SandboxPayTo;
let fx: ReturnType<typeof paymentRequestFixtures>;
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
  fx = paymentRequestFixtures(handle);
  for (const row of await handle.db.selectFrom("accounts").select(["id", "number"]).execute()) {
    accounts[row.number] = row.id;
  }
});
afterAll(async () => {
  setPayToProviderForTesting(undefined);
  setDatabaseForTesting(undefined);
  await handle.close();
});

/** A new session of the contact: no account selected yet (the pages fall back to the first), or `selectedAccount`. */
async function signIn(email: string, host = HOST, selectedAccount?: string) {
  const contact = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  const cookie = await createSession(new Request(`http://${host}/`, { headers: { host } }), {
    businessId: contact.business_id,
    contactId: contact.id,
    authMethod: "credentials",
    ...(selectedAccount ? { data: { selectedAccount } } : {}),
  });
  return cookie.split(";")[0]!;
}

/** What the session of this cookie holds (the selected account). */
async function sessionOf(cookie: string, host = HOST) {
  const { business_id } = await handle.db
    .selectFrom("hosts")
    .select("business_id")
    .where("hostname", "=", host)
    .executeTakeFirstOrThrow();
  return (await getSession(get("/", cookie, host), business_id))!.data;
}

type Handler = (args: { request: Request; params: Record<string, string>; context: object }) => unknown;
type Answer = { status: number; location: string | null; data: Record<string, unknown> };

/** Runs a loader or action; a thrown Response or `data(...)` is an answer too. */
async function run(handler: unknown, request: Request, params: Record<string, string> = {}): Promise<Answer> {
  let result: unknown;
  try {
    result = await (handler as Handler)({ request, params, context: {} });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("location"), data: {} };
  const wrapped = result as { type?: string; data?: Record<string, unknown>; init?: ResponseInit | null };
  if (wrapped?.type === "DataWithResponseInit") {
    return { status: wrapped.init?.status ?? 200, location: null, data: wrapped.data! };
  }
  return { status: 200, location: null, data: result as Record<string, unknown> };
}

const get = (path: string, cookie: string | null, host = HOST) =>
  new Request(`http://${host}${path}`, { headers: { host, ...(cookie ? { cookie } : {}) } });
const post = (path: string, form: Record<string, string>, cookie: string | null, host = HOST) =>
  new Request(`http://${host}${path}`, {
    method: "POST",
    headers: {
      host,
      origin: `http://${host}`,
      "content-type": "application/x-www-form-urlencoded",
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });

const count = async (table: "payments" | "payto_agreements") =>
  Number(
    (
      await handle.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
/**
 * The set-up page as the button leaves the contact there: its Cancel goes back, its form sets up
 * an agreement (of the selected account) with the way back kept, the payer's bank approves it,
 * and the agreement's page offers "Back to your payment" with it chosen.
 */
async function setUpAndApprove(setUpLocation: string, cookie: string) {
  const setUpUrl = new URL(setUpLocation, ORIGIN);
  const back = setUpUrl.searchParams.get("returnTo")!;
  const form = await run(newAgreement.loader, get(`${setUpUrl.pathname}${setUpUrl.search}`, cookie));
  expect(form.data.cancelHref).toBe(back);
  const created = await run(
    newAgreement.action,
    post(
      `${setUpUrl.pathname}${setUpUrl.search}`,
      {
        requestGuid: randomUUID(),
        method: "payid",
        payIdType: "EMAL",
        payId: `round.${randomUUID().slice(0, 8)}@payto.test`,
        partyName: "Olivia Coast",
        authority: "on",
      },
      cookie,
    ),
  );
  expect(created.status).toBe(302);
  const agreementUrl = new URL(created.location!, ORIGIN);
  expect(agreementUrl.searchParams.get("returnTo")).toBe(back);
  const agreementId = agreementUrl.pathname.split("/").pop()!;
  const row = await handle.db
    .selectFrom("payto_agreements")
    .select(["account_id", "provider_agreement_id"])
    .where("id", "=", agreementId)
    .executeTakeFirstOrThrow();
  // The payer's bank approves it; the portal learns it as the provider's webhook would say.
  const step = await bank.payerApproves(row.provider_agreement_id!);
  if (!step.ok) throw new Error(step.message);
  await handle.db
    .updateTable("payto_agreements")
    .set({ status: "ACTIVE", provider_version: step.agreement.version })
    .where("id", "=", agreementId)
    .execute();
  const page = await run(agreementPage.loader, get(`${agreementUrl.pathname}${agreementUrl.search}`, cookie), {
    agreementId,
  });
  expect(page.data.back).toBeNull();
  return { agreementId, accountId: row.account_id, back, payBack: page.data.payBack as Record<string, unknown> };
}

describe("'Set up PayTo' from a payment request's signed-in page", () => {
  it("goes to the set-up with the part payment typed, and back with it and the agreement chosen; Pay pays at once", async () => {
    // A request of Olivia's second account (ACME-2000): not the one her new session has selected.
    const scope = await fx.actorOf("olivia@coastal.example", "ACME-2000");
    const request = await fx.request(scope, {
      amountCents: 40_000,
      allowPartPayment: true,
      minPartPaymentCents: 10_000,
    });
    const path = `/payment/payment-request/${request.reference}`;
    const cookie = await signIn("olivia@coastal.example", HOST, accounts["ACME-1000"]);
    const params = { slug: request.reference };
    const opened = await run(requestPage.loader, get(path, cookie), params);
    expect(opened.data).toMatchObject({ kind: "open", methods: { payTo: { enabled: true, setUp: "return" } } });

    const payments = await count("payments");
    const answered = await run(
      requestPage.action,
      post(path, { ...CARD, intent: "setUpPayTo", method: "new", amount: "150.00", requestGuid: randomUUID() }, cookie),
      params,
    );
    expect(answered.status).toBe(302);
    const location = new URL(answered.location!, ORIGIN);
    expect(location.pathname).toBe("/payment-methods/payto/new");
    expect([...location.searchParams.keys()]).toEqual(["returnTo"]);
    expect(location.searchParams.get("returnTo")).toBe(`${path}?amount=15000`);
    // The card fields never go along, and nothing is charged.
    expect(answered.location).not.toMatch(/4111|cvn|Pat/);
    expect(await count("payments")).toBe(payments);
    // The request's account is now the selected one: the agreement is set up for it.
    expect((await sessionOf(cookie)).selectedAccount).toBe(scope.accountId);

    const { agreementId, accountId, payBack } = await setUpAndApprove(answered.location!, cookie);
    expect(accountId).toBe(scope.accountId);
    expect(payBack).toEqual({ href: `${path}?amount=15000&agreement=${agreementId}`, active: true, hint: "typed" });

    // Back: the amount as typed, the agreement chosen, the total that of paying it by PayTo.
    const back = await run(requestPage.loader, get(payBack.href as string, cookie), params);
    expect(back.data).toMatchObject({
      kind: "open",
      request: { amount: "150.00" },
      method: { kind: "payto", agreementId },
    });
    const breakdown = back.data.breakdown as { subTotal: string; totalCents: number; surcharge: string | null };
    expect(breakdown).toMatchObject({ subTotal: "$150.00", totalCents: 15_000, surcharge: null });
    // Pay, as the page's form posts it without JavaScript: paid at once, no confirm step.
    const paid = await run(
      requestPage.action,
      post(
        payBack.href as string,
        {
          intent: "pay",
          method: `payto:${agreementId}`,
          amount: "150.00",
          requestGuid: back.data.requestGuid as string,
          expectedAmount: String(breakdown.totalCents),
          shownAction: "payto",
        },
        cookie,
      ),
      params,
    );
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/payment\/complete\/PAY-/);
    const payment = await handle.db
      .selectFrom("payments")
      .select(["amount_cents", "payto_agreement_id"])
      .where("payment_request_id", "=", request.id)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ payto_agreement_id: agreementId });
    expect(Number(payment.amount_cents)).toBe(15_000);
  });

  it("leaves out an amount the request would not take, and an agreement that is not an active one of its account", async () => {
    const scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
    const request = await fx.request(scope, {
      amountCents: 40_000,
      allowPartPayment: true,
      minPartPaymentCents: 10_000,
    });
    const path = `/payment/payment-request/${request.reference}`;
    const cookie = await signIn("olivia@coastal.example");
    const params = { slug: request.reference };
    for (const amount of ["50.00", "400.00", "1e4", "'; drop table payments; --", ""]) {
      const answered = await run(requestPage.action, post(path, { intent: "setUpPayTo", amount }, cookie), params);
      expect(new URL(answered.location!, ORIGIN).searchParams.get("returnTo"), amount).toBe(path);
    }
    // Another account's agreement, a made-up one, a malformed one: the page's usual way to pay.
    const foreign = await handle.db
      .selectFrom("payto_agreements")
      .select("id")
      .where("account_id", "!=", scope.accountId)
      .executeTakeFirst();
    for (const agreement of [foreign?.id ?? randomUUID(), randomUUID(), "nope"]) {
      const page = await run(requestPage.loader, get(`${path}?amount=15000&agreement=${agreement}`, cookie), params);
      expect(page.data, agreement).toMatchObject({ request: { amount: "150.00" } });
      expect((page.data.method as { agreementId?: string }).agreementId).not.toBe(agreement);
    }
  });

  it("is a 400 that changes nothing where it is not offered: no portal access, no PayTo, a link's payer, a closed request", async () => {
    const payments = await count("payments");
    const agreements = await count("payto_agreements");
    // Sam may pay ACME-1001's requests but not manage its payment methods.
    const samScope = await fx.actorOf("sam@coastal.example", "ACME-1001");
    const samRequest = await fx.request(samScope, { amountCents: 9_900 });
    const sam = await signIn("sam@coastal.example");
    const samPath = `/payment/payment-request/${samRequest.reference}`;
    const samPage = await run(requestPage.loader, get(samPath, sam), { slug: samRequest.reference });
    expect(samPage.data).toMatchObject({ methods: { payTo: { setUp: "noAccess" } } });
    const samBefore = await sessionOf(sam);
    const refused = await run(requestPage.action, post(samPath, { intent: "setUpPayTo", amount: "10.00" }, sam), {
      slug: samRequest.reference,
    });
    expect(refused.status).toBe(400);
    expect(refused.location).toBeNull();
    expect(await sessionOf(sam)).toEqual(samBefore);

    // Kiwi Freight (New Zealand) has no PayTo.
    const kiwiScope = await fx.actorOf("aroha@orchards.example", "KF-500");
    const kiwiRequest = await fx.request(kiwiScope, { amountCents: 9_900 });
    const aroha = await signIn("aroha@orchards.example", "kiwi.localhost");
    const kiwiPath = `/payment/payment-request/${kiwiRequest.reference}`;
    const kiwi = await run(requestPage.action, post(kiwiPath, { intent: "setUpPayTo" }, aroha, "kiwi.localhost"), {
      slug: kiwiRequest.reference,
    });
    expect(kiwi.status).toBe(400);

    // From the emailed link (no session): the link's payer has no saved methods to set up.
    const scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
    const request = await fx.request(scope, { amountCents: 9_900 });
    const { token } = await fx.link(scope, request.id);
    const linkPath = `/customer/payment-request/${token}`;
    const linkPage = await run(requestLink.loader, get(linkPath, null), { token });
    expect((linkPage.data.methods as { payTo: { setUp: unknown } }).payTo.setUp).toBeNull();
    const byLink = await run(requestLink.action, post(linkPath, { intent: "setUpPayTo", amount: "10.00" }, null), {
      token,
    });
    expect(byLink.status).toBe(400);
    // …even in a browser signed in as a contact who could, on the request's own account.
    const olivia = await signIn("olivia@coastal.example");
    const signedInLink = await run(requestLink.action, post(linkPath, { intent: "setUpPayTo" }, olivia), { token });
    expect(signedInLink.status).toBe(400);

    // A cancelled request takes no money: nothing to set PayTo up for.
    const cancelled = await fx.request(scope, { amountCents: 9_900, status: "cancelled" });
    const closed = await run(
      requestPage.action,
      post(`/payment/payment-request/${cancelled.reference}`, { intent: "setUpPayTo" }, olivia),
      { slug: cancelled.reference },
    );
    expect(closed.status).toBe(400);

    expect(await count("payments")).toBe(payments);
    expect(await count("payto_agreements")).toBe(agreements);
  });
});

describe("'Set up PayTo' from the signed-in ad-hoc page", () => {
  it("goes to the set-up with the amount and reference typed, and back with them and the agreement chosen; Pay pays at once", async () => {
    const accountId = accounts["ACME-1000"]!;
    const path = `/payment/adhoc/${accountId}`;
    // Another account selected: "Set up PayTo" selects this page's.
    const cookie = await signIn("olivia@coastal.example", HOST, accounts["ACME-2000"]);
    expect((await sessionOf(cookie)).selectedAccount).toBe(accounts["ACME-2000"]);
    const params = { slug: accountId };
    const opened = await run(adhocPage.loader, get(path, cookie), params);
    expect(opened.data).toMatchObject({ amount: "", reference: "", breakdown: null });
    // Whatever agreements the account has by now, the button is there where none is active.
    expect((opened.data.methods as { payTo: { setUp: string } }).payTo.setUp).toBe("return");

    const payments = await count("payments");
    const answered = await run(
      adhocPage.action,
      post(
        path,
        { ...CARD, intent: "setUpPayTo", method: "new", amount: "25.00", reference: " Rent, March & April " },
        cookie,
      ),
      params,
    );
    expect(answered.status).toBe(302);
    const location = new URL(answered.location!, ORIGIN);
    expect(location.pathname).toBe("/payment-methods/payto/new");
    expect(location.searchParams.get("returnTo")).toBe(`${path}?amount=2500&reference=Rent%2C+March+%26+April`);
    expect(answered.location).not.toMatch(/4111|cvn|Pat/);
    expect(await count("payments")).toBe(payments);
    expect((await sessionOf(cookie)).selectedAccount).toBe(accountId);

    const { agreementId, accountId: agreementAccount, payBack } = await setUpAndApprove(answered.location!, cookie);
    expect(agreementAccount).toBe(accountId);
    expect(payBack).toMatchObject({ active: true, hint: "typed" });
    expect(payBack.href).toBe(`${path}?amount=2500&reference=Rent%2C+March+%26+April&agreement=${agreementId}`);

    const back = await run(adhocPage.loader, get(payBack.href as string, cookie), params);
    expect(back.data).toMatchObject({
      amount: "25.00",
      reference: "Rent, March & April",
      method: { kind: "payto", agreementId },
      breakdown: { totalCents: 2_500, surcharge: null },
    });
    const paid = await run(
      adhocPage.action,
      post(
        payBack.href as string,
        {
          intent: "pay",
          method: `payto:${agreementId}`,
          amount: "25.00",
          reference: "Rent, March & April",
          requestGuid: back.data.requestGuid as string,
          expectedAmount: "2500",
          shownAction: "payto",
        },
        cookie,
      ),
      params,
    );
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/payment\/complete\/PAY-/);
  });

  it("keeps only an amount within the business's limits and a reference the page would take", async () => {
    const accountId = accounts["ACME-1000"]!;
    const path = `/payment/adhoc/${accountId}`;
    const cookie = await signIn("olivia@coastal.example");
    const params = { slug: accountId };
    // Acme takes $10.00 to $5,000.00.
    for (const [amount, reference, expected] of [
      ["9.99", "Rent", `${path}?reference=Rent`],
      ["5000.01", "", path],
      ["12.345", "a\u202eb", path],
      ["12.50", "x".repeat(81), `${path}?amount=1250`],
    ] as const) {
      const answered = await run(
        adhocPage.action,
        post(path, { intent: "setUpPayTo", amount, reference }, cookie),
        params,
      );
      expect(new URL(answered.location!, ORIGIN).searchParams.get("returnTo"), amount).toBe(expected);
    }
    // The page's own address is read by the same rules: out of limits or malformed is left out.
    for (const query of ["amount=999", "amount=500001", "amount=12.50", "reference=%0A", `agreement=${randomUUID()}`]) {
      const page = await run(adhocPage.loader, get(`${path}?${query}`, cookie), params);
      expect(page.data, query).toMatchObject({ amount: "", reference: "", breakdown: null });
      expect((page.data.method as { kind: string }).kind, query).not.toBe("payto");
    }
  });

  it("is a 400 that changes nothing where it is not offered: no portal access, a link's payer", async () => {
    const payments = await count("payments");
    const sam = await signIn("sam@coastal.example");
    const samAccount = accounts["ACME-1001"]!;
    const samPage = await run(adhocPage.loader, get(`/payment/adhoc/${samAccount}`, sam), { slug: samAccount });
    expect((samPage.data.methods as { payTo: { setUp: string } }).payTo.setUp).toBe("noAccess");
    const samBefore = await sessionOf(sam);
    const refused = await run(
      adhocPage.action,
      post(`/payment/adhoc/${samAccount}`, { intent: "setUpPayTo", amount: "25.00", reference: "Rent" }, sam),
      { slug: samAccount },
    );
    expect(refused.status).toBe(400);
    expect(await sessionOf(sam)).toEqual(samBefore);

    const scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
    const { token } = await fx.link(scope, scope.accountId, { purpose: "adhoc" });
    const byLink = await run(
      adhocLink.action,
      post(`/customer/adhoc/${token}`, { intent: "setUpPayTo", amount: "25.00", reference: "Rent" }, null),
      { token },
    );
    expect(byLink.status).toBe(400);
    expect(await count("payments")).toBe(payments);
  });
});
