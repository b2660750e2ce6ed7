/**
 * The customer-style and ad-hoc journeys' own data (issue 14; decision 033), made by
 * e2e-seed.ts before the server opens the database: one set per Playwright project, so the
 * js and no-js runs (and parallel workers) never share a login, an account or a request.
 *
 * - `home`: a verified contact WITHOUT accessCustomerPortal, on an account of their own, with
 *   two payment requests addressed to them and one on the same account addressed to someone
 *   else (which their home must not list).
 * - `adhoc`: a customer-style contact who pays an amount of their choice signed in, and
 *   `adhocbook`, a portal contact of the same account who reads the statement afterwards.
 * - `adhoclink`: the contact an ad-hoc link is emailed to (minted by the back-office API in
 *   the journey), on an account of their own.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";

export const CUSTOMER_STYLE_ROLES = ["home", "adhoc", "adhocbook", "adhoclink"] as const;
export type CustomerStyleRole = (typeof CUSTOMER_STYLE_ROLES)[number];

/** Roles that have accessCustomerPortal; the others are limited to customer-style routes. */
const PORTAL_ROLES: readonly CustomerStyleRole[] = ["adhocbook"];

/** Which role's account a role is joined to (adhocbook keeps the books of adhoc's account). */
const ACCOUNT_OF: Record<CustomerStyleRole, CustomerStyleRole> = {
  home: "home",
  adhoc: "adhoc",
  adhocbook: "adhoc",
  adhoclink: "adhoclink",
};

export const customerStyleEmail = (role: CustomerStyleRole, project: string) => `${role}-${project}@acme.test`;
export const customerStyleAccountNumber = (role: CustomerStyleRole, project: string) =>
  `E2E-${ACCOUNT_OF[role]}-${project}`.toUpperCase();
export const customerStyleAccountName = (role: CustomerStyleRole, project: string) =>
  `Test ${ACCOUNT_OF[role]} ${project}`;

/**
 * The home journey's invoices (issue 31; decision 073): one the contact may pay and one disputed on
 * their account, and one on the ad-hoc contact's account, which their home must not list.
 */
export const homeInvoiceNumber = (project: string, which: "payable" | "disputed" | "other") =>
  `INV-E2E${project === "js" ? "J" : "N"}${{ payable: "PAY", disputed: "DSP", other: "OTH" }[which]}`;

/** A customer-style contact of the second demo brand (Kiwi), for its screenshots of the home. */
export const kiwiHomeEmail = (project: string) => `home-${project}@kiwi.test`;
export const kiwiHomeRequestReference = (project: string) => `PR-E2EKIWI${project === "js" ? "J" : "N"}`;

/** The home journey's requests: two addressed to the contact, one on their account to someone else. */
export const homeRequestReference = (project: string, which: "open" | "paid" | "other") =>
  `PR-E2E${project === "js" ? "J" : "N"}${{ open: "OPN", paid: "PAD", other: "OTH" }[which]}`;

