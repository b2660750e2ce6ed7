import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createInvoiceLink, InvoiceLinkError } from "~/services/links/invoice-links.server";
import { revokeLinkTokens } from "~/services/links/link-tokens.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import { revokeInvoiceLinks, sendInvoiceLinks } from "~/services/requests/invoice-links.server";
import { startSmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { paymentRequestFixtures } from "../../../../tests/support/payment-request-fixtures";
import { action, loader } from "./$token";
import { loader as receiptLoader } from "../../_customer+/payment.complete.$slug";

/**
 * One invoice by its own link (issue 14; decision 031): view and pay it with no session, part
 * or in full; a paid invoice or an expired link says so; any other token is "This link isn't
 * valid"; and the service that mints such links checks the invoice and the contact.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const nextYear = String(new Date().getUTCFullYear() + 1);
const CARD = {
  cardNumber: "4111111111111111",
  cardHolderName: "Pat Payer",
  expiryMonth: "12",
  expiryYear: nextYear,
  cvn: "123",
};

let handle: DatabaseHandle;
let fx: ReturnType<typeof paymentRequestFixtures>;
let scope: { businessId: string; accountId: string; contactId: string };
let kiwi: { businessId: string; accountId: string; contactId: string };

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  fx = paymentRequestFixtures(handle);
  scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
  // A contact of another business (kiwi): not a contact of any acme account.
  const contact = await handle.db
    .selectFrom("contacts")
    .innerJoin("account_contacts", "account_contacts.contact_id", "contacts.id")
    .select(["contacts.id", "contacts.business_id", "account_contacts.account_id"])
    .where("contacts.email", "=", "aroha@orchards.example")
    .executeTakeFirstOrThrow();
  kiwi = { businessId: contact.business_id, accountId: contact.account_id, contactId: contact.id };
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

type Handler = (args: { request: Request; params: Record<string, string>; context: object }) => unknown;
async function run(handler: unknown, request: Request, params: Record<string, string>) {
  let result: unknown;
  try {
    result = await (handler as Handler)({ request, params, context: {} });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get("location"),
      headers: result.headers,
      data: {} as Record<string, unknown>,
    };
  }
  const wrapped = result as { type?: string; data?: Record<string, unknown>; init?: ResponseInit | null };
  if (wrapped?.type === "DataWithResponseInit") {
    return {
      status: wrapped.init?.status ?? 200,
      location: null,
      headers: new Headers(wrapped.init?.headers),
      data: wrapped.data!,
    };
  }
  return { status: 200, location: null, headers: new Headers(), data: result as Record<string, unknown> };
}
const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${path}`, { headers: { host: HOST, ...headers } });
const post = (path: string, form: Record<string, string>, cookie?: string) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      host: HOST,
      origin: ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
const balanceOf = async (id: string) =>
  Number(
    (await handle.db.selectFrom("invoices").select("balance_cents").where("id", "=", id).executeTakeFirstOrThrow())
      .balance_cents,
  );

async function payInvoice(token: string, invoiceId: string, amount: string) {
  const path = `/customer/invoices-and-payments/${token}`;
  const field = `amount-${invoiceId}`;
  const quote = await run(
    action,
    post(path, { [field]: amount, method: "new", cardPrefix: "41111111", intent: "quote" }),
    {
      token,
    },
  );
  return run(
    action,
    post(path, {
      ...CARD,
      [field]: amount,
      method: "new",
      intent: "pay",
      requestGuid: randomUUID(),
      expectedAmount: String((quote.data.breakdown as { totalCents: number } | null)?.totalCents ?? ""),
    }),
    { token },
  );
}

describe("an invoice by its own link", () => {
  it("shows the invoice with no session and takes a part, then the rest; the browser may see its receipt", async () => {
    const [invoice] = await fx.invoices(scope, [25_000]);
    const { token } = await createInvoiceLink(
      scope.businessId,
      invoice!.id,
      scope.contactId,
      new Date(Date.now() + 86_400_000),
    );
    const page = await run(loader, get(`/customer/invoices-and-payments/${token}`), { token });
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ kind: "open", available: "250.00", invoice: { number: invoice!.number } });

    const part = await payInvoice(token, invoice!.id, "100.00");
    expect(part.status).toBe(302);
    expect(part.headers.get("referrer-policy")).toBe("strict-origin");
    expect(await balanceOf(invoice!.id)).toBe(15_000);
    const reference = part.location!.split("/").pop()!;
    const cookie = part.headers.get("set-cookie")!.split(";")[0]!;
    const receipt = await run(receiptLoader, get(`/payment/complete/${reference}`, { cookie }), { slug: reference });
    expect(receipt.status).toBe(200);
    expect(receipt.data).toMatchObject({ viaLink: true });

    const tooMuch = await payInvoice(token, invoice!.id, "150.01");
    expect(tooMuch.status).toBe(400);
    expect((tooMuch.data.errors as Record<string, string>)[`amount-${invoice!.id}`]).toBe(
      "pay.error.amount.aboveBalance",
    );
    expect((await payInvoice(token, invoice!.id, "150.00")).status).toBe(302);
    expect(await balanceOf(invoice!.id)).toBe(0);
    const closed = await run(loader, get(`/customer/invoices-and-payments/${token}`), { token });
    // A live link to a paid invoice still shows it in full (to read and print).
    expect(closed.data).toMatchObject({
      kind: "closed",
      reason: "paid",
      account: { number: "ACME-1000" },
      invoice: { number: invoice!.number, balance: "$0.00" },
    });
    const again = await payInvoice(token, invoice!.id, "1.00");
    expect([again.status, again.data.message]).toEqual([409, "pay.error.nothing"]);
  });

  it("an expired or withdrawn link says only that, the invoice's number and whom to ask, and takes nothing", async () => {
    const [invoice] = await fx.invoices(scope, [5_000]);
    const replaced = await fx.link(scope, invoice!.id, { purpose: "invoice" });
    await revokeLinkTokens(handle.db, { businessId: scope.businessId, purpose: "invoice", subjectId: invoice!.id });
    const expired = await fx.link(scope, invoice!.id, { purpose: "invoice", expiresAt: new Date(Date.now() - 1000) });
    for (const [link, reason] of [
      [expired, "expired"],
      [replaced, "withdrawn"],
    ] as const) {
      const page = await run(loader, get(`/customer/invoices-and-payments/${link.token}`), { token: link.token });
      expect(page.status).toBe(200);
      expect(page.data).toEqual({
        kind: "link-closed",
        reason,
        number: invoice!.number,
        businessName: expect.any(String),
        contact: { email: "accounts@acme.example", phone: expect.anything() },
      });
      // Nothing of the invoice (amounts, dates) or its account (name, number, address).
      expect(page.data).not.toHaveProperty("invoice");
      expect(page.data).not.toHaveProperty("account");
      expect(JSON.stringify(page.data)).not.toMatch(/Coastal|ACME-1000|Wharf|\$50\.00/);
      expect((await payInvoice(link.token, invoice!.id, "50.00")).status).toBe(409);
    }
    expect(await balanceOf(invoice!.id)).toBe(5_000);

    const requestLink = await fx.link(scope, invoice!.id, { purpose: "payment-request" });
    for (const token of [requestLink.token, "invoices-but-longer", expired.token.slice(0, 40), "A".repeat(59)]) {
      const answer = await run(loader, get(`/customer/invoices-and-payments/${token}`), { token });
      expect([answer.status, answer.data.reason], token).toEqual([404, "link-invalid"]);
    }
  });
});

describe("the confirm step on an invoice's own link (issue 31; decision 071)", () => {
  it("holds a new card whose surcharge the page could not show, charges nothing, then pays the confirmed total once", async () => {
    const [invoice] = await fx.invoices(scope, [20_000]);
    const { token } = await createInvoiceLink(
      scope.businessId,
      invoice!.id,
      scope.contactId,
      new Date(Date.now() + 86_400_000),
    );
    const path = `/customer/invoices-and-payments/${token}`;
    const field = `amount-${invoice!.id}`;
    // The page without JavaScript: no card chosen yet, so its button has no surcharge in it.
    const page = await run(loader, get(path), { token });
    const shown = page.data.breakdown as { totalCents: number; total: string; surcharge: string | null };
    expect(shown.surcharge).toBeNull();
    const paymentsOf = () =>
      handle.db
        .selectFrom("payments")
        .innerJoin("payment_allocations", "payment_allocations.payment_id", "payments.id")
        .select(["payments.status", "payments.amount_cents"])
        .where("payment_allocations.invoice_id", "=", invoice!.id)
        .execute();
    // First tap: a Visa (1.2%), the loader's total posted. Neither charged nor refused.
    const first = await run(
      action,
      post(path, {
        ...CARD,
        [field]: "200.00",
        method: "new",
        intent: "pay",
        shownAction: "card",
        requestGuid: page.data.requestGuid as string,
        expectedAmount: String(shown.totalCents),
      }),
      { token },
    );
    expect(first.status).toBe(200);
    const reply = first.data as {
      requestGuid: string;
      message: string | null;
      breakdown: { totalCents: number; surcharge: string | null };
      confirm: { action: string; method: string; card: { last4: string } | null; shownTotal: string | null };
    };
    expect(reply.message).toBeNull();
    expect(reply.requestGuid).toBe(page.data.requestGuid);
    expect(reply.breakdown.surcharge).not.toBeNull();
    expect(reply.breakdown.totalCents).toBeGreaterThan(shown.totalCents);
    expect(reply.confirm).toMatchObject({ action: "card", card: { last4: "1111" }, shownTotal: shown.total });
    expect(reply.confirm.method).toMatch(/^held:/);
    expect(JSON.stringify(first.data)).not.toContain(CARD.cardNumber);
    expect(JSON.stringify(first.data)).not.toMatch(/"cvn"/);
    expect(await paymentsOf()).toEqual([]);
    expect(await balanceOf(invoice!.id)).toBe(20_000);
    const hold = first.headers.get("set-cookie")!.split(";")[0]!;
    expect(hold).toMatch(/^portal_hold=/);
    // Confirm: the held card and the confirmed total, no number or CVN. Twice: one charge.
    const confirm = {
      [field]: "200.00",
      method: reply.confirm.method,
      intent: "pay",
      shownAction: reply.confirm.action,
      requestGuid: reply.requestGuid,
      expectedAmount: String(reply.breakdown.totalCents),
      cardHolderName: CARD.cardHolderName,
      expiryMonth: CARD.expiryMonth,
      expiryYear: CARD.expiryYear,
    };
    const paid = await run(action, post(path, confirm, hold), { token });
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/payment\/complete\/PAY-[0-9A-F]{10}$/);
    const again = await run(action, post(path, confirm, hold), { token });
    expect(again.location).toBe(paid.location);
    expect(await paymentsOf()).toEqual([{ status: "succeeded", amount_cents: reply.breakdown.totalCents }]);
    expect(await balanceOf(invoice!.id)).toBe(0);
  });
});

describe("an invoice link whose contact has left the account", () => {
  it("is withdrawn once its contact is removed from the account or disabled, and takes nothing", async () => {
    const payer = await fx.contact(scope);
    const [invoice] = await fx.invoices(scope, [6_000]);
    const { token } = await createInvoiceLink(
      scope.businessId,
      invoice!.id,
      payer.scope.contactId,
      new Date(Date.now() + 86_400_000),
    );
    const path = `/customer/invoices-and-payments/${token}`;
    expect((await run(loader, get(path), { token })).data.kind).toBe("open");
    for (const [leave, back] of [
      [payer.unlink, payer.relink],
      [payer.disable, payer.enable],
    ] as const) {
      await leave();
      const page = await run(loader, get(path), { token });
      expect(page.data).toMatchObject({ kind: "link-closed", reason: "withdrawn", number: invoice!.number });
      expect(page.data).not.toHaveProperty("invoice");
      expect(page.data).not.toHaveProperty("account");
      const attempt = await payInvoice(token, invoice!.id, "60.00");
      expect([attempt.status, attempt.data.message]).toEqual([409, "pay.error.nothing"]);
      expect(await balanceOf(invoice!.id)).toBe(6_000);
      await back();
    }
    expect((await payInvoice(token, invoice!.id, "60.00")).status).toBe(302);
    expect(await balanceOf(invoice!.id)).toBe(0);
  });
});

describe("createInvoiceLink", () => {
  it("mints a link for a contact of the invoice's account only, with a sensible expiry", async () => {
    const [invoice] = await fx.invoices(scope, [1_000]);
    const soon = new Date(Date.now() + 86_400_000);
    await expect(createInvoiceLink(scope.businessId, invoice!.id, kiwi.contactId, soon)).rejects.toThrow(
      InvoiceLinkError,
    );
    await expect(createInvoiceLink(kiwi.businessId, invoice!.id, kiwi.contactId, soon)).rejects.toMatchObject({
      code: "not-found",
    });
    await expect(createInvoiceLink(scope.businessId, "nope", scope.contactId, soon)).rejects.toMatchObject({
      code: "not-found",
    });
    await expect(
      createInvoiceLink(scope.businessId, invoice!.id, scope.contactId, new Date(Date.now() - 1)),
    ).rejects.toMatchObject({
      code: "expiry",
    });
    const made = await createInvoiceLink(scope.businessId, invoice!.id, scope.contactId, soon);
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{59}$/);
    // A disabled contact gets no link: it would be withdrawn the moment it was opened.
    const disabled = await fx.contact(scope);
    await disabled.disable();
    await expect(
      createInvoiceLink(scope.businessId, invoice!.id, disabled.scope.contactId, soon),
    ).rejects.toMatchObject({ code: "contact" });
  });
});

describe("an invoice link made by the back-office service (issue 31; decision 074)", () => {
  it("opens the invoice from its email until revoked; then says only that it was withdrawn, and takes nothing", async () => {
    const catcher = await startSmtpCatcher();
    const savedSmtp = process.env.SMTP_URL;
    process.env.SMTP_URL = catcher.smtpUrl;
    resetEnvForTesting();
    try {
      const [invoice] = await fx.invoices(scope, [7_500]);
      const sent = await sendInvoiceLinks(scope.businessId, {
        invoice: invoice!.number,
        recipients: ["olivia@coastal.example"],
      });
      expect(sent.deliveries[0]).toMatchObject({ sent: true });
      const mail = await catcher.waitForMail("olivia@coastal.example");
      const url = mail.links.find((l) => l.includes("/customer/invoices-and-payments/"))!;
      const token = url.split("/customer/invoices-and-payments/")[1]!;
      const page = await run(loader, get(`/customer/invoices-and-payments/${token}`), { token });
      expect(page.status).toBe(200);
      expect(page.data).toMatchObject({ kind: "open", available: "75.00", invoice: { number: invoice!.number } });

      expect((await revokeInvoiceLinks(scope.businessId, { invoice: invoice!.id })).revoked).toBe(1);
      const revoked = await run(loader, get(`/customer/invoices-and-payments/${token}`), { token });
      // Decision 031: the holder of a real, revoked link learns only that it was withdrawn.
      expect(revoked.data).toMatchObject({ kind: "link-closed", reason: "withdrawn", number: invoice!.number });
      expect(revoked.data).not.toHaveProperty("invoice");
      expect(JSON.stringify(revoked.data)).not.toMatch(/Coastal|ACME-1000|\$75\.00/);
      expect((await payInvoice(token, invoice!.id, "75.00")).status).toBe(409);
      expect(await balanceOf(invoice!.id)).toBe(7_500);
    } finally {
      await catcher.close();
      if (savedSmtp === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = savedSmtp;
      resetEnvForTesting();
    }
  });
});
