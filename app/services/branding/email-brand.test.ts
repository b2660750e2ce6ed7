import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveBrand } from "~/lib/brand-colours";
import { AA_TEXT, contrastRatio } from "~/themes/contrast";
import { themeTokens, type ThemeTokens } from "~/themes/tokens";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { findBusinessBranding, type HostBranding } from "../host/host.server";
import { renderReceiptHtml } from "../payments/receipt-email.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle, Db } from "../platform/db.server";
import { renderPaymentRequestEmail } from "../requests/request-email.server";
import type { PaymentRequestView } from "../requests/payment-request-view.server";
import { checkBrandUpload, storeBrandAsset } from "./brand-assets.server";
import { publishDraft, saveDraft, type BrandActor } from "./brands.server";
import { renderEmailLogo } from "./email-logo.server";

/**
 * Emails carry the PUBLISHED brand (issue 32, decision 081): a custom colour an admin publishes
 * colours every email (the button and banner with the text colour derived for contrast, as the
 * pages' stylesheet sets them), and the logo is a PNG on the business's host. A draft never does.
 */
const COLOUR = "#0f766e";

const request: PaymentRequestView = {
  id: "8f2c0d1a-0000-4000-8000-000000000001",
  reference: "PR-AB12CD34",
  account: { id: "a", number: "ACME-1000", name: "Coastal Builders Group" },
  kind: "invoices",
  description: "December deliveries",
  amountCents: 1_234_56,
  paidCents: 0,
  remainingCents: 1_234_56,
  currency: "AUD",
  dueDate: "2026-12-15",
  expiresAt: "2026-12-20T12:00:00.000Z",
  allowPartPayment: false,
  minPartPaymentCents: null,
  state: "sent",
  invoices: [{ id: "i1", number: "INV-1", amountCents: 1_234_56, balanceCents: 1_234_56 }],
  recipients: [],
  createdAt: "2026-11-20T00:00:00.000Z",
  sentAt: null,
  openedAt: null,
  paidAt: null,
  cancelledAt: null,
};
const support = { supportEmail: null, supportPhone: null };

async function emailsOf(branding: HostBranding) {
  const mail = await renderPaymentRequestEmail({
    branding,
    support,
    recipientName: "Olivia",
    request,
    link: "https://acme.example/x",
  });
  const receipt = await renderReceiptHtml({
    branding,
    support,
    title: "Receipt",
    lines: ["Hello Olivia,", "", "Thank you."],
    link: "https://acme.example/r",
    linkExpires: "Dec 20, 2026",
  });
  return [mail.html, receipt];
}

/** The colours an email's button and banner are drawn with, as React Email inlines them. */
function expectColours(html: string, tokens: ThemeTokens) {
  expect(html).toContain(`background-color:${tokens.colors.button};color:${tokens.surface.buttonText}`);
  expect(html).toContain(`background-color:${tokens.colors.bannerBackground}`);
  expect(html).toContain(`color:${tokens.colors.bannerText}`);
}

/** The banner's logo: the email's one image. */
function logoTag(html: string): string {
  const tags = html.match(/<img [^>]*>/g) ?? [];
  expect(tags).toHaveLength(1);
  return tags[0]!;
}

