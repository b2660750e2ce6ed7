import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";
import { now as clockNow } from "../../app/services/platform/clock.server";
import { addDaysTo, todayIn } from "../../app/lib/dates";
import { hashPassword } from "../../app/services/auth/password.server";
import { seedDemoAgreements } from "./agreements";
import { seedDemoResponses } from "./responses";
import { seedPaymentSchedules } from "./schedules";
import { seedDemoCreditApplication } from "./credit";

/** Every demo contact who signs in with a password uses this one (README). */
export const DEMO_PASSWORD = "Portal!2026";

/**
 * Demo data: two brands on two *.localhost hosts, each with a parent account and its
 * children, a stand-alone account, and contacts who do and do not have portal access.
 * Idempotent: a business whose host already exists is left alone.
 */
type DemoContact = {
  email: string;
  firstName: string;
  lastName: string;
  position: string;
  verified: boolean;
  permissions: string[];
  accounts: string[]; // account numbers
  /** Signs in only through the business's identity provider. */
  passwordless?: boolean;
};

/** A card saved earlier through the sandbox gateway: public facts only, never a number. */
type DemoCard = {
  brand: "visa" | "mastercard" | "amex";
  firstDigit: string;
  last4: string;
  month: number;
  yearsAhead: number;
  holder: string;
  isDefault?: boolean;
};
type DemoBank = { accountName: string; routing: string; accountNumber: string; description: string };

type DemoAccount = {
  number: string;
  name: string;
  parent?: string;
  address: string;
  terms: number;
  cards?: DemoCard[];
  banks?: DemoBank[];
};

type DemoBusiness = {
  authProvider?: "credentials" | "auth0";
  auth0?: { domain: string; clientId: string };
  hostnames: string[];
  name: string;
  label: string;
  country: "AU" | "NZ";
  currency: string;
  timeZone: string;
  theme: DB["businesses"]["theme"]["__select__"];
  logoDirectory: string;
  supportEmail: string;
  supportPhone: string;
  privacyPolicy: string;
  terms: string;
  configs: Record<string, string>;
  /** Card surcharge by brand (basis points + fixed cents), late fee, early-payment discount. */
  fees?: {
    surcharge: Record<string, { bps: number; fixedCents: number }>;
    lateFee?: { bps: number; fixedCents: number };
    earlyDiscount?: { bps: number; days: number };
  };
  /** PayTo (decision 027): offered or not, the most one payment may take, receivable PayIDs' domain. */
  payTo?: { enabled: boolean; maxPaymentCents: number; payIdDomain: string | null };
  /** Ad-hoc payments (issue 14): taken or not, between which amounts. No entry: not taken. */
  adhoc?: { enabled: boolean; minCents: number; maxCents: number };
  /** Payment requests in every state (issue 14), for the README's walk-through. */
  paymentRequests?: boolean;
  uiSettings: Record<string, boolean>;
  toggles: { name: string; enabled: boolean; configurationValue: unknown }[];
  accounts: DemoAccount[];
  contacts: DemoContact[];
};