export async function seedCustomerStyleJourneys(
  db: Kysely<DB>,
  input: { businessId: string; passwordHash: string; projects: readonly string[] },
) {
  const { businessId, passwordHash } = input;
  for (const project of input.projects) {
    const accounts = new Map<string, string>();
    const contacts = new Map<CustomerStyleRole, string>();
    for (const role of CUSTOMER_STYLE_ROLES) {
      const number = customerStyleAccountNumber(role, project);
      let accountId = accounts.get(number);
      if (!accountId) {
        accountId = (
          await db
            .insertInto("accounts")
            .values({
              business_id: businessId,
              number,
              name: customerStyleAccountName(role, project),
              parent_account_id: null,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
        accounts.set(number, accountId);
      }
      const contact = await db
        .insertInto("contacts")
        .values({
          business_id: businessId,
          email: customerStyleEmail(role, project),
          first_name: "Casey",
          last_name: `${role} ${project}`,
          position: "Site Manager",
          verified_at: new Date(),
          permissions: PORTAL_ROLES.includes(role) ? ["accessCustomerPortal"] : [],
          password_hash: passwordHash,
          external_subject: null,
          disabled_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      contacts.set(role, contact.id);
      await db
        .insertInto("account_contacts")
        .values({ business_id: businessId, account_id: accountId, contact_id: contact.id, role: "contact" })
        .execute();
    }

    // The home's requests, on the home contact's own account.
    const homeAccount = accounts.get(customerStyleAccountNumber("home", project))!;
    const invoices = [
      { which: "payable", account: homeAccount, status: 1, balance: 31_897 },
      { which: "disputed", account: homeAccount, status: 6, balance: 20_000 },
      {
        which: "other",
        account: accounts.get(customerStyleAccountNumber("adhoc", project))!,
        status: 1,
        balance: 7_700,
      },
    ] as const;
    for (const invoice of invoices) {
      await db
        .insertInto("invoices")
        .values({
          business_id: businessId,
          account_id: invoice.account,
          number: homeInvoiceNumber(project, invoice.which),
          description: "Pipe fittings",
          issue_date: new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10),
          due_date: new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10),
          amount_cents: 50_000,
          balance_cents: invoice.balance,
          status: invoice.status,
        })
        .execute();
    }
    const requests = [
      { which: "open", amount: 42_000, paid: 0, status: "sent", to: contacts.get("home")! },
      { which: "paid", amount: 15_000, paid: 15_000, status: "paid", to: contacts.get("home")! },
      // Someone else's request on the same account: never on the home contact's page.
      { which: "other", amount: 9_900, paid: 0, status: "sent", to: contacts.get("adhocbook")! },
    ] as const;
    for (const request of requests) {
      const row = await db
        .insertInto("payment_requests")
        .values({
          business_id: businessId,
          account_id: homeAccount,
          reference: homeRequestReference(project, request.which),
          kind: "amount",
          description: `Site works (${request.which})`,
          currency: "AUD",
          amount_cents: request.amount,
          paid_cents: request.paid,
          due_date: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
          expires_at: new Date(Date.now() + 30 * 86_400_000),
          status: request.status,
          sent_at: new Date(),
          paid_at: request.status === "paid" ? new Date() : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("payment_request_recipients")
        .values({
          request_id: row.id,
          contact_id: request.to,
          business_id: businessId,
          email: "recipient@acme.test",
          send_count: 1,
          last_sent_at: new Date(),
        })
        .execute();
    }
  }
}

/**
 * Kiwi's customer-style contact (issue 31): one account of their own with an invoice to pay and
 * a payment request addressed to them, so the second brand's home has every kind of row.
 */
export async function seedKiwiCustomerStyleHome(
  db: Kysely<DB>,
  input: { businessId: string; passwordHash: string; projects: readonly string[] },
) {
  const { businessId, passwordHash } = input;
  for (const project of input.projects) {
    const account = await db
      .insertInto("accounts")
      .values({
        business_id: businessId,
        number: `E2E-KIWIHOME-${project}`.toUpperCase(),
        name: `Totara Landscapes ${project}`,
        parent_account_id: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const contact = await db
      .insertInto("contacts")
      .values({
        business_id: businessId,
        email: kiwiHomeEmail(project),
        first_name: "Mere",
        last_name: `Home ${project}`,
        position: "Owner",
        verified_at: new Date(),
        permissions: [],
        password_hash: passwordHash,
        external_subject: null,
        disabled_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("account_contacts")
      .values({ business_id: businessId, account_id: account.id, contact_id: contact.id, role: "contact" })
      .execute();
    await db
      .insertInto("invoices")
      .values({
        business_id: businessId,
        account_id: account.id,
        number: `INV-E2EKIWI${project === "js" ? "J" : "N"}`,
        description: "Freight to Nelson",
        issue_date: new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10),
        due_date: new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10),
        amount_cents: 131_897,
        balance_cents: 131_897,
        status: 1,
      })
      .execute();
    const request = await db
      .insertInto("payment_requests")
      .values({
        business_id: businessId,
        account_id: account.id,
        reference: kiwiHomeRequestReference(project),
        kind: "amount",
        description: "Pallet hire",
        currency: "NZD",
        amount_cents: 24_500,
        paid_cents: 0,
        due_date: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
        expires_at: new Date(Date.now() + 30 * 86_400_000),
        status: "sent",
        sent_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("payment_request_recipients")
      .values({
        request_id: request.id,
        contact_id: contact.id,
        business_id: businessId,
        email: kiwiHomeEmail(project),
        send_count: 1,
        last_sent_at: new Date(),
      })
      .execute();
  }
}
