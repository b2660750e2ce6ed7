/**
 * The branding journeys' own businesses (issue 16), made by e2e-seed.ts: publishing changes
 * what every page of a host looks like, so each Playwright project gets a host of its own
 * and journey (`brand-journey-js.localhost`, …) and no other journey ever sees its brand move.
 * Each has two host admins (the second opens a shared preview link) and a customer, all on one
 * account with the demo ledger, so the previewed dashboard, invoices and pay pages have data.
 */
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";
import { demoLedger, demoPublicBaseUrl } from "../../db/seed/demo";

export const BRAND_ROLES = ["admin", "admin2", "customer"] as const;
export type BrandRole = (typeof BRAND_ROLES)[number];

/**
 * One business for the publish journey, one for the bad-input checks, one for the emails journey
 * (branding-emails.spec.ts, which publishes and sends a request), one for a draft made before the page's
 * script has run: they run in parallel.
 */
export const BRAND_SLOTS = ["journey", "guard", "emails", "early"] as const;
export type BrandSlot = (typeof BRAND_SLOTS)[number];

export const brandHost = (slot: BrandSlot, project: string) => `brand-${slot}-${project}.localhost`;
export const brandEmail = (role: BrandRole, slot: BrandSlot, project: string) =>
  `${role}-${slot}-${project}@brand.test`;
export const brandBusinessName = (slot: BrandSlot, project: string) => `Brand ${slot} ${project}`;

/**
 * The slot's back-office API key (payment requests only), made from its name: `pk_` and 43
 * base64url characters, as real keys are. A test business's key, never a real one.
 */
export const brandApiKey = (slot: BrandSlot, project: string) =>
  `pk_${createHash("sha256").update(`e2e brand ${slot} ${project}`).digest("base64url")}`;

const PERMISSIONS: Record<BrandRole, string[]> = {
  admin: ["accessCustomerPortal", "hostAdmin"],
  admin2: ["accessCustomerPortal", "hostAdmin"],
  customer: ["accessCustomerPortal"],
};

export async function seedBrandJourneys(
  db: Kysely<DB>,
  input: { passwordHash: string; projects: readonly string[]; port: number },
) {
  for (const project of input.projects) {
    for (const slot of BRAND_SLOTS) {
      const business = await db
        .insertInto("businesses")
        .values({
          name: brandBusinessName(slot, project),
          label: "Trade accounts",
          country: "AU",
          currency: "AUD",
          time_zone: "Australia/Sydney",
          theme: "navy-blue",
          logo_directory: "/brands/acme",
          support_email: `accounts-${slot}-${project}@brand.test`,
          support_phone: "1300 000 000",
          privacy_policy: "# Privacy policy\n\nTest business.",
          terms_and_conditions: "# Terms\n\nTest business.",
          auth_provider: "credentials",
          auth0_domain: null,
          auth0_client_id: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const hostname = brandHost(slot, project);
      await db
        .insertInto("hosts")
        .values({ hostname, business_id: business.id, public_base_url: demoPublicBaseUrl(hostname, input.port) })
        .execute();
      const key = brandApiKey(slot, project);
      await db
        .insertInto("api_keys")
        .values({
          business_id: business.id,
          name: "E2E brand key",
          key_prefix: key.slice(0, 12),
          key_hash: createHash("sha256").update(key).digest("hex"),
          scopes: ["payment-requests:read", "payment-requests:write"],
        })
        .execute();
      const number = `E2E-BRAND-${slot}-${project}`.toUpperCase();
      const account = await db
        .insertInto("accounts")
        .values({ business_id: business.id, number, name: `Brand test ${project}`, parent_account_id: null })
        .returning("id")
        .executeTakeFirstOrThrow();
      const { invoices } = demoLedger(number, new Date());
      await db
        .insertInto("invoices")
        .values(invoices.map((invoice) => ({ ...invoice, business_id: business.id, account_id: account.id })))
        .execute();
      for (const role of BRAND_ROLES) {
        const contact = await db
          .insertInto("contacts")
          .values({
            business_id: business.id,
            email: brandEmail(role, slot, project),
            first_name: role === "customer" ? "Casey" : "Alex",
            last_name: `${role} ${project}`,
            position: role === "customer" ? "Accounts" : "Administrator",
            verified_at: new Date(),
            permissions: PERMISSIONS[role],
            password_hash: input.passwordHash,
            external_subject: null,
            disabled_at: null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await db
          .insertInto("account_contacts")
          .values({ business_id: business.id, account_id: account.id, contact_id: contact.id, role: "contact" })
          .execute();
      }
    }
  }
}
