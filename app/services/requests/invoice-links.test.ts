import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { checkLinkToken } from "../links/link-tokens.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import { RequestProblem } from "../platform/problems.server";
import { listInvoiceLinks, revokeInvoiceLinks, sendInvoiceLinks } from "./invoice-links.server";

/**
 * Single-invoice links, the business's side (issue 31; decision 074): create and email, send again
 * (the earlier link stops), revoke, list; tenancy (another business's invoice is a 404), bounded input
 * (400), invoices that cannot be paid online (409) — on PGlite, and on PostgreSQL when
 * TEST_DATABASE_URL is set. Real SMTP: the catcher.
 */
let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});
afterAll(async () => {
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});

const PATH = "/customer/invoices-and-payments/";
const tokenIn = (links: string[]) => links.find((l) => l.includes(PATH))?.split(PATH)[1] ?? null;

async function problemOf(run: () => Promise<unknown>): Promise<RequestProblem> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RequestProblem) return error;
    throw error;
  }
  throw new Error("expected a RequestProblem");
}

function invoiceLinkSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme: string;
  let kiwi: string;

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const business = async (host: string) =>
      (await handle.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow())
        .business_id;
    acme = await business("acme.localhost");
    kiwi = await business("kiwi.localhost");
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });
  beforeEach(() => catcher.clear());

  const linkCount = async () =>
    Number(
      (
        await handle.db
          .selectFrom("link_tokens")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** An acme invoice that can be paid online, with its account's number. */
  const payableInvoice = async (account = "ACME-1000") =>
    handle.db
      .selectFrom("invoices")
      .innerJoin("accounts", "accounts.id", "invoices.account_id")
      .select(["invoices.id", "invoices.number", "invoices.balance_cents as balance", "invoices.due_date as due"])
      .where("invoices.business_id", "=", acme)
      .where("accounts.number", "=", account)
      .where("invoices.status", "in", [1, 3])
      .where("invoices.balance_cents", ">", 0)
      .orderBy("invoices.number")
      .executeTakeFirstOrThrow();

  it("emails each recipient a link of their own that opens that invoice, and nothing else", async () => {
    const invoice = await payableInvoice();
    const before = await linkCount();
    const result = await sendInvoiceLinks(acme, { invoice: invoice.number, recipients: ["olivia@coastal.example"] });
    expect(result.invoice).toMatchObject({
      id: invoice.id,
      number: invoice.number,
      balanceCents: invoice.balance,
      currency: "AUD",
      account: { number: "ACME-1000" },
    });
    expect(result.deliveries).toEqual([{ email: "olivia@coastal.example", sent: true }]);
    expect(result.links).toHaveLength(1);
    expect(result.links[0]).toMatchObject({ contact: { email: "olivia@coastal.example" }, replaced: 0 });
    // 14 days, as a payment request's default.
    const days = (new Date(result.links[0]!.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    expect(await linkCount()).toBe(before + 1);
    // The answer never holds a token.
    expect(JSON.stringify(result)).not.toMatch(/[A-Za-z0-9_-]{59}/);

    const mail = await catcher.waitForMail("olivia@coastal.example");
    // The business, the invoice, what is owing and the due date (spec §9's format), overdue or not.
    expect(mail.subject).toMatch(new RegExp(`nvoice ${invoice.number} from Acme`));
    expect(mail.subject).toMatch(/\$[\d,]+\.\d{2} due [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const token = tokenIn(mail.links);
    expect(token).toMatch(/^[A-Za-z0-9_-]{59}$/);
    expect(mail.links.find((l) => l.includes(PATH))).toMatch(/^http:\/\/acme\.localhost:3000\//);
    const check = await checkLinkToken(acme, "invoice", token);
    expect(check.status).toBe("valid");
    if (check.status !== "valid") return;
    expect(check.link.subjectId).toBe(invoice.id);
    expect(check.link.contactId).toBe(result.links[0]!.contact.id);
    // Bound to its purpose and its business: not a payment-request link, not kiwi's.
    expect((await checkLinkToken(acme, "payment-request", token)).status).toBe("unknown");
    expect((await checkLinkToken(kiwi, "invoice", token)).status).toBe("unknown");
  });

  it("sending again replaces the contact's earlier link; each recipient holds their own", async () => {
    const invoice = await payableInvoice();
    await sendInvoiceLinks(acme, { invoice: invoice.id, recipients: ["olivia@coastal.example"] });
    const first = tokenIn((await catcher.waitForMail("olivia@coastal.example")).links);
    catcher.clear();
    const again = await sendInvoiceLinks(acme, {
      invoice: invoice.number,
      recipients: ["olivia@coastal.example", "OLIVIA@coastal.example"],
      expiresInDays: 3,
    });
    // Named twice: sent once.
    expect(again.links).toHaveLength(1);
    expect(again.links[0]!.replaced).toBeGreaterThanOrEqual(1);
    const second = tokenIn((await catcher.waitForMail("olivia@coastal.example")).links);
    expect(second).not.toBe(first);
    expect((await checkLinkToken(acme, "invoice", first)).status).toBe("revoked");
    expect((await checkLinkToken(acme, "invoice", second)).status).toBe("valid");
    // Expiry: the link stops working after the days given.
    const later = new Date(Date.now() + 3 * 86_400_000 + 60_000);
    expect((await checkLinkToken(acme, "invoice", second, later)).status).toBe("expired");
  });

  it("refuses an invoice of another business or none with 404, and changes nothing", async () => {
    const invoice = await payableInvoice();
    const before = await linkCount();
    for (const [business, name] of [
      [kiwi, invoice.number],
      [kiwi, invoice.id],
      [acme, "ACME-1000-INV-999"],
      [acme, "00000000-0000-4000-8000-000000000000"],
    ] as const) {
      const problem = await problemOf(() =>
        sendInvoiceLinks(business, { invoice: name, recipients: ["olivia@coastal.example"] }),
      );
      expect([problem.code, problem.message]).toEqual(["not-found", "No such invoice."]);
      const revoke = await problemOf(() => revokeInvoiceLinks(business, { invoice: name }));
      expect(revoke.code).toBe("not-found");
    }
    expect(await linkCount()).toBe(before);
    expect(catcher.messages).toHaveLength(0);
  });

  it("refuses an invoice that cannot be paid online with 409: paid, disputed, on hold", async () => {
    const before = await linkCount();
    const invoice = await payableInvoice("ACME-2000");
    for (const status of [2, 5, 6]) {
      await handle.db.updateTable("invoices").set({ status }).where("id", "=", invoice.id).execute();
      const problem = await problemOf(() =>
        sendInvoiceLinks(acme, { invoice: invoice.number, recipients: ["olivia@coastal.example"] }),
      );
      expect(problem.code).toBe("conflict");
      expect(problem.message).toContain("cannot be paid online");
    }
    await handle.db.updateTable("invoices").set({ status: 1, balance_cents: 0 }).where("id", "=", invoice.id).execute();
    expect(
      (
        await problemOf(() =>
          sendInvoiceLinks(acme, { invoice: invoice.number, recipients: ["olivia@coastal.example"] }),
        )
      ).code,
    ).toBe("conflict");
    await handle.db
      .updateTable("invoices")
      .set({ status: 1, balance_cents: invoice.balance })
      .where("id", "=", invoice.id)
      .execute();
    expect(await linkCount()).toBe(before);
    expect(catcher.messages).toHaveLength(0);
  });

  it("refuses bad input with 400 and a message per field, and changes nothing", async () => {
    const invoice = await payableInvoice();
    const before = await linkCount();
    const cases: [unknown, string][] = [
      [{ recipients: ["olivia@coastal.example"] }, "invoice"],
      [{ invoice: "", recipients: ["olivia@coastal.example"] }, "invoice"],
      [{ invoice: "x".repeat(101), recipients: ["olivia@coastal.example"] }, "invoice"],
      [{ invoice: 12, recipients: ["olivia@coastal.example"] }, "invoice"],
      [{ invoice: invoice.number }, "recipients"],
      [{ invoice: invoice.number, recipients: [] }, "recipients"],
      [{ invoice: invoice.number, recipients: "olivia@coastal.example" }, "recipients"],
      [
        { invoice: invoice.number, recipients: Array.from({ length: 11 }, (_, i) => `p${i}@coastal.example`) },
        "recipients",
      ],
      [{ invoice: invoice.number, recipients: [`${"a".repeat(250)}@x.example`] }, "recipients.0"],
      [{ invoice: invoice.number, recipients: ["olivia@coastal.example"], expiresInDays: 91 }, "expiresInDays"],
      [{ invoice: invoice.number, recipients: ["olivia@coastal.example"], expiresInDays: 1.5 }, "expiresInDays"],
      [{ invoice: invoice.number, recipients: ["olivia@coastal.example"], amountCents: 5 }, "amountCents"],
      // Not a contact of the invoice's account: another business's contact, and nobody.
      [{ invoice: invoice.number, recipients: ["olivia@coastal.example", "aroha@orchards.example"] }, "recipients.1"],
      [{ invoice: invoice.number, recipients: ["nobody@nowhere.example"] }, "recipients.0"],
    ];
    for (const [input, field] of cases) {
      const problem = await problemOf(() => sendInvoiceLinks(acme, input));
      expect(problem.code, JSON.stringify(input).slice(0, 80)).toBe("validation");
      expect(Object.keys(problem.fields ?? {}), JSON.stringify(input).slice(0, 80)).toContain(field);
    }
    for (const input of [{}, { invoice: invoice.number, contact: 5 }, { invoice: invoice.number, extra: 1 }]) {
      expect((await problemOf(() => revokeInvoiceLinks(acme, input))).code).toBe("validation");
    }
    expect(
      (await problemOf(() => revokeInvoiceLinks(acme, { invoice: invoice.number, contact: "nobody@x.example" })))
        .fields,
    ).toEqual({ contact: 'No contact "nobody@x.example" at this business.' });
    expect((await problemOf(() => listInvoiceLinks(acme, { state: "gone" }))).fields).toHaveProperty("state");
    expect((await problemOf(() => listInvoiceLinks(acme, { invoice: "nope" }))).fields).toHaveProperty("invoice");
    expect((await problemOf(() => listInvoiceLinks(acme, { limit: 101 }))).fields).toHaveProperty("limit");
    expect((await problemOf(() => listInvoiceLinks(acme, { cursor: "bad!" }))).fields).toHaveProperty("cursor");
    expect(await linkCount()).toBe(before);
    expect(catcher.messages).toHaveLength(0);
  });

  it("revokes one contact's links or every link to the invoice, idempotently, and lists them", async () => {
    const invoice = await payableInvoice("ACME-2000");
    const contacts = await handle.db
      .selectFrom("account_contacts as ac")
      .innerJoin("accounts as a", "a.id", "ac.account_id")
      .innerJoin("contacts as c", "c.id", "ac.contact_id")
      .select("c.email")
      .where("a.number", "=", "ACME-2000")
      .where("c.disabled_at", "is", null)
      .orderBy("c.email")
      .execute();
    const emails = contacts.map((c) => c.email).slice(0, 2);
    await sendInvoiceLinks(acme, { invoice: invoice.number, recipients: emails });
    const live = await listInvoiceLinks(acme, { invoice: invoice.number, state: "live" });
    expect(live.items.map((item) => item.contact.email).sort()).toEqual([...emails].sort());
    expect(live.items.every((item) => item.invoice.number === invoice.number)).toBe(true);

    const one = await revokeInvoiceLinks(acme, { invoice: invoice.number, contact: emails[0] });
    expect(one).toMatchObject({ invoice: { number: invoice.number }, contact: { email: emails[0] }, revoked: 1 });
    if (emails.length > 1) {
      expect((await listInvoiceLinks(acme, { invoice: invoice.number, state: "live" })).items).toHaveLength(1);
    }
    const all = await revokeInvoiceLinks(acme, { invoice: invoice.number });
    expect(all).toMatchObject({ contact: null, revoked: emails.length - 1 });
    expect((await revokeInvoiceLinks(acme, { invoice: invoice.number })).revoked).toBe(0);
    expect((await listInvoiceLinks(acme, { invoice: invoice.number, state: "live" })).items).toEqual([]);
    const revoked = await listInvoiceLinks(acme, { invoice: invoice.number, state: "revoked", limit: 1 });
    expect(revoked.items).toHaveLength(1);
    expect(revoked.items[0]!.revokedAt).not.toBeNull();
    if (emails.length > 1) {
      expect(revoked.nextCursor).not.toBeNull();
      const next = await listInvoiceLinks(acme, {
        invoice: invoice.number,
        state: "revoked",
        limit: 1,
        cursor: revoked.nextCursor,
      });
      expect(next.items[0]!.id).not.toBe(revoked.items[0]!.id);
    }
    // Kiwi sees none of acme's links.
    expect((await listInvoiceLinks(kiwi, {})).items).toEqual([]);
  });

  it("reports a mail the server refused, and keeps the link (a send again fixes it)", async () => {
    const invoice = await payableInvoice();
    catcher.refused.add("olivia@coastal.example");
    try {
      const result = await sendInvoiceLinks(acme, { invoice: invoice.number, recipients: ["olivia@coastal.example"] });
      expect(result.deliveries).toEqual([
        { email: "olivia@coastal.example", sent: false, error: "The mail server did not take the message." },
      ]);
      expect(
        (await listInvoiceLinks(acme, { invoice: invoice.number, contact: "olivia@coastal.example", state: "live" }))
          .items,
      ).toHaveLength(1);
    } finally {
      catcher.refused.delete("olivia@coastal.example");
    }
  });
}

describe("single-invoice links on PGlite", () => {
  invoiceLinkSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("single-invoice links on PostgreSQL (TEST_DATABASE_URL)", () => {
  invoiceLinkSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
