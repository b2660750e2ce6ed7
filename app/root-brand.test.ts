import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { themeTokens } from "~/themes/tokens";
import { createSession, getSession } from "~/services/auth/session.server";
import { saveDraft, startPreview } from "~/services/branding/brands.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { openSeededPglite } from "../tests/support/test-db";
import { loader } from "./root";

/** The shell's brand (issue 16): published for everyone, a draft for the previewing host admin alone. */
let handle: DatabaseHandle;
const cookies: Record<string, string> = {};

const rootData = (cookie?: string) =>
  loader({
    request: new Request("http://acme.localhost/", {
      headers: { host: "acme.localhost", ...(cookie ? { cookie } : {}) },
    }),
    params: {},
    context: {},
  });

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const email of ["admin@acme.example", "olivia@coastal.example"]) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    cookies[email] = (
      await createSession(new Request("http://acme.localhost/"), {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
  }
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

describe("the root loader's brand", () => {
  it("is the published brand's, with its logo and favicon addresses", async () => {
    const data = await rootData(cookies["olivia@coastal.example"]);
    expect(data.brand).toEqual({
      businessName: "Acme Plumbing Supplies",
      businessLabel: "Acme Trade Accounts",
      logoDirectory: "/brands/acme",
      logoUrl: "/brands/acme/logo.svg",
      faviconUrl: "/brands/acme/favicon.svg",
      faviconType: "image/svg+xml",
      customCss: null,
      theme: "navy-blue",
      preview: false,
    });
  });

  it("is the draft for the host admin who previews it, and for nobody else", async () => {
    const admin = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", "admin@acme.example")
      .executeTakeFirstOrThrow();
    const bytes = Buffer.from("favicon");
    const favicon = await handle.db
      .insertInto("brand_assets")
      .values({
        business_id: admin.business_id,
        kind: "favicon",
        content_type: "image/png",
        bytes,
        byte_size: bytes.byteLength,
        width: 32,
        height: 32,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const saved = await saveDraft(
      { businessId: admin.business_id, contactId: admin.id },
      { brandColour: "#1f3a93", tokens: themeTokens["dark-blue"], faviconAssetId: favicon.id },
    );
    if (!saved.ok) throw new Error("save failed");
    const session = await getSession(
      new Request("http://acme.localhost/", { headers: { cookie: cookies["admin@acme.example"]! } }),
      admin.business_id,
    );
    expect(await startPreview(session!, saved.draft.id)).toBe(true);

    const previewing = await rootData(cookies["admin@acme.example"]);
    expect(previewing.brand).toMatchObject({
      logoUrl: "/brands/acme/logo.svg",
      faviconUrl: `/brand-assets/${saved.draft.id}/favicon.png`,
      faviconType: "image/png",
      customCss: `/brand-assets/${saved.draft.id}/theme.css`,
      preview: true,
    });
    expect((await rootData(cookies["olivia@coastal.example"])).brand).toMatchObject({
      customCss: null,
      preview: false,
    });
    expect((await rootData()).brand).toMatchObject({ customCss: null, preview: false });
  });
});