function emailBrandSuite(open: () => Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }>) {
  let opened: { handle: DatabaseHandle; drop: () => Promise<void> };
  let db: Db;
  let acme: BrandActor;
  let kiwiBusiness: string;
  let derived: ThemeTokens;

  async function contact(email: string) {
    return db.selectFrom("contacts").select(["id", "business_id"]).where("email", "=", email).executeTakeFirstOrThrow();
  }

  async function publish(changes: Parameters<typeof saveDraft>[1]) {
    const saved = await saveDraft(acme, changes);
    if (!saved.ok) throw new Error(saved.problem);
    const published = await publishDraft(acme, { expectedDraftId: saved.draft.id });
    if (!published.ok) throw new Error(published.problem);
    return published.publication.versionId;
  }

  beforeAll(async () => {
    opened = await open();
    db = opened.handle.db;
    setDatabaseForTesting(opened.handle);
    const admin = await contact("admin@acme.example");
    acme = { businessId: admin.business_id, contactId: admin.id };
    kiwiBusiness = (await contact("admin@kiwi.example")).business_id;
    const brand = deriveBrand(COLOUR);
    if (!brand.ok) throw new Error("the test colour is refused");
    derived = brand.tokens;
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await opened.drop();
  });

  it("colours every email with a published custom colour, its text chosen for contrast, and a PNG logo", async () => {
    const before = (await findBusinessBranding(db, acme.businessId))!;
    // Before: the named theme's colours, the static directory's PNG.
    for (const html of await emailsOf(before)) {
      expectColours(html, themeTokens["navy-blue"]);
      expect(html).not.toContain(derived.colors.button);
    }
    // A draft reaches no email.
    const saved = await saveDraft(acme, { brandColour: COLOUR, tokens: derived });
    expect(saved.ok).toBe(true);
    for (const html of await emailsOf((await findBusinessBranding(db, acme.businessId))!)) {
      expect(html).not.toContain(derived.colors.button);
    }
    await publishDraft(acme, { expectedDraftId: saved.ok ? saved.draft.id : "" });

    const after = (await findBusinessBranding(db, acme.businessId))!;
    expect(after.brandTokens).toEqual(derived);
    expect(contrastRatio(derived.surface.buttonText, derived.colors.button)).toBeGreaterThanOrEqual(AA_TEXT);
    const origin = new URL(after.publicBaseUrl ?? `https://${after.hostname}`).origin;
    for (const html of await emailsOf(after)) {
      expectColours(html, derived);
      const logo = logoTag(html);
      expect(logo).toContain(`src="${origin}/brands/acme/email-logo.png"`);
      expect(logo).toContain(`width="48"`);
      expect(logo).toContain(`height="48"`);
      expect(html).not.toContain("logo.svg");
    }
    // Another business's emails keep their own brand.
    for (const html of await emailsOf((await findBusinessBranding(db, kiwiBusiness))!)) {
      expectColours(html, themeTokens["english-holly"]);
    }
  });

  it("shows an uploaded logo as the version's email-logo.png, sized to keep its proportions", async () => {
    const bytes = await sharp({ create: { width: 400, height: 100, channels: 3, background: "#0a5" } })
      .png()
      .toBuffer();
    const checked = await checkBrandUpload("logo", { name: "logo.png", type: "image/png", bytes });
    if (!checked.ok) throw new Error(checked.problem);
    const logoAssetId = await storeBrandAsset(db, {
      businessId: acme.businessId,
      contactId: acme.contactId,
      kind: "logo",
      asset: checked.asset,
    });
    const versionId = await publish({ logoAssetId });
    const branding = (await findBusinessBranding(db, acme.businessId))!;
    expect(branding.emailLogo).toEqual({ url: `/brand-assets/${versionId}/email-logo.png`, width: 192, height: 48 });
    const [html] = await emailsOf(branding);
    const logo = logoTag(html!);
    expect(logo).toMatch(new RegExp(`src="[^"]+/brand-assets/${versionId}/email-logo\\.png"`));
    expect(logo).toContain(`width="192"`);
    expect(logo).toContain(`height="48"`);
    // The custom colour published before stays.
    expectColours(html!, derived);
  });
}

describe("emails carry the published brand, on PGlite", () => {
  emailBrandSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, drop: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("emails carry the published brand, on PostgreSQL (TEST_DATABASE_URL)", () => {
  emailBrandSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, drop: database.drop };
  });
});

describe("the static logos' email PNGs (scripts/email-logos.ts)", () => {
  const brands = path.resolve("public/brands");
  const names = fs.readdirSync(brands).filter((name) => fs.existsSync(path.join(brands, name, "logo.svg")));

  it.each(names)("public/brands/%s/email-logo.png is its logo.svg at 96 × 96", async (name) => {
    const svg = fs.readFileSync(path.join(brands, name, "logo.svg"));
    const pngPath = path.join(brands, name, "email-logo.png");
    expect(fs.existsSync(pngPath), `run npx tsx scripts/email-logos.ts`).toBe(true);
    const stored = sharp(fs.readFileSync(pngPath));
    const meta = await stored.metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 96, 96]);
    const { width, height } = await sharp(svg).metadata();
    const fresh = await renderEmailLogo({ bytes: svg, contentType: "image/svg+xml", width: width!, height: height! });
    const [a, b] = await Promise.all([stored.raw().toBuffer(), sharp(fresh).raw().toBuffer()]);
    expect(a.equals(b), `public/brands/${name}/email-logo.png differs from its SVG: run scripts/email-logos.ts`).toBe(
      true,
    );
  });
});