export const DEMO_BUSINESSES: DemoBusiness[] = [
  {
    hostnames: ["acme.localhost"],
    name: "Acme Plumbing Supplies",
    label: "Acme Trade Accounts",
    country: "AU",
    currency: "AUD",
    timeZone: "Australia/Sydney",
    theme: "navy-blue",
    logoDirectory: "/brands/acme",
    supportEmail: "accounts@acme.example",
    supportPhone: "1300 226 300",
    privacyPolicy: `# Privacy policy

Acme Plumbing Supplies Pty Ltd collects the details you give us when you open a trade account, so that we can supply goods on credit and collect payment.

## What we keep
- Your name, email address and position in your business.
- The accounts you may see, and the payments you make.
- A token from our card gateway instead of your card number. We never store a card number or security code.

## Who we share it with
Only our card gateway and your bank, to process the payments you ask us to make.

Questions? Write to accounts@acme.example.`,
    terms: `# Terms and conditions

These terms apply to every Acme trade account.

## Payment
Invoices are due within 30 days of issue. Card payments may carry a surcharge, always shown before you pay.

## Disputes
Tell us about a disputed invoice within 14 days of its issue date.`,
    configs: { PaymentTermsDays: "30" },
    fees: {
      surcharge: {
        visa: { bps: 120, fixedCents: 0 },
        mastercard: { bps: 120, fixedCents: 0 },
        amex: { bps: 250, fixedCents: 0 },
        default: { bps: 150, fixedCents: 0 },
      },
      lateFee: { bps: 200, fixedCents: 500 },
      earlyDiscount: { bps: 100, days: 10 },
    },
    payTo: { enabled: true, maxPaymentCents: 1_000_000, payIdDomain: "pay.acme.example" },
    adhoc: { enabled: true, minCents: 10_00, maxCents: 5_000_00 },
    paymentRequests: true,
    uiSettings: { ChildAccountTicked: true },
    toggles: [
      { name: "Language", enabled: false, configurationValue: {} },
      { name: "ProductFruit", enabled: false, configurationValue: { workspaceCode: "" } },
    ],
    accounts: [
      {
        number: "ACME-1000",
        name: "Coastal Builders Group",
        address: "12 Wharf St, Sydney NSW 2000",
        terms: 30,
        cards: [
          {
            brand: "visa",
            firstDigit: "4",
            last4: "1111",
            month: 8,
            yearsAhead: 2,
            holder: "Olivia Nguyen",
            isDefault: true,
          },
          // Expired: the list marks it and asks for an update.
          {
            brand: "mastercard",
            firstDigit: "5",
            last4: "4444",
            month: 1,
            yearsAhead: -1,
            holder: "Coastal Builders Group",
          },
        ],
        banks: [
          {
            accountName: "Coastal Builders Group",
            routing: "062000",
            accountNumber: "10203040",
            description: "Operating account",
          },
        ],
      },
      {
        number: "ACME-1001",
        name: "Coastal Builders – Newcastle",
        parent: "ACME-1000",
        address: "4 Hunter St, Newcastle NSW 2300",
        terms: 30,
      },
      {
        number: "ACME-1002",
        name: "Coastal Builders – Wollongong",
        parent: "ACME-1000",
        address: "88 Crown St, Wollongong NSW 2500",
        terms: 30,
      },
      { number: "ACME-2000", name: "Hillside Renovations", address: "3 Ridge Rd, Katoomba NSW 2780", terms: 14 },
    ],
    contacts: [
      {
        email: "olivia@coastal.example",
        firstName: "Olivia",
        lastName: "Nguyen",
        position: "Accounts Payable",
        verified: true,
        permissions: ["accessCustomerPortal"],
        accounts: ["ACME-1000", "ACME-2000"],
      },
      {
        email: "sam@coastal.example",
        firstName: "Sam",
        lastName: "Taylor",
        position: "Site Manager",
        verified: true,
        permissions: [],
        accounts: ["ACME-1001"],
      },
      {
        email: "new@coastal.example",
        firstName: "Noah",
        lastName: "Patel",
        position: "Bookkeeper",
        verified: false,
        permissions: ["accessCustomerPortal"],
        accounts: ["ACME-1000"],
      },
      {
        // The host admin (issue 16): edits, previews and publishes Acme's brand at /admin/branding.
        email: "admin@acme.example",
        firstName: "Ada",
        lastName: "Admin",
        position: "Marketing",
        verified: true,
        permissions: ["accessCustomerPortal", "hostAdmin"],
        accounts: ["ACME-2000"],
      },
    ],
  },
  {
    hostnames: ["kiwi.localhost"],
    name: "Kiwi Freight Co.",
    label: "Kiwi Freight customer portal",
    country: "NZ",
    currency: "NZD",
    timeZone: "Pacific/Auckland",
    theme: "english-holly",
    logoDirectory: "/brands/kiwi",
    supportEmail: "billing@kiwifreight.example",
    supportPhone: "0800 547 494",
    privacyPolicy: `# Privacy statement

Kiwi Freight Co. Limited follows the New Zealand Privacy Act 2020.

## What we collect
We collect the contact and payment details needed to invoice your freight and take your payments.

## Your rights
You may ask to see or correct the personal information we hold about you by writing to billing@kiwifreight.example.`,
    terms: `# Customer terms

## Invoices
Freight invoices are due on the 20th of the month after they are issued.

## Payment methods
Pay by card or by PayTo bank agreement. Card payments carry a 1.5% surcharge.`,
    configs: { PaymentTermsDays: "20" },
    fees: { surcharge: { default: { bps: 150, fixedCents: 0 } } },
    uiSettings: { ChildAccountTicked: false },
    toggles: [
      { name: "Language", enabled: true, configurationValue: {} },
      { name: "ProductFruit", enabled: false, configurationValue: { workspaceCode: "" } },
    ],
    accounts: [
      {
        number: "KF-500",
        name: "Southern Orchards Ltd",
        address: "21 Orchard Rd, Hastings 4120",
        terms: 20,
        cards: [
          {
            brand: "visa",
            firstDigit: "4",
            last4: "4242",
            month: 11,
            yearsAhead: 3,
            holder: "Aroha Williams",
            isDefault: true,
          },
        ],
        banks: [
          {
            accountName: "Southern Orchards Ltd",
            routing: "01-0242",
            accountNumber: "0100194-00",
            description: "Main account",
          },
        ],
      },
      {
        number: "KF-501",
        name: "Southern Orchards – Packhouse",
        parent: "KF-500",
        address: "2 Packhouse Lane, Hastings 4120",
        terms: 20,
      },
      { number: "KF-700", name: "Tasman Timber", address: "9 Quay St, Nelson 7010", terms: 20 },
    ],
    contacts: [
      {
        email: "aroha@orchards.example",
        firstName: "Aroha",
        lastName: "Williams",
        position: "Finance Manager",
        verified: true,
        permissions: ["accessCustomerPortal"],
        accounts: ["KF-500"],
      },
      {
        email: "liam@tasman.example",
        firstName: "Liam",
        lastName: "Brown",
        position: "Owner",
        verified: true,
        permissions: ["accessCustomerPortal"],
        accounts: ["KF-700"],
      },
      {
        email: "admin@kiwi.example",
        firstName: "Kiri",
        lastName: "Admin",
        position: "Marketing",
        verified: true,
        permissions: ["accessCustomerPortal", "hostAdmin"],
        accounts: ["KF-700"],
      },
    ],
  },
  {
    // Signs in through Auth0. Locally, the stand-in provider (npm run idp:standin) plays Auth0.
    hostnames: ["harbour.localhost"],
    name: "Harbour Energy",
    label: "Harbour Energy billing",
    country: "AU",
    currency: "AUD",
    timeZone: "Australia/Brisbane",
    theme: "electric-violet",
    logoDirectory: "/brands/harbour",
    supportEmail: "billing@harbour.example",
    supportPhone: "07 3000 1234",
    authProvider: "auth0",
    auth0: { domain: process.env.DEMO_AUTH0_DOMAIN ?? "127.0.0.1:4311", clientId: "harbour-portal" },
    privacyPolicy: `# Privacy policy

Harbour Energy Pty Ltd uses your sign-in provider's account to identify you, and keeps only your name, email address and the accounts you may see.`,
    terms: `# Terms of service

Energy bills are due 14 days after they are issued.`,
    configs: { PaymentTermsDays: "14" },
    adhoc: { enabled: false, minCents: 10_00, maxCents: 1_000_00 },
    uiSettings: { ChildAccountTicked: true },
    toggles: [
      { name: "Language", enabled: false, configurationValue: {} },
      { name: "ProductFruit", enabled: false, configurationValue: { workspaceCode: "" } },
    ],
    accounts: [{ number: "HE-9000", name: "Bayside Cafe", address: "1 Esplanade, Manly QLD 4179", terms: 14 }],
    contacts: [
      {
        email: "mia@harbour.example",
        firstName: "Mia",
        lastName: "Chen",
        position: "Owner",
        verified: true,
        permissions: ["accessCustomerPortal"],
        accounts: ["HE-9000"],
        passwordless: true,
      },
      {
        email: "tamper@harbour.example",
        firstName: "Tam",
        lastName: "Per",
        position: "Owner",
        verified: true,
        permissions: ["accessCustomerPortal"],
        accounts: ["HE-9000"],
        passwordless: true,
      },
      {
        // Signs in through the stand-in provider like every Harbour contact (tests/support/oidc-standin-demo.ts).
        email: "admin@harbour.example",
        firstName: "Hana",
        lastName: "Admin",
        position: "Marketing",
        verified: true,
        permissions: ["accessCustomerPortal", "hostAdmin"],
        accounts: ["HE-9000"],
        passwordless: true,
      },
    ],
  },
];

