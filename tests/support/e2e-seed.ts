/**
 * Prepares the end-to-end server's embedded database before remix-serve opens it:
 * migrations, the demo hosts, and contacts of the tests' own, one set per Playwright
 * project, so that journeys which change a login (password reset, lock-out) never share
 * one with a journey running in parallel.
 */
import path from "node:path";
import { openPglite } from "../../app/services/platform/db.server";
import { hashPassword } from "../../app/services/auth/password.server";
import { migrate } from "../../app/services/platform/migrate.server";
import { DEMO_PASSWORD, demoLedger, demoPublicBaseUrl, seedDemoData } from "../../db/seed/demo";
import { createHash, randomBytes } from "node:crypto";
import { E2E_PROJECTS, e2eEmail, e2eLinkToken, E2E_ROLES, LEDGER_ROLES, OWN_ACCOUNT_ROLES } from "./e2e-users";
import { seedCustomerStyleJourneys, seedKiwiCustomerStyleHome } from "./e2e-customer-style";
import { seedAgreementJourneys } from "./e2e-agreements";
import { seedScheduleJourneys } from "./e2e-schedules";
import { seedInstalmentJourneys } from "./e2e-instalments";
import { seedBrandJourneys } from "./e2e-brands";
import { seedCreditJourneys } from "./e2e-credit";
import { seedCommunicationJourneys } from "./e2e-communication";
import { seedResponseJourneys } from "./e2e-responses";

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error("DATA_DIR must be set");
const handle = await openPglite(path.join(path.resolve(dataDir), "pglite"));
try {
  await migrate(handle);
  await seedDemoData(handle.db);
  const db = handle.db;
  // Links in mail point at this server's port, as a real host's point at its public origin.
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error("PORT must be set");
  for (const host of await db.selectFrom("hosts").select("hostname").execute()) {
    await db
      .updateTable("hosts")
      .set({ public_base_url: demoPublicBaseUrl(host.hostname, port) })
      .where("hostname", "=", host.hostname)
      .execute();
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const host of ["acme.localhost", "kiwi.localhost"]) {
    const business = await db
      .selectFrom("hosts")
      .select("business_id")
      .where("hostname", "=", host)
      .executeTakeFirstOrThrow();
    const account = await db
      .selectFrom("accounts")
      .select("id")
      .where("business_id", "=", business.business_id)
      .where("parent_account_id", "is", null)
      .orderBy("number")
      .executeTakeFirstOrThrow();
    for (const project of E2E_PROJECTS) {
      for (const role of E2E_ROLES) {
        const contact = await db
          .insertInto("contacts")
          .values({
            business_id: business.business_id,
            email: e2eEmail(role, project, host),
            first_name: "Test",
            last_name: `${role} ${project}`,
            position: "Tester",
            verified_at: role === "unverified" ? null : new Date(),
            permissions: ["accessCustomerPortal"],
            password_hash: passwordHash,
            external_subject: null,
            disabled_at: null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        // An "orphan" has a login but no account: the 'Accounts not found' journey.
        if (role === "orphan") continue;
        const own = OWN_ACCOUNT_ROLES.includes(role)
          ? await db
              .insertInto("accounts")
              .values({
                business_id: business.business_id,
                number: `E2E-${role}-${project}`.toUpperCase(),
                name: `Test ${role} ${project}`,
                parent_account_id: null,
              })
              .returning("id")
              .executeTakeFirstOrThrow()
          : account;
        await db
          .insertInto("account_contacts")
          .values({ business_id: business.business_id, account_id: own.id, contact_id: contact.id, role: "contact" })
          .execute();
        if (LEDGER_ROLES.includes(role)) {
          const { invoices } = demoLedger(`E2E-${role}-${project}`.toUpperCase(), new Date());
          await db
            .insertInto("invoices")
            .values(invoices.map((invoice) => ({ ...invoice, business_id: business.business_id, account_id: own.id })))
            .execute();
        }
        if (role === "savedcard") {
          // The saved-card journey's Visa, the account's default: its bank pays (sandbox "approve").
          const token = `tok_sbx_e2e_${randomBytes(12).toString("hex")}`;
          const expiryYear = new Date().getUTCFullYear() + 2;
          await db
            .insertInto("sandbox_gateway_tokens")
            .values({
              token,
              brand: "visa",
              last4: "4242",
              expiry_month: 11,
              expiry_year: expiryYear,
              outcome: "approve",
            })
            .execute();
          await db
            .insertInto("cards")
            .values({
              business_id: business.business_id,
              account_id: own.id,
              gateway: "sandbox",
              gateway_token: token,
              brand: "visa",
              first_digit: "4",
              last4: "4242",
              expiry_month: 11,
              expiry_year: expiryYear,
              holder_name: "Test savedcard",
              is_default: true,
              authority_reference: "E2E-SEED",
              consented_at: new Date(),
              consented_by: contact.id,
            })
            .execute();
        }
        if (role === "linkpayer" && host === "acme.localhost") {
          // The link journeys' fixed links: an expired request's, and one open invoice's (a Promise, INV-022).
          const expired = await db
            .insertInto("payment_requests")
            .values({
              business_id: business.business_id,
              account_id: own.id,
              reference: `PR-E2EX${project === "js" ? "J" : "N"}00`,
              kind: "amount",
              description: "Expired e2e request",
              currency: "AUD",
              amount_cents: 5_000,
              expires_at: new Date(Date.now() - 86_400_000),
              status: "sent",
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          const invoice = await db
            .selectFrom("invoices")
            .select("id")
            .where("account_id", "=", own.id)
            .where("number", "like", "%-INV-022")
            .executeTakeFirstOrThrow();
          for (const [kind, subjectId, purpose, expiresAt] of [
            ["expired", expired.id, "payment-request", new Date(Date.now() - 86_400_000)],
            ["invoice", invoice.id, "invoice", new Date(Date.now() + 30 * 86_400_000)],
          ] as const) {
            const token = e2eLinkToken(kind, project);
            await db
              .insertInto("link_tokens")
              .values({
                business_id: business.business_id,
                purpose,
                subject_id: subjectId,
                contact_id: contact.id,
                selector: token.slice(0, 16),
                verifier_hash: createHash("sha256").update(token.slice(16)).digest("hex"),
                expires_at: expiresAt,
              })
              .execute();
          }
        }
      }
    }
  }
  // Customer-style contacts and ad-hoc payers (issue 14), on acme.
  const acme = await db
    .selectFrom("hosts")
    .select("business_id")
    .where("hostname", "=", "acme.localhost")
    .executeTakeFirstOrThrow();
  await seedCustomerStyleJourneys(db, { businessId: acme.business_id, passwordHash, projects: E2E_PROJECTS });
  await seedAgreementJourneys(db, { businessId: acme.business_id, passwordHash, projects: E2E_PROJECTS });
  await seedScheduleJourneys(db, { businessId: acme.business_id, passwordHash, projects: E2E_PROJECTS });
  await seedInstalmentJourneys(db, { businessId: acme.business_id, passwordHash, projects: E2E_PROJECTS });
  await seedBrandJourneys(db, { passwordHash, projects: E2E_PROJECTS, port });
  // Credit applications with trade referees (issue 17), on acme and kiwi.
  const kiwi = await db
    .selectFrom("hosts")
    .select("business_id")
    .where("hostname", "=", "kiwi.localhost")
    .executeTakeFirstOrThrow();
  await seedCreditJourneys(db, {
    businesses: { acme: acme.business_id, kiwi: kiwi.business_id },
    projects: E2E_PROJECTS,
  });
  await seedKiwiCustomerStyleHome(db, { businessId: kiwi.business_id, passwordHash, projects: E2E_PROJECTS });
  await seedCommunicationJourneys(db, { businessId: acme.business_id, passwordHash, projects: E2E_PROJECTS });
  await seedResponseJourneys(db, { businessId: acme.business_id, projects: E2E_PROJECTS });
} finally {
  await handle.close();
}
