import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "../../app/services/platform/db.server";
import { createLinkToken, type LinkPurpose } from "../../app/services/links/link-tokens.server";

/**
 * Rows for the link pages' tests (issue 14), written straight into the database: open invoices,
 * a payment request of them (or of a stated amount) and a link token to it. Each call makes
 * new rows, so tests never share a request.
 */
export function paymentRequestFixtures(handle: DatabaseHandle) {
  let seq = 0;
  const db = handle.db;

  async function actorOf(email: string, accountNumber: string) {
    const contact = await db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const account = await db
      .selectFrom("accounts")
      .select("id")
      .where("number", "=", accountNumber)
      .where("business_id", "=", contact.business_id)
      .executeTakeFirstOrThrow();
    return { businessId: contact.business_id, accountId: account.id, contactId: contact.id };
  }

  /** New open invoices of the account, due in 30 days (no late fee or discount in reach). */
  async function invoices(scope: { businessId: string; accountId: string }, cents: number[]) {
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const rows = await db
      .insertInto("invoices")
      .values(
        cents.map((amount, i) => ({
          business_id: scope.businessId,
          account_id: scope.accountId,
          number: `LINK-${++seq}-${i}-${randomUUID().slice(0, 6)}`,
          issue_date: new Date().toISOString().slice(0, 10),
          due_date: due,
          amount_cents: amount,
          balance_cents: amount,
          status: 1,
          promise_date: null,
          dispute_reason: null,
        })),
      )
      .returning(["id", "number", "balance_cents"])
      .execute();
    return rows.map((r) => ({ id: r.id, number: r.number, balance: Number(r.balance_cents) }));
  }

  async function request(
    scope: { businessId: string; accountId: string; contactId: string },
    input: {
      invoices?: { id: string; balance: number }[];
      amountCents?: number;
      allowPartPayment?: boolean;
      minPartPaymentCents?: number | null;
      status?: "created" | "sent" | "paid" | "cancelled";
      expiresAt?: Date;
      description?: string;
    },
  ) {
    const kind = input.invoices ? "invoices" : "amount";
    const amount = input.invoices ? input.invoices.reduce((n, i) => n + i.balance, 0) : input.amountCents!;
    const reference = `PR-${randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase()}`;
    const row = await db
      .insertInto("payment_requests")
      .values({
        business_id: scope.businessId,
        account_id: scope.accountId,
        reference,
        kind,
        description: input.description ?? "Materials for job 42",
        currency: "AUD",
        amount_cents: amount,
        allow_part_payment: input.allowPartPayment ?? false,
        min_part_payment_cents: input.minPartPaymentCents ?? null,
        due_date: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
        expires_at: input.expiresAt ?? new Date(Date.now() + 7 * 86_400_000),
        status: input.status ?? "sent",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (input.invoices?.length) {
      await db
        .insertInto("payment_request_invoices")
        .values(
          input.invoices.map((i) => ({
            request_id: row.id,
            invoice_id: i.id,
            business_id: scope.businessId,
            amount_cents: i.balance,
          })),
        )
        .execute();
    }
    return { id: row.id, reference };
  }

  async function link(
    scope: { businessId: string; contactId: string },
    subjectId: string,
    options: { purpose?: LinkPurpose; expiresAt?: Date } = {},
  ) {
    return createLinkToken(db, {
      businessId: scope.businessId,
      purpose: options.purpose ?? "payment-request",
      subjectId,
      contactId: scope.contactId,
      expiresAt: options.expiresAt ?? new Date(Date.now() + 7 * 86_400_000),
    });
  }

  /**
   * A new contact of the account (a scope of its own), so that a test may unlink or disable it
   * without touching the seed's contacts; `unlink`, `relink`, `disable` and `enable` change it.
   */
  async function contact(scope: { businessId: string; accountId: string }) {
    const row = await db
      .insertInto("contacts")
      .values({
        business_id: scope.businessId,
        email: `payer-${++seq}-${randomUUID().slice(0, 8)}@links.example`,
        first_name: "Pia",
        last_name: "Payer",
        position: "Accounts",
        verified_at: new Date(),
        permissions: [],
        password_hash: null,
        external_subject: null,
        disabled_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const joined = {
      business_id: scope.businessId,
      account_id: scope.accountId,
      contact_id: row.id,
      role: "contact" as const,
    };
    await db.insertInto("account_contacts").values(joined).execute();
    const setDisabled = (at: Date | null) =>
      db.updateTable("contacts").set({ disabled_at: at }).where("id", "=", row.id).execute();
    return {
      scope: { businessId: scope.businessId, accountId: scope.accountId, contactId: row.id },
      unlink: () =>
        db
          .deleteFrom("account_contacts")
          .where("contact_id", "=", row.id)
          .where("account_id", "=", scope.accountId)
          .execute(),
      relink: () => db.insertInto("account_contacts").values(joined).execute(),
      disable: () => setDisabled(new Date()),
      enable: () => setDisabled(null),
    };
  }

  return { actorOf, invoices, request, link, contact };
}
