import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { brandAssetPath, brandCssPath } from "~/lib/brand-uploads";
import { themeTokens } from "~/themes/tokens";
import { HOST_ADMIN_PERMISSION } from "~/services/auth/access.server";
import { createSession } from "~/services/auth/session.server";
import { checkBrandUpload, storeBrandAsset, type CheckedBrandAsset } from "~/services/branding/brand-assets.server";
import { brandCss } from "~/services/branding/brand-css.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { loader } from "./brand-assets.$versionId.$file";

/**
 * /brand-assets/<version>/<file> (issue 16): a published version's files for anyone on its host,
 * cached for a year; a draft's only for a host admin of its business, never cached; anything
 * else, another business's version included, "not found".
 */
const ACME = "acme.localhost";
const KIWI = "kiwi.localhost";

async function checked(bytes: Buffer, kind: "logo" | "favicon"): Promise<CheckedBrandAsset> {
  const result = await checkBrandUpload(kind, { name: "x", type: "", bytes });
  if (!result.ok) throw new Error(result.problem);
  return result.asset;
}

function routeSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  const ids: Record<string, string> = {};
  const assets: Record<string, CheckedBrandAsset> = {};
  const cookies: Record<string, string> = {};

  async function businessOf(host: string) {
    return (
      await handle.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow()
    ).business_id;
  }

  async function signIn(email: string, host: string) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const setCookie = await createSession(new Request(`http://${host}/`, { headers: { host } }), {
      businessId: contact.business_id,
      contactId: contact.id,
      authMethod: "credentials",
    });
    return setCookie.split(";")[0]!;
  }

  async function version(
    businessId: string,
    values: { logo?: string; favicon?: string; tokens?: boolean; directory: string },
  ): Promise<string> {
    const row = await handle.db
      .insertInto("brand_versions")
      .values({
        business_id: businessId,
        theme: "base",
        brand_colour: values.tokens ? "#1d4ed8" : null,
        tokens: values.tokens ? JSON.stringify(themeTokens.base) : null,
        business_name: "Brand test",
        logo_asset_id: values.logo ?? null,
        favicon_asset_id: values.favicon ?? null,
        logo_directory: values.directory,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const acme = await businessOf(ACME);
    const kiwi = await businessOf(KIWI);
    await handle.db
      .updateTable("contacts")
      .set({ permissions: sql<string[]>`array_append(permissions, ${HOST_ADMIN_PERMISSION})` })
      .where("email", "in", ["olivia@coastal.example", "aroha@orchards.example"])
      .execute();

    const picture = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: "#0a5" } });
    assets.png = await checked(await picture(200, 60).png().toBuffer(), "logo");
    assets.svg = await checked(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15"/></svg>'),
      "favicon",
    );
    const store = (businessId: string, kind: "logo" | "favicon", asset: CheckedBrandAsset) =>
      storeBrandAsset(handle.db, { businessId, contactId: null, kind, asset });
    const acmeLogo = await store(acme, "logo", assets.png);
    const acmeFavicon = await store(acme, "favicon", assets.svg);
    const kiwiLogo = await store(kiwi, "logo", assets.png);

    ids.draft = await version(acme, { logo: acmeLogo, favicon: acmeFavicon, tokens: true, directory: "/brands/acme" });
    ids.live = await version(acme, { logo: acmeLogo, tokens: true, directory: "/brands/acme" });
    ids.earlier = await version(acme, { logo: acmeLogo, directory: "/brands/acme" });
    ids.kiwiLive = await version(kiwi, { logo: kiwiLogo, directory: "/brands/kiwi" });
    // The earlier version was published once (a publication names it), the live one is current.
    await handle.db
      .insertInto("brand_publications")
      .values({ business_id: acme, version_id: ids.earlier, kind: "publish" })
      .execute();
    await handle.db.updateTable("businesses").set({ brand_version_id: ids.live }).where("id", "=", acme).execute();
    await handle.db.updateTable("businesses").set({ brand_version_id: ids.kiwiLive }).where("id", "=", kiwi).execute();

    cookies.admin = await signIn("olivia@coastal.example", ACME);
    cookies.customer = await signIn("sam@coastal.example", ACME);
    cookies.kiwiAdmin = await signIn("aroha@orchards.example", KIWI);
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  async function get(path: string, options: { host?: string; cookie?: string; headers?: Record<string, string> } = {}) {
    const host = options.host ?? ACME;
    const [, , versionId, file] = path.split("/");
    const request = new Request(`http://${host}${path}`, {
      headers: { host, ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    });
    return loader({ request, params: { versionId, file }, context: {} });
  }

  it("serves a published version's logo to anyone, cached for a year, byte for byte", async () => {
    for (const id of [ids.live, ids.earlier]) {
      const response = await get(brandAssetPath(id!, "logo", "image/png"));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("etag")).toBe(`"${assets.png!.sha256}"`);
      expect(Buffer.from(await response.arrayBuffer()).equals(assets.png!.bytes)).toBe(true);
    }
    const again = await get(brandAssetPath(ids.live!, "logo", "image/png"), {
      headers: { "if-none-match": `"${assets.png!.sha256}"` },
    });
    expect(again.status).toBe(304);
  });

  it("serves a draft's files only to a host admin of the business, never cached", async () => {
    const logo = brandAssetPath(ids.draft!, "logo", "image/png");
    expect((await get(logo)).status).toBe(404);
    expect((await get(logo, { cookie: cookies.customer })).status).toBe(404);
    // Kiwi's admin: a session of another business is no session here.
    expect((await get(logo, { cookie: cookies.kiwiAdmin })).status).toBe(404);
    const response = await get(logo, { cookie: cookies.admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(Buffer.from(await response.arrayBuffer()).equals(assets.png!.bytes)).toBe(true);
  });

  it("serves an SVG as an image that can run and load nothing", async () => {
    const response = await get(brandAssetPath(ids.draft!, "favicon", "image/svg+xml"), { cookie: cookies.admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe(assets.svg!.bytes.toString("utf8"));
  });

  it("serves theme.css of a custom colour (brandCss of the version's tokens); 404 without one", async () => {
    const response = await get(brandCssPath(ids.live!));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await response.text()).toBe(brandCss(themeTokens.base));
    expect((await get(brandCssPath(ids.earlier!))).status).toBe(404);
    expect((await get(brandCssPath(ids.draft!))).status).toBe(404);
    expect((await get(brandCssPath(ids.draft!), { cookie: cookies.admin })).status).toBe(200);
  });

  it("serves no stylesheet from damaged tokens (a value that is not a colour): 404, never a 500", async () => {
    const acme = await businessOf(ACME);
    const damaged = await handle.db
      .insertInto("brand_versions")
      .values({
        business_id: acme,
        theme: "base",
        brand_colour: "#1d4ed8",
        tokens: JSON.stringify({
          ...themeTokens.base,
          colors: { ...themeTokens.base.colors, primary: "red;} body{x:1" },
        }),
        business_name: "Damaged",
        logo_directory: "/brands/acme",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto("brand_publications")
      .values({ business_id: acme, version_id: damaged.id, kind: "publish" })
      .execute();
    const response = await get(brandCssPath(damaged.id));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("red;}");
  });

  it("answers 404 for another business's version, a wrong extension, a missing file or a bad address", async () => {
    // Kiwi's published logo asked for on Acme's host, even by Acme's admin.
    expect((await get(brandAssetPath(ids.kiwiLive!, "logo", "image/png"), { cookie: cookies.admin })).status).toBe(404);
    expect((await get(brandAssetPath(ids.kiwiLive!, "logo", "image/png"), { host: KIWI })).status).toBe(200);
    expect((await get(brandAssetPath(ids.live!, "logo", "image/jpeg"))).status).toBe(404);
    expect((await get(brandAssetPath(ids.live!, "favicon", "image/png"))).status).toBe(404);
    expect((await get(`/brand-assets/${ids.live}/logo.gif`)).status).toBe(404);
    expect((await get(`/brand-assets/${ids.live}/..%2Flogo.png`)).status).toBe(404);
    expect((await get(`/brand-assets/not-a-uuid/logo.png`)).status).toBe(404);
    expect((await get(`/brand-assets/00000000-0000-4000-8000-000000000000/logo.png`)).status).toBe(404);
    const missing = await get(`/brand-assets/${ids.draft}/logo.webp`, { cookie: cookies.admin });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("no-store");
  });

  it("answers bootstrap's `<logo directory>/logo.svg` and `favicon.svg` with the version's real files", async () => {
    // An uploaded PNG logo: logo.svg leads to it; no favicon uploaded: the static directory's.
    const logo = await get(`/brand-assets/${ids.live}/logo.svg`);
    expect(logo.status).toBe(302);
    expect(logo.headers.get("location")).toBe(`/brand-assets/${ids.live}/logo.png`);
    expect(logo.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const favicon = await get(`/brand-assets/${ids.live}/favicon.svg`);
    expect(favicon.status).toBe(302);
    expect(favicon.headers.get("location")).toBe("/brands/acme/favicon.svg");
    // A draft's, only for its admin, never cached.
    expect((await get(`/brand-assets/${ids.draft}/logo.svg`)).status).toBe(404);
    const draft = await get(`/brand-assets/${ids.draft}/logo.svg`, { cookie: cookies.admin });
    expect(draft.status).toBe(302);
    expect(draft.headers.get("cache-control")).toBe("private, no-store");
  });

  it("serves email-logo.png (decision 081): the uploaded logo as a PNG fitted inside 480 × 96, cached like the logo", async () => {
    const response = await get(`/brand-assets/${ids.live}/email-logo.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(response.headers.get("etag")).toBe(`"${assets.png!.sha256}-email"`);
    // The 200 × 60 logo: 48 px tall shown is 160 × 48, made at twice that.
    const png = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([png.format, png.width, png.height]).toEqual(["png", 320, 96]);
    const again = await get(`/brand-assets/${ids.live}/email-logo.png`, {
      headers: { "if-none-match": `"${assets.png!.sha256}-email"` },
    });
    expect(again.status).toBe(304);
  });

  it("serves email-logo.png of the host's own business only; a draft's to its admin alone", async () => {
    // Kiwi's published version asked for on Acme's host, and Acme's on Kiwi's: not found.
    expect((await get(`/brand-assets/${ids.kiwiLive}/email-logo.png`)).status).toBe(404);
    expect((await get(`/brand-assets/${ids.live}/email-logo.png`, { host: KIWI })).status).toBe(404);
    expect((await get(`/brand-assets/${ids.kiwiLive}/email-logo.png`, { host: KIWI })).status).toBe(200);
    expect((await get(`/brand-assets/${ids.draft}/email-logo.png`)).status).toBe(404);
    expect((await get(`/brand-assets/${ids.draft}/email-logo.png`, { cookie: cookies.customer })).status).toBe(404);
    expect((await get(`/brand-assets/${ids.draft}/email-logo.png`, { cookie: cookies.kiwiAdmin })).status).toBe(404);
    const draft = await get(`/brand-assets/${ids.draft}/email-logo.png`, { cookie: cookies.admin });
    expect(draft.status).toBe(200);
    expect(draft.headers.get("content-type")).toBe("image/png");
    expect(draft.headers.get("cache-control")).toBe("private, no-store");
  });

  it("leads email-logo.png of a version with no uploaded logo to its static directory's PNG", async () => {
    const acme = await businessOf(ACME);
    const plain = await version(acme, { directory: "/brands/acme" });
    await handle.db
      .insertInto("brand_publications")
      .values({ business_id: acme, version_id: plain, kind: "publish" })
      .execute();
    const response = await get(`/brand-assets/${plain}/email-logo.png`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/brands/acme/email-logo.png");
  });

  it("lets other origins load a published file (emails, bootstrap clients), a draft's only this origin", async () => {
    const published = await get(brandAssetPath(ids.live!, "logo", "image/png"));
    expect(published.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const draft = await get(brandAssetPath(ids.draft!, "logo", "image/png"), { cookie: cookies.admin });
    expect(draft.headers.get("cross-origin-resource-policy")).toBe("same-origin");
  });
}

describe("brand assets on PGlite", () => {
  routeSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("brand assets on PostgreSQL (TEST_DATABASE_URL)", () => {
  routeSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
