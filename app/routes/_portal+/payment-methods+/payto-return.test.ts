import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/services/auth/session.server";
import { setPayToProviderForTesting, webhookSecret } from "~/services/payments/payto/index.server";
import { createSandboxPayTo } from "~/services/payments/payto/sandbox-provider.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import * as agreementPage from "./payto.$agreementId";
import * as newAgreement from "./payto.new";

/**
 * "Set up PayTo" from the pay page and back (issue 31; decision 077), through the set-up page's
 * loader and action and the agreement's page, with real Requests and the sandbox bank: the way
 * back is kept while the bank is asked, offered as "Back to your payment" with the agreement
 * chosen once it is active, and any `returnTo` that is not a pay page's own (the invoices', a
 * payment request's signed-in page, the signed-in ad-hoc page) is ignored (the pages behave as
 * before).
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const INVOICE_A = "3f1c2a4e-8b7d-4c1e-9a2b-1c2d3e4f5a6b";
const INVOICE_B = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b";
const BACK = `/customer/invoices-and-payments/pay?invoice=${INVOICE_A}&invoice=${INVOICE_B}&amount-${INVOICE_A}=1005`;

let handle: DatabaseHandle;
let cookie: string;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  setPayToProviderForTesting(
    createSandboxPayTo({ secret: webhookSecret(), db: async () => handle.db, delayMs: 0, deliver: async () => 200 }),
  );
  const contact = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", "olivia@coastal.example")
    .executeTakeFirstOrThrow();
  cookie = (
    await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
      businessId: contact.business_id,
      contactId: contact.id,
      authMethod: "credentials",
    })
  ).split(";")[0]!;
});
afterAll(async () => {
  setPayToProviderForTesting(undefined);
  setDatabaseForTesting(undefined);
  await handle.close();
});

type Handler = (args: { request: Request; params: Record<string, string>; context: object }) => unknown;
async function run(handler: unknown, request: Request, params: Record<string, string> = {}) {
  try {
    return await (handler as Handler)({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
const withReturn = (path: string, returnTo: string | null) =>
  returnTo === null ? path : `${path}?${new URLSearchParams({ returnTo })}`;

/** Sets up an agreement through the page's action, with `returnTo` in its address as the pay page sends it. */
async function setUp(returnTo: string | null) {
  const response = (await run(
    newAgreement.action,
    new Request(`${ORIGIN}${withReturn("/payment-methods/payto/new", returnTo)}`, {
      method: "POST",
      headers: { host: HOST, origin: ORIGIN, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        requestGuid: randomUUID(),
        method: "payid",
        payIdType: "EMAL",
        payId: "approve@payto.test",
        partyName: "Olivia Coast",
        authority: "on",
      }),
    }),
  )) as Response;
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location")!, ORIGIN);
  const agreementId = location.pathname.split("/").pop()!;
  return { location, agreementId };
}

type AgreementPage = {
  back: string | null;
  payBack: { href: string; active: boolean; hint: string } | null;
  self: string;
  agreement: { status: string };
};
const view = async (agreementId: string, returnTo: string | null) =>
  (await run(
    agreementPage.loader,
    new Request(`${ORIGIN}${withReturn(`/payment-methods/payto/${agreementId}`, returnTo)}`, {
      headers: { host: HOST, cookie },
    }),
    { agreementId },
  )) as AgreementPage;

describe("Set up PayTo from the pay page, and back (decision 077)", () => {
  it("keeps the way back while the bank is asked, then offers it with the agreement chosen", async () => {
    const form = (await run(
      newAgreement.loader,
      new Request(`${ORIGIN}${withReturn("/payment-methods/payto/new", BACK)}`, { headers: { host: HOST, cookie } }),
    )) as { cancelHref: string };
    // Cancel goes back to the payment, as it was.
    expect(form.cancelHref).toBe(BACK);
    const { location, agreementId } = await setUp(BACK);
    expect(location.pathname).toBe(`/payment-methods/payto/${agreementId}`);
    expect(location.searchParams.get("returnTo")).toBe(BACK);
    // Waiting for the payer's bank: back to the payment as it was ("Check again" keeps the way back).
    const waiting = await view(agreementId, BACK);
    expect(waiting.agreement.status).toBe("CREATED");
    expect(waiting.payBack).toEqual({ href: BACK, active: false, hint: "invoices" });
    expect(waiting.back).toBeNull();
    expect(new URL(waiting.self, ORIGIN).searchParams.get("returnTo")).toBe(BACK);
    // The bank approved it (set here as the provider's webhook would).
    await handle.db.updateTable("payto_agreements").set({ status: "ACTIVE" }).where("id", "=", agreementId).execute();
    const active = await view(agreementId, BACK);
    expect(active.payBack).toEqual({ href: `${BACK}&agreement=${agreementId}`, active: true, hint: "invoices" });
  });

  it("keeps a payment request's page and the ad-hoc page as ways back too, with what was typed", async () => {
    for (const back of [
      "/payment/payment-request/PR-7K2M9QXA?amount=15000",
      "/payment/payment-request/PR-7K2M9QXA",
      `/payment/adhoc/${INVOICE_A}?amount=2500&reference=Rent+March`,
    ]) {
      const form = (await run(
        newAgreement.loader,
        new Request(`${ORIGIN}${withReturn("/payment-methods/payto/new", back)}`, { headers: { host: HOST, cookie } }),
      )) as { cancelHref: string };
      expect(form.cancelHref, back).toBe(back);
      const { location, agreementId } = await setUp(back);
      expect(location.searchParams.get("returnTo"), back).toBe(back);
      expect((await view(agreementId, back)).payBack).toEqual({ href: back, active: false, hint: "typed" });
      await handle.db.updateTable("payto_agreements").set({ status: "ACTIVE" }).where("id", "=", agreementId).execute();
      const joined = back.includes("?") ? "&" : "?";
      expect((await view(agreementId, back)).payBack).toEqual({
        href: `${back}${joined}agreement=${agreementId}`,
        active: true,
        hint: "typed",
      });
    }
  });

  it("ignores a returnTo that is not the pay page's own: set up and shown as before", async () => {
    for (const returnTo of [
      "//evil.example/customer/invoices-and-payments/pay",
      "/\\evil.example",
      "https://evil.example/",
      `/customer/invoices-and-payments/pay?invoice=${INVOICE_A}&next=//evil.example`,
      `${BACK}&${"x".repeat(6000)}`,
      "/admin",
      "/payment/payment-request/PR-7K2M9QXA?amount=1.50",
      "/payment/payment-request/PR-7K2M9QXA?amount=100&next=//evil.example",
      `/payment/adhoc/${INVOICE_A}?reference=${"x".repeat(81)}`,
      "/customer/payment-request/" + "A".repeat(59),
    ]) {
      const { location, agreementId } = await setUp(returnTo);
      expect(location.search, returnTo).toBe("");
      const page = await view(agreementId, returnTo);
      expect(page.payBack).toBeNull();
      expect(page.back).toBeNull();
      expect(page.self).toBe(`/payment-methods/payto/${agreementId}`);
    }
  });
});