/**
 * Links in the demo hosts' emails: `npm start` serves http on port 3000 (a real host's base
 * URL is https on its own name, set by whoever adds the host). The e2e seed moves them to
 * its own port.
 */
export const DEMO_PUBLIC_PORT = 3000;
export function demoPublicBaseUrl(hostname: string, port = DEMO_PUBLIC_PORT, scheme: "http" | "https" = "http") {
  return `${scheme}://${hostname}:${port}`;
}

/** Inserts the demo businesses that are not there yet; returns the hostnames it created. */
export async function seedDemoData(db: Kysely<DB>, options: { onlyIfEmpty?: boolean } = {}) {
  if (options.onlyIfEmpty) {
    const existing = await db.selectFrom("businesses").select("id").limit(1).executeTakeFirst();
    if (existing) return [];
  }
  const created: string[] = [];
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const demo of DEMO_BUSINESSES) {
    const known = await db
      .selectFrom("hosts")
      .select("hostname")
      .where("hostname", "in", demo.hostnames)
      .executeTakeFirst();
    if (known) continue;
    await db.transaction().execute(async (tx) => {
      const business = await tx
        .insertInto("businesses")
        .values({
          name: demo.name,
          label: demo.label,
          country: demo.country,
          currency: demo.currency,
          time_zone: demo.timeZone,
          theme: demo.theme,
          logo_directory: demo.logoDirectory,
          support_email: demo.supportEmail,
          support_phone: demo.supportPhone,
          privacy_policy: demo.privacyPolicy,
          terms_and_conditions: demo.terms,
          auth_provider: demo.authProvider ?? "credentials",
          auth0_domain: demo.auth0?.domain ?? null,
          auth0_client_id: demo.auth0?.clientId ?? null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const businessId = business.id;
      await tx
        .insertInto("hosts")
        .values(
          demo.hostnames.map((hostname) => ({
            hostname,
            business_id: businessId,
            public_base_url: demoPublicBaseUrl(hostname),
          })),
        )
        .execute();
      const configs = Object.entries(demo.configs);
      if (configs.length) {
        await tx
          .insertInto("business_configs")
          .values(configs.map(([name, value]) => ({ business_id: businessId, name, value })))
          .execute();
      }
      await tx
        .insertInto("ui_settings")
        .values(
          Object.entries(demo.uiSettings).map(([item_name, is_visible]) => ({
            business_id: businessId,
            item_name,
            is_visible,
          })),
        )
        .execute();
      await tx
        .insertInto("feature_toggles")
        .values(
          demo.toggles.map((toggle) => ({
            business_id: businessId,
            account_id: null,
            name: toggle.name,
            enabled: toggle.enabled,
            configuration_value: JSON.stringify(toggle.configurationValue),
          })),
        )
        .execute();

      const accountIds = new Map<string, string>();
      // Parents first, so children can point at them.
      const ordered = [...demo.accounts].sort((a, b) => Number(Boolean(a.parent)) - Number(Boolean(b.parent)));
      for (const account of ordered) {
        const row = await tx
          .insertInto("accounts")
          .values({
            business_id: businessId,
            number: account.number,
            name: account.name,
            address: account.address,
            payment_terms_days: account.terms,
            parent_account_id: account.parent ? (accountIds.get(account.parent) ?? null) : null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        accountIds.set(account.number, row.id);
      }

      // Invoices in every status, and the statement lines they and their payments make.
      for (const account of demo.accounts) {
        const accountId = accountIds.get(account.number)!;
        const { invoices, lines } = demoLedger(account.number, clockNow(), demo.timeZone);
        const inserted = invoices.length
          ? await tx
              .insertInto("invoices")
              .values(invoices.map((inv) => ({ ...inv, business_id: businessId, account_id: accountId })))
              .returning(["id", "number"])
              .execute()
          : [];
        const invoiceIds = new Map(inserted.map((r) => [r.number, r.id]));
        if (lines.length) {
          await tx
            .insertInto("statement_lines")
            .values(
              lines.map(({ invoiceNumber, ...line }) => ({
                ...line,
                business_id: businessId,
                account_id: accountId,
                invoice_id: invoiceNumber ? (invoiceIds.get(invoiceNumber) ?? null) : null,
              })),
            )
            .execute();
        }
      }

      const contactIds = new Map<string, string>();
      for (const contact of demo.contacts) {
        const row = await tx
          .insertInto("contacts")
          .values({
            business_id: businessId,
            email: contact.email,
            first_name: contact.firstName,
            last_name: contact.lastName,
            position: contact.position,
            verified_at: contact.verified ? clockNow() : null,
            permissions: contact.permissions,
            password_hash: contact.passwordless ? null : passwordHash,
            external_subject: null,
            disabled_at: null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        contactIds.set(contact.email, row.id);
        for (const number of contact.accounts) {
          const accountId = accountIds.get(number);
          if (!accountId) throw new Error(`Demo contact ${contact.email} names unknown account ${number}`);
          await tx
            .insertInto("account_contacts")
            .values({ business_id: businessId, account_id: accountId, contact_id: row.id, role: "owner" })
            .execute();
        }
      }
      await seedPaymentMethods(tx, businessId, demo, accountIds);
      if (demo.fees) {
        await tx
          .insertInto("fee_rules")
          .values({
            business_id: businessId,
            surcharge: JSON.stringify(demo.fees.surcharge),
            late_fee_bps: demo.fees.lateFee?.bps ?? 0,
            late_fee_fixed_cents: demo.fees.lateFee?.fixedCents ?? 0,
            early_discount_bps: demo.fees.earlyDiscount?.bps ?? 0,
            early_discount_days: demo.fees.earlyDiscount?.days ?? 0,
          })
          .execute();
      }
      if (demo.payTo) {
        await tx
          .insertInto("payto_settings")
          .values({
            business_id: businessId,
            enabled: demo.payTo.enabled,
            max_payment_cents: demo.payTo.maxPaymentCents,
            payid_domain: demo.payTo.payIdDomain,
          })
          .execute();
      }
      await seedBackOffice(tx, businessId, demo, accountIds, contactIds);
      await seedDemoAgreements(tx, businessId, demo.hostnames[0]!, accountIds, contactIds);
      await seedDemoCreditApplication(tx, businessId, demo.hostnames[0]!);
      await seedDemoResponses(tx, businessId, demo.hostnames[0]!, accountIds, contactIds);
    });
    created.push(...demo.hostnames);
  }
  return created;
}

/** The demo accounts' saved cards (with their sandbox-gateway tokens) and bank accounts. */
async function seedPaymentMethods(
  tx: Kysely<DB>,
  businessId: string,
  demo: DemoBusiness,
  accountIds: Map<string, string>,
) {
  const thisYear = clockNow().getUTCFullYear();
  for (const account of demo.accounts) {
    const accountId = accountIds.get(account.number)!;
    for (const card of account.cards ?? []) {
      const token = `tok_sbx_demo_${randomBytes(12).toString("hex")}`;
      const expiryYear = thisYear + card.yearsAhead;
      await tx
        .insertInto("sandbox_gateway_tokens")
        .values({
          token,
          brand: card.brand,
          last4: card.last4,
          expiry_month: card.month,
          expiry_year: expiryYear,
          outcome: "approve",
        })
        .execute();
      await tx
        .insertInto("cards")
        .values({
          business_id: businessId,
          account_id: accountId,
          gateway: "sandbox",
          gateway_token: token,
          brand: card.brand,
          first_digit: card.firstDigit,
          last4: card.last4,
          expiry_month: card.month,
          expiry_year: expiryYear,
          holder_name: card.holder,
          is_default: card.isDefault === true,
          authority_reference: "DEMO-SEED",
          consented_at: clockNow(),
          consented_by: null,
        })
        .execute();
    }
    for (const bank of account.banks ?? []) {
      await tx
        .insertInto("bank_accounts")
        .values({
          business_id: businessId,
          account_id: accountId,
          country: demo.country,
          account_name: bank.accountName,
          routing: bank.routing,
          account_number: bank.accountNumber,
          description: bank.description,
          authority_reference: "DEMO-SEED",
          consented_at: clockNow(),
          consented_by: null,
        })
        .execute();
    }
  }
}

/**
 * DEMO ONLY: each demo business's back-office API key, with every scope (README "Back-office
 * API"). Fixed so that the README's examples work right after `npm start`; a real key is made
 * with `npm run portal -- apikey create` and shown once. Never seed these into a real database.
 */
export const DEMO_API_KEYS: Record<string, string> = {
  "acme.localhost": "pk_DEMO-acme-backoffice-key-not-for-real-use-0",
  "kiwi.localhost": "pk_DEMO-kiwi-backoffice-key-not-for-real-use-0",
  "harbour.localhost": "pk_DEMO-harbour-backoffice-key-not-for-real-00",
};

/**
 * DEMO ONLY: the link of acme's seeded "sent" request (PR-DEMO0001), so a developer can open it
 * right after `npm start`: http://acme.localhost:3000/customer/payment-request/<this>. Stored
 * like every link, as a selector and the SHA-256 of the verifier.
 */
export const DEMO_REQUEST_TOKEN = "DemoAcmeRequest1DEMO-ONLY-open-this-payment-request-locally";
export const DEMO_REQUEST_REFERENCE = "PR-DEMO0001";

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");
const DEMO_SCOPES = [
  "payment-requests:read",
  "payment-requests:write",
  "adhoc:write",
  "invoice-links:read",
  "invoice-links:write",
  "agreements:read",
  "agreements:write",
  "schedules:read",
  "schedules:write",
  "contacts:read",
  "contacts:write",
  "credit:read",
  "credit:write",
  "communication:read",
  "communication:write",
  "responses:read",
  "responses:write",
];

/** The back-office side: API key, ad-hoc settings and (acme) payment requests in every state. */
async function seedBackOffice(
  tx: Kysely<DB>,
  businessId: string,
  demo: DemoBusiness,
  accountIds: Map<string, string>,
  contactIds: Map<string, string>,
) {
  const key = DEMO_API_KEYS[demo.hostnames[0]!];
  if (key) {
    await tx
      .insertInto("api_keys")
      .values({
        business_id: businessId,
        name: "Demo key (demo only)",
        key_prefix: key.slice(0, 12),
        key_hash: sha256Hex(key),
        scopes: DEMO_SCOPES,
      })
      .execute();
  }
  if (demo.adhoc) {
    await tx
      .insertInto("adhoc_settings")
      .values({
        business_id: businessId,
        enabled: demo.adhoc.enabled,
        min_cents: demo.adhoc.minCents,
        max_cents: demo.adhoc.maxCents,
      })
      .execute();
  }
  if (demo.paymentRequests) await seedPaymentRequests(tx, businessId, demo, accountIds, contactIds);
  if (demo.paymentRequests) await seedPaymentSchedules(tx, businessId, demo, accountIds, contactIds);
}

/**
 * Seven requests, one per state (created, sent, opened, part-paid, paid, expired, cancelled).
 * The part-paid and paid ones ask for invoices the demo ledger shows part-paid and paid, so the
 * figures agree with the statement; nothing here changes a balance or a statement line.
 */
async function seedPaymentRequests(
  tx: Kysely<DB>,
  businessId: string,
  demo: DemoBusiness,
  accountIds: Map<string, string>,
  contactIds: Map<string, string>,
) {
  const now = clockNow().getTime();
  const at = (days: number) => new Date(now + days * 86_400_000);
  const olivia = contactIds.get("olivia@coastal.example")!;
  const sam = contactIds.get("sam@coastal.example")!;
  const invoice = async (number: string) => {
    const row = await tx
      .selectFrom("invoices")
      .select(["id", "amount_cents", "balance_cents", "due_date", "issue_date"])
      .where("business_id", "=", businessId)
      .where("number", "=", number)
      .executeTakeFirstOrThrow();
    return row;
  };
  type Seeded = {
    reference: string;
    account: string;
    contact: string;
    email: string;
    invoices?: string[];
    amount?: { cents: number; description: string; dueDate: string };
    description?: string;
    partPayment?: number | true;
    createdAt: Date;
    expiresAt: Date;
    status: "created" | "sent" | "paid" | "cancelled";
    paidCents?: number;
    paidAt?: Date;
    openedAt?: Date;
    cancelledAt?: Date;
    token?: string;
  };
  const inv = {
    open23: await invoice("ACME-1000-INV-023"),
    open24: await invoice("ACME-1000-INV-024"),
    partPaid19: await invoice("ACME-1000-INV-019"),
    paid16: await invoice("ACME-1000-INV-016"),
    broken18: await invoice("ACME-1001-INV-018"),
    promise22: await invoice("ACME-2000-INV-022"),
  };
  const paidLine = await tx
    .selectFrom("statement_lines")
    .select("line_date")
    .where("business_id", "=", businessId)
    .where("reference", "=", "PAY-ACME-1000-INV-016")
    .executeTakeFirstOrThrow();
  const dayOf = (date: string, hours = 10) => new Date(`${date}T${String(hours).padStart(2, "0")}:00:00Z`);
  const requests: Seeded[] = [
    {
      reference: "PR-DEMO0000",
      account: "ACME-2000",
      contact: olivia,
      email: "olivia@coastal.example",
      invoices: ["ACME-2000-INV-023"],
      createdAt: at(-0.05),
      expiresAt: at(14),
      status: "created",
    },
    {
      reference: DEMO_REQUEST_REFERENCE,
      account: "ACME-1000",
      contact: olivia,
      email: "olivia@coastal.example",
      invoices: ["ACME-1000-INV-023", "ACME-1000-INV-024"],
      description: "Your two open invoices, with part payments welcome.",
      partPayment: 50_00,
      createdAt: at(-2),
      expiresAt: at(12),
      status: "sent",
      token: DEMO_REQUEST_TOKEN,
    },
    {
      reference: "PR-DEMO0002",
      account: "ACME-1000",
      contact: olivia,
      email: "olivia@coastal.example",
      amount: {
        cents: 1_250_00,
        description: "Deposit for the Newcastle site order (quote Q-2291)",
        dueDate: addDaysTo(todayIn(demo.timeZone, clockNow()), 10),
      },
      createdAt: at(-5),
      expiresAt: at(9),
      status: "sent",
      openedAt: at(-4),
    },
    {
      reference: "PR-DEMO0003",
      account: "ACME-1000",
      contact: olivia,
      email: "olivia@coastal.example",
      invoices: ["ACME-1000-INV-019"],
      partPayment: true,
      createdAt: at(-75),
      expiresAt: at(14),
      status: "sent",
      openedAt: at(-74),
      paidCents: inv.partPaid19.amount_cents - inv.partPaid19.balance_cents,
    },
    {
      reference: "PR-DEMO0004",
      account: "ACME-1000",
      contact: olivia,
      email: "olivia@coastal.example",
      invoices: ["ACME-1000-INV-016"],
      createdAt: dayOf(inv.paid16.issue_date, 1),
      expiresAt: new Date(dayOf(inv.paid16.issue_date, 1).getTime() + 30 * 86_400_000),
      status: "paid",
      openedAt: dayOf(inv.paid16.issue_date, 3),
      paidCents: inv.paid16.amount_cents,
      paidAt: dayOf(paidLine.line_date, 4),
    },
    {
      reference: "PR-DEMO0005",
      account: "ACME-1001",
      contact: sam,
      email: "sam@coastal.example",
      invoices: ["ACME-1001-INV-018"],
      createdAt: at(-30),
      expiresAt: at(-2),
      status: "sent",
    },
    {
      reference: "PR-DEMO0006",
      account: "ACME-2000",
      contact: olivia,
      email: "olivia@coastal.example",
      invoices: ["ACME-2000-INV-022"],
      createdAt: at(-6),
      expiresAt: at(8),
      status: "cancelled",
      cancelledAt: at(-1),
    },
  ];
  for (const seeded of requests) {
    const invoices = await Promise.all((seeded.invoices ?? []).map(invoice));
    // What was asked when the request was made: the part-paid invoice's whole amount then.
    const askedOf = (row: (typeof invoices)[number]) =>
      seeded.paidCents !== undefined ? row.amount_cents : row.balance_cents;
    const amountCents = seeded.amount?.cents ?? invoices.reduce((sum, row) => sum + askedOf(row), 0);
    const dueDate =
      seeded.amount?.dueDate ?? invoices.reduce((latest, row) => (row.due_date > latest ? row.due_date : latest), "");
    const sent = seeded.status !== "created";
    const request = await tx
      .insertInto("payment_requests")
      .values({
        business_id: businessId,
        account_id: accountIds.get(seeded.account)!,
        reference: seeded.reference,
        kind: seeded.amount ? "amount" : "invoices",
        description: seeded.amount?.description ?? seeded.description ?? "",
        currency: demo.currency,
        amount_cents: amountCents,
        paid_cents: seeded.paidCents ?? 0,
        allow_part_payment: seeded.partPayment !== undefined,
        min_part_payment_cents: typeof seeded.partPayment === "number" ? seeded.partPayment : null,
        due_date: dueDate,
        expires_at: seeded.expiresAt,
        status: seeded.status,
        sent_at: sent ? seeded.createdAt : null,
        opened_at: seeded.openedAt ?? null,
        paid_at: seeded.paidAt ?? null,
        cancelled_at: seeded.cancelledAt ?? null,
        created_at: seeded.createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (invoices.length) {
      await tx
        .insertInto("payment_request_invoices")
        .values(
          invoices.map((row) => ({
            request_id: request.id,
            invoice_id: row.id,
            business_id: businessId,
            amount_cents: askedOf(row),
          })),
        )
        .execute();
    }
    await tx
      .insertInto("payment_request_recipients")
      .values({
        request_id: request.id,
        contact_id: seeded.contact,
        business_id: businessId,
        email: seeded.email,
        send_count: sent ? 1 : 0,
        last_sent_at: sent ? seeded.createdAt : null,
      })
      .execute();
    if (!sent) continue;
    // The emailed link: the README's fixed demo token for PR-DEMO0001, a random one elsewhere.
    const token = seeded.token ?? randomBytes(12).toString("base64url") + randomBytes(32).toString("base64url");
    await tx
      .insertInto("link_tokens")
      .values({
        business_id: businessId,
        purpose: "payment-request",
        subject_id: request.id,
        contact_id: seeded.contact,
        selector: token.slice(0, 16),
        verifier_hash: sha256Hex(token.slice(16)),
        created_at: seeded.createdAt,
        expires_at: seeded.expiresAt,
        revoked_at: seeded.cancelledAt ?? null,
        first_opened_at: seeded.openedAt ?? null,
        last_opened_at: seeded.openedAt ?? null,
        open_count: seeded.openedAt ? 1 : 0,
      })
      .execute();
  }
}

/** A small deterministic generator, so every seed of an account looks the same. */
function seededRandom(seed: string) {
  let state = [...seed].reduce((acc, ch) => (acc * 31 + ch.charCodeAt(0)) >>> 0, 2166136261);
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

// date-rule: calendar dates held as UTC midnight (demoLedger), never an instant's date (decision 078)
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

type LedgerLine = {
  line_date: string;
  type: "invoice" | "payment" | "credit" | "adjustment" | "fee";
  reference: string;
  description: string;
  debit_cents: number;
  credit_cents: number;
  invoiceNumber?: string;
};

/**
 * Twenty-four invoices over the last year in all eight statuses (spec §3), with the
 * statement lines they make: the invoice, and payments or credits for what was paid.
 */
export function demoLedger(accountNumber: string, at: Date, timeZone = "Australia/Sydney") {
  // The business's date at `at` (decision 078), held as UTC midnight so that whole-day steps and
  // isoDay stay calendar arithmetic.
  const today = new Date(`${todayIn(timeZone, at)}T00:00:00Z`);
  const random = seededRandom(accountNumber);
  // Status by invoice age: older ones are mostly settled, recent ones open.
  const statuses = [2, 2, 4, 2, 2, 4, 2, 2, 4, 2, 2, 2, 2, 2, 4, 2, 6, 8, 3, 5, 3, 7, 1, 1];
  const invoices: {
    number: string;
    description: string;
    issue_date: string;
    due_date: string;
    amount_cents: number;
    balance_cents: number;
    status: number;
    promise_date: string | null;
    dispute_reason: string | null;
  }[] = [];
  const lines: LedgerLine[] = [];
  statuses.forEach((status, index) => {
    const issued = addDays(today, -360 + index * 15 - Math.floor(random() * 5));
    const due = addDays(issued, 30);
    const amount = 5_000 + Math.floor(random() * 400) * 250 + (index % 3) * 99;
    const settled = status === 2 || status === 4;
    const partPaid = status === 3 && index % 2 === 0 ? Math.floor(amount / 3) : 0;
    const balance = settled ? 0 : amount - partPaid;
    const number = `${accountNumber}-INV-${String(index + 1).padStart(3, "0")}`;
    invoices.push({
      number,
      description: ["Trade supplies", "Freight and handling", "Site delivery", "Monthly service"][index % 4]!,
      issue_date: isoDay(issued),
      due_date: isoDay(due),
      amount_cents: amount,
      balance_cents: balance,
      status,
      promise_date: status === 7 ? isoDay(addDays(today, 7)) : status === 8 ? isoDay(addDays(today, -10)) : null,
      dispute_reason: status === 6 ? "Goods arrived damaged" : null,
    });
    lines.push({
      line_date: isoDay(issued),
      type: "invoice",
      reference: number,
      description: "Invoice",
      debit_cents: amount,
      credit_cents: 0,
      invoiceNumber: number,
    });
    if (settled) {
      const paidOn = addDays(issued, 10 + Math.floor(random() * 15));
      lines.push({
        line_date: isoDay(paidOn),
        type: "payment",
        reference: `PAY-${number}`,
        description: "Payment, thank you",
        debit_cents: 0,
        credit_cents: amount,
        invoiceNumber: number,
      });
    } else if (partPaid > 0) {
      lines.push({
        line_date: isoDay(addDays(issued, 20)),
        type: "payment",
        reference: `PAY-${number}`,
        description: "Part payment",
        debit_cents: 0,
        credit_cents: partPaid,
        invoiceNumber: number,
      });
    }
  });
  lines.push({
    line_date: isoDay(addDays(today, -40)),
    type: "fee",
    reference: "FEE-LATE",
    description: "Late payment fee",
    debit_cents: 1_500,
    credit_cents: 0,
  });
  lines.push({
    line_date: isoDay(addDays(today, -35)),
    type: "credit",
    reference: "CR-FEE-LATE",
    description: "Late fee waived",
    debit_cents: 0,
    credit_cents: 1_500,
  });
  return { invoices, lines };
}
