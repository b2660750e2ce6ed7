import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import * as m0022 from "../../../db/migrations/0022-business-local-statement-dates";
import { getAccountTiles } from "../accounts/accounts.server";
import { findHostBranding } from "../host/host.server";
import { businessToday, fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import type { PaymentRequestView } from "../requests/payment-request-view.server";
import { renderPaymentRequestEmail } from "../requests/request-email.server";
import { findInvoice } from "./invoices.server";
import { submitPayment } from "./submit.server";

/**
 * Decision 078: a record's calendar date is the business's date in its own time zone at the
 * moment of the event. At 23:30 UTC it is already 09:30 or 10:30 the next day in Sydney and
 * 11:30 or 12:30 in Auckland, so every date below would be the day before if it were UTC's.
 */
describe("businessToday", () => {
  it.each([
    // At 23:30 UTC, in and out of daylight saving.
    ["2026-12-01T23:30:00Z", "Australia/Sydney", "2026-12-02"], // 10:30 AEDT
    ["2026-12-01T23:30:00Z", "Pacific/Auckland", "2026-12-02"], // 12:30 NZDT
    ["2026-07-01T23:30:00Z", "Australia/Sydney", "2026-07-02"], // 09:30 AEST
    ["2026-07-01T23:30:00Z", "Pacific/Auckland", "2026-07-02"], // 11:30 NZST
    ["2026-07-01T23:30:00Z", "Australia/Brisbane", "2026-07-02"], // no daylight saving
    // Sydney starts daylight saving at 02:00 on Sunday 4 October 2026.
    ["2026-10-03T13:30:00Z", "Australia/Sydney", "2026-10-03"], // 23:30 AEST on the Saturday
    ["2026-10-03T14:30:00Z", "Australia/Sydney", "2026-10-04"], // 00:30 AEST on the Sunday
    ["2026-10-04T13:30:00Z", "Australia/Sydney", "2026-10-05"], // 00:30 AEDT: +11 now
    // Auckland starts it at 02:00 on Sunday 27 September 2026.
    ["2026-09-26T11:30:00Z", "Pacific/Auckland", "2026-09-26"], // 23:30 NZST
    ["2026-09-27T11:30:00Z", "Pacific/Auckland", "2026-09-28"], // 00:30 NZDT: +13 now
    // Both end it on Sunday 4 April 2027 (03:00 back to 02:00; Auckland an hour earlier in UTC).
    ["2027-04-03T13:30:00Z", "Australia/Sydney", "2027-04-04"], // 00:30 AEDT
    ["2027-04-04T13:30:00Z", "Australia/Sydney", "2027-04-04"], // 23:30 AEST: +10 again
    ["2027-04-04T11:30:00Z", "Pacific/Auckland", "2027-04-04"], // 23:30 NZST: +12 again
  ])("at %s in %s it is %s", (at, zone, day) => {
    expect(businessToday(zone, new Date(at))).toBe(day);
  });

  it("reads the portal's clock when no instant is given", () => {
    setClockForTesting(fixedClock("2026-12-01T23:30:00Z"));
    try {
      expect(businessToday("Pacific/Auckland")).toBe("2026-12-02");
    } finally {
      setClockForTesting(undefined);
    }
  });
});

function businessDatesSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  const context = { origin: "http://acme.localhost", clientIp: "127.0.0.1", extraData: {} };
  const nextYear = new Date().getUTCFullYear() + 1;

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
  });
  afterEach(() => setClockForTesting(undefined));
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  async function actorOf(email: string, accountNumber: string) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const account = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("business_id", "=", contact.business_id)
      .where("number", "=", accountNumber)
      .executeTakeFirstOrThrow();
    return { businessId: contact.business_id, accountId: account.id, contactId: contact.id, clientIp: "127.0.0.1" };
  }

  /** Pays the account's first open invoice in full by a new Visa at the clock's time. */
  async function payFirstInvoice(actor: Awaited<ReturnType<typeof actorOf>>, currency: string, today: string) {
    const invoice = await handle.db
      .selectFrom("invoices")
      .select(["id", "balance_cents"])
      .where("account_id", "=", actor.accountId)
      .where("status", "in", [1, 3])
      .where("balance_cents", ">", 0)
      .orderBy("number")
      .executeTakeFirstOrThrow();
    const guid = randomUUID();
    const outcome = await submitPayment(
      actor,
      {
        requestGuid: guid,
        selection: [{ invoiceId: invoice.id, amountCents: invoice.balance_cents }],
        method: {
          kind: "new-card",
          card: {
            cardNumber: "4111111111111111",
            cvn: "123",
            expiryMonth: 12,
            expiryYear: nextYear,
            holderName: "Test Payer",
            save: false,
            authorityReference: "X",
          },
        },
        note: "",
        currency,
        today,
      },
      context,
    );
    expect(outcome.kind).toBe("succeeded");
    return handle.db
      .selectFrom("payments")
      .select(["reference", "completed_at"])
      .where("request_guid", "=", guid)
      .executeTakeFirstOrThrow();
  }

  const linesOf = (reference: string) =>
    handle.db.selectFrom("statement_lines").select(["line_date", "type"]).where("reference", "=", reference).execute();

  it.each([
    ["olivia@coastal.example", "ACME-1000", "AUD", "2026-12-01T23:30:00Z", "2026-12-02"], // 10:30 AEDT
    ["aroha@orchards.example", "KF-500", "NZD", "2026-12-01T23:30:00Z", "2026-12-02"], // 12:30 NZDT
    // The first night of Sydney's daylight saving, and the first of Auckland's.
    ["admin@acme.example", "ACME-2000", "AUD", "2026-10-03T14:30:00Z", "2026-10-04"], // 00:30 AEST
    ["liam@tasman.example", "KF-700", "NZD", "2026-09-27T11:30:00Z", "2026-09-28"], // 00:30 NZDT
  ])(
    "a payment by %s (%s, %s) at %s has statement lines and a dashboard 'Last payment' of %s",
    async (email, accountNumber, currency, at, day) => {
      const actor = await actorOf(email, accountNumber);
      // The demo ledger's own payments are dated around the real today: out of the way.
      await handle.db
        .deleteFrom("statement_lines")
        .where("account_id", "=", actor.accountId)
        .where("type", "=", "payment")
        .execute();
      setClockForTesting(fixedClock(at));
      const payment = await payFirstInvoice(actor, currency, day);
      const lines = await linesOf(payment.reference);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.map((line) => String(line.line_date))).toEqual(lines.map(() => day));
      const tiles = await getAccountTiles(actor.businessId, actor.accountId, day);
      expect(tiles.lastPayment).toMatchObject({ date: day, reference: payment.reference });
    },
  );

  it("counts days overdue from the business's date: due Dec 1, at 23:30 UTC on Dec 1 it is one day in Sydney", async () => {
    const actor = await actorOf("olivia@coastal.example", "ACME-1000");
    const invoice = await handle.db
      .selectFrom("invoices")
      .select("id")
      .where("account_id", "=", actor.accountId)
      .where("balance_cents", ">", 0)
      .where("status", "in", [1, 3])
      .orderBy("number", "desc")
      .executeTakeFirstOrThrow();
    await handle.db
      .updateTable("invoices")
      .set({ issue_date: "2026-09-01", due_date: "2026-12-01" })
      .where("id", "=", invoice.id)
      .execute();
    setClockForTesting(fixedClock("2026-12-01T12:59:00Z")); // 23:59 AEDT on the due date
    expect((await findInvoice(actor, invoice.id))?.daysOverdue).toBe(0);
    setClockForTesting(fixedClock("2026-12-01T23:30:00Z")); // 10:30 AEDT the next day
    expect((await findInvoice(actor, invoice.id))?.daysOverdue).toBe(1);
    // Across the start of daylight saving: due Saturday Oct 3, at 00:30 AEDT on Monday Oct 5.
    await handle.db.updateTable("invoices").set({ due_date: "2026-10-03" }).where("id", "=", invoice.id).execute();
    setClockForTesting(fixedClock("2026-10-04T13:30:00Z"));
    expect((await findInvoice(actor, invoice.id))?.daysOverdue).toBe(2);
  });

  describe("a payment request email's 'by' date", () => {
    const request = (dueDate: string): PaymentRequestView => ({
      id: randomUUID(),
      reference: "PR-TEST0001",
      account: { id: randomUUID(), number: "KF-500", name: "Aroha Orchards" },
      kind: "amount",
      description: "Freight",
      amountCents: 131_897,
      paidCents: 0,
      remainingCents: 131_897,
      currency: "NZD",
      dueDate,
      expiresAt: "2026-12-16T11:00:00.000Z",
      allowPartPayment: false,
      minPartPaymentCents: null,
      state: "sent",
      invoices: [],
      recipients: [],
      createdAt: "2026-12-01T23:30:00.000Z",
      sentAt: null,
      openedAt: null,
      paidAt: null,
      cancelledAt: null,
    });
    const render = async (dueDate: string) => {
      const branding = (await findHostBranding(handle.db, "kiwi.localhost"))!;
      return renderPaymentRequestEmail({
        branding,
        support: { supportEmail: "billing@kiwifreight.example", supportPhone: null },
        recipientName: "Aroha",
        request: request(dueDate),
        link: "http://kiwi.localhost/r/x",
      });
    };

    it("sent at 12:30 on Dec 2 in Auckland (23:30 UTC Dec 1), a request due Dec 2 is due today, not overdue", async () => {
      setClockForTesting(fixedClock("2026-12-01T23:30:00Z"));
      const email = await render("2026-12-02");
      expect(email.text).toContain("by Dec 2, 2026");
      expect(email.subject).not.toMatch(/overdue/i);
    });

    it("sent on Dec 2, a request due Nov 29 says it was due then and never asks to be paid 'by' Nov 29", async () => {
      setClockForTesting(fixedClock("2026-12-01T23:30:00Z"));
      const email = await render("2026-11-29");
      expect(email.text).not.toContain("by Nov 29");
      expect(email.text).toContain("was due on Nov 29, 2026");
      expect(email.subject).toContain("was due Nov 29, 2026");
    });
  });

  it("migration 0022 moves a payment's UTC-dated statement lines to the business's date, once", async () => {
    const actor = await actorOf("olivia@coastal.example", "ACME-1000");
    setClockForTesting(fixedClock("2026-11-15T22:00:00Z")); // 09:00 AEDT on Nov 16
    const payment = await payFirstInvoice(actor, "AUD", "2026-11-16");
    // What the old code wrote: the UTC date.
    await handle.db
      .updateTable("statement_lines")
      .set({ line_date: "2026-11-15" })
      .where("reference", "=", payment.reference)
      .execute();
    await sql.raw(m0022.up).execute(handle.db);
    expect((await linesOf(payment.reference)).map((line) => String(line.line_date))).toContain("2026-11-16");
    expect((await linesOf(payment.reference)).map((line) => String(line.line_date))).not.toContain("2026-11-15");
    await sql.raw(m0022.up).execute(handle.db);
    expect(new Set((await linesOf(payment.reference)).map((line) => String(line.line_date)))).toEqual(
      new Set(["2026-11-16"]),
    );
  });
}

describe("on PGlite", () => {
  businessDatesSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  businessDatesSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
