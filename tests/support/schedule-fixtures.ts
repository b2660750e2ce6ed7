import { createHash, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";

/**
 * Rows the payment-schedule tests need (issue 15), written straight into the database: an
 * account of its own with a contact, saved cards (a live one, an expired one, a removed one),
 * PayTo agreements in a given state and open invoices. Each call makes new rows, so tests never
 * share an account. A card is what the sandbox gateway would have saved: a token it knows
 * (`sandbox_gateway_tokens`, approving by default) and public facts only.
 */
export function scheduleFixtures(db: Kysely<DB>) {
  let seq = 0;
  const tag = () => `${++seq}-${randomUUID().slice(0, 6)}`;

  async function businessOf(hostname: string) {
    const row = await db
      .selectFrom("hosts")
      .select("business_id")
      .where("hostname", "=", hostname)
      .executeTakeFirstOrThrow();
    return row.business_id;
  }

  /** A new account with one verified contact joined to it (portal access unless told otherwise). */
  async function account(
    businessId: string,
    options: { portal?: boolean; email?: string; passwordHash?: string | null } = {},
  ) {
    const t = tag();
    const account = await db
      .insertInto("accounts")
      .values({ business_id: businessId, number: `SCH-${t}`.toUpperCase(), name: `Schedule test ${t}` })
      .returning(["id", "number"])
      .executeTakeFirstOrThrow();
    const contact = await db
      .insertInto("contacts")
      .values({
        business_id: businessId,
        email: options.email ?? `schedules-${t}@schedules.example`,
        first_name: "Sky",
        last_name: "Schedule",
        position: "Accounts",
        verified_at: new Date(),
        permissions: options.portal === false ? [] : ["accessCustomerPortal"],
        password_hash: options.passwordHash ?? null,
        external_subject: null,
        disabled_at: null,
      })
      .returning(["id", "email"])
      .executeTakeFirstOrThrow();
    await db
      .insertInto("account_contacts")
      .values({ business_id: businessId, account_id: account.id, contact_id: contact.id, role: "contact" })
      .execute();
    return {
      businessId,
      accountId: account.id,
      accountNumber: account.number,
      contactId: contact.id,
      email: contact.email,
    };
  }

  /** A saved card of the account: `expired` is past its expiry, `removed` was removed. */
  async function card(
    scope: { businessId: string; accountId: string },
    options: {
      brand?: "visa" | "mastercard" | "amex";
      expired?: boolean;
      removed?: boolean;
      outcome?: "approve" | "decline";
      isDefault?: boolean;
    } = {},
  ) {
    const brand = options.brand ?? "visa";
    const token = `tok_sbx_test_${randomUUID().replace(/-/g, "")}`;
    const year = new Date().getUTCFullYear() + (options.expired ? -1 : 3);
    const last4 = brand === "amex" ? "0005" : brand === "mastercard" ? "4444" : "1111";
    await db
      .insertInto("sandbox_gateway_tokens")
      .values({
        token,
        brand,
        last4,
        expiry_month: 6,
        expiry_year: year,
        outcome: options.outcome ?? "approve",
      })
      .execute();
    const row = await db
      .insertInto("cards")
      .values({
        business_id: scope.businessId,
        account_id: scope.accountId,
        gateway: "sandbox",
        gateway_token: token,
        brand,
        first_digit: brand === "amex" ? "3" : brand === "mastercard" ? "5" : "4",
        last4,
        expiry_month: 6,
        expiry_year: year,
        holder_name: "Sky Schedule",
        is_default: options.isDefault ?? false,
        authority_reference: "TEST-SCHEDULE",
        consented_at: new Date(),
        consented_by: null,
        removed_at: options.removed ? new Date() : null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A PayTo agreement of the account in the given state (a PayID one). */
  async function agreement(
    scope: { businessId: string; accountId: string },
    status: "ACTIVE" | "CREATED" | "SUSPENDED" | "CANCELLED" = "ACTIVE",
    maxAmountCents = 1_000_000,
  ) {
    const guid = randomUUID();
    const row = await db
      .insertInto("payto_agreements")
      .values({
        business_id: scope.businessId,
        account_id: scope.accountId,
        request_guid: guid,
        request_hash: createHash("sha256").update(guid).digest("hex"),
        status,
        party_name: "Sky Schedule",
        alias_type: "EMAL",
        alias_value: `payer-${guid.slice(0, 8)}@payto.test`,
        max_amount_cents: maxAmountCents,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Open invoices of the account, due in 30 days. */
  async function invoices(scope: { businessId: string; accountId: string }, cents: number[]) {
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    return db
      .insertInto("invoices")
      .values(
        cents.map((amount) => ({
          business_id: scope.businessId,
          account_id: scope.accountId,
          number: `SCHINV-${tag()}`.toUpperCase(),
          issue_date: new Date().toISOString().slice(0, 10),
          due_date: due,
          amount_cents: amount,
          balance_cents: amount,
          status: 1,
          promise_date: null,
          dispute_reason: null,
        })),
      )
      .returning(["id", "number"])
      .execute();
  }

  return { businessOf, account, card, agreement, invoices };
}
