import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { themeTokens } from "~/themes/tokens";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { HOST_ADMIN_PERMISSION, isHostAdmin } from "../auth/access.server";
import { createSession, getSession, updateSessionData } from "../auth/session.server";
import { findBusinessBranding, findHostBranding } from "../host/host.server";
import { requireHostBranding } from "../host/tenant.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { openPostgres, type DatabaseHandle, type Db } from "../platform/db.server";
import {
  getBrandState,
  publishDraft,
  rollBack,
  saveDraft,
  startPreview,
  stopPreview,
  type BrandActor,
} from "./brands.server";

/**
 * The brand service (issue 16) on the real schema: drafts never reach customers, publish and roll
 * back change what every reader sees, previews belong to a host admin's session alone, and bad
 * input or another business's ids change nothing.
 */
type Opened = { handle: DatabaseHandle; url?: string; drop: () => Promise<void> };

function brandSuite(open: () => Promise<Opened>) {
  let opened: Opened;
  let db: Db;
  const ids: Record<string, string> = {};
  let acmeAdmin: BrandActor;
  let kiwiAdmin: BrandActor;

  async function contact(email: string) {
    return db.selectFrom("contacts").select(["id", "business_id"]).where("email", "=", email).executeTakeFirstOrThrow();
  }

  async function cookieFor(email: string, host: string) {
    const row = await contact(email);
    const setCookie = await createSession(new Request(`http://${host}/`, { headers: { host } }), {
      businessId: row.business_id,
      contactId: row.id,
      authMethod: "credentials",
    });
    return setCookie.split(";")[0]!;
  }

  const page = (host: string, cookie?: string) =>
    new Request(`http://${host}/`, { headers: { host, ...(cookie ? { cookie } : {}) } });

  async function sessionOf(cookie: string, host: string, businessId: string) {
    return (await getSession(page(host, cookie), businessId))!;
  }

  async function asset(businessId: string, kind: "logo" | "favicon", type: "image/png" | "image/svg+xml") {
    const bytes = Buffer.from(`${kind}-${randomUUID()}`);
    const row = await db
      .insertInto("brand_assets")
      .values({
        business_id: businessId,
        kind,
        content_type: type,
        bytes,
        byte_size: bytes.byteLength,
        width: 64,
        height: 64,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const count = async (table: "brand_versions" | "brand_drafts" | "brand_publications") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    opened = await open();
    db = opened.handle.db;
    setDatabaseForTesting(opened.handle);
    for (const [key, email] of [
      ["acmeAdmin", "admin@acme.example"],
      ["kiwiAdmin", "admin@kiwi.example"],
      ["olivia", "olivia@coastal.example"],
    ] as const) {
      const row = await contact(email);
      ids[key] = row.id;
      ids[`${key}Business`] = row.business_id;
    }
    acmeAdmin = { businessId: ids.acmeAdminBusiness!, contactId: ids.acmeAdmin!, clientIp: "203.0.113.9" };
    kiwiAdmin = { businessId: ids.kiwiAdminBusiness!, contactId: ids.kiwiAdmin! };
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await opened.drop();
  });

  it("seeds one host admin per demo host, and only they hold the permission", async () => {
    const admins = await db
      .selectFrom("contacts")
      .innerJoin("hosts", "hosts.business_id", "contacts.business_id")
      .select(["contacts.email", "hosts.hostname", "contacts.permissions"])
      .execute();
    const hostAdmins = admins.filter((row) => isHostAdmin(row)).map((row) => `${row.email} ${row.hostname}`);
    expect(hostAdmins.sort()).toEqual([
      "admin@acme.example acme.localhost",
      "admin@harbour.example harbour.localhost",
      "admin@kiwi.example kiwi.localhost",
    ]);
    expect(HOST_ADMIN_PERMISSION).toBe("hostAdmin");
  });

  it("starts from the business's own columns: nothing published, no draft", async () => {
    const state = (await getBrandState(acmeAdmin.businessId))!;
    expect(state.published.id).toBeNull();
    expect(state.published.theme).toBe("navy-blue");
    expect(state.published.look.logoUrl).toBe("/brands/acme/logo.svg");
    expect(state.draft).toBeNull();
    expect(state.publications).toEqual([]);
    const host = (await findHostBranding(db, "acme.localhost"))!;
    expect(host).toMatchObject({
      logoDirectory: "/brands/acme",
      logoUrl: "/brands/acme/logo.svg",
      faviconUrl: "/brands/acme/favicon.svg",
      faviconType: "image/svg+xml",
      customCss: null,
      preview: null,
    });
    expect(await getBrandState("not-a-uuid")).toBeNull();
  });

  it("refuses a contact who is not a host admin of the business, writing nothing", async () => {
    const before = await count("brand_versions");
    // A customer of Acme with portal access but no hostAdmin.
    expect(await saveDraft({ businessId: acmeAdmin.businessId, contactId: ids.olivia! }, { theme: "monza" })).toEqual({
      ok: false,
      problem: "forbidden",
    });
    // Kiwi's admin naming Acme's business.
    expect(
      await saveDraft({ businessId: acmeAdmin.businessId, contactId: kiwiAdmin.contactId }, { theme: "monza" }),
    ).toEqual({
      ok: false,
      problem: "forbidden",
    });
    expect(
      await saveDraft({ businessId: "x'; DROP TABLE businesses; --", contactId: "1" }, { theme: "monza" }),
    ).toEqual({
      ok: false,
      problem: "forbidden",
    });
    expect(
      await publishDraft(
        { businessId: acmeAdmin.businessId, contactId: ids.olivia! },
        { expectedDraftId: randomUUID() },
      ),
    ).toEqual({
      ok: false,
      problem: "forbidden",
    });
    expect(await count("brand_versions")).toBe(before);
  });

  it("refuses bad input with a problem per field and writes nothing", async () => {
    const before = await count("brand_versions");
    const kiwiLogo = await asset(kiwiAdmin.businessId, "logo", "image/png");
    const acmeFavicon = await asset(acmeAdmin.businessId, "favicon", "image/png");
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ businessName: "A".repeat(500) }, { businessName: "tooLong" }],
      [{ businessName: "   " }, { businessName: "required" }],
      [{ businessName: "Acme\u0000Plumbing" }, { businessName: "invalidText" }],
      [{ businessName: "Acme \u202eevil" }, { businessName: "invalidText" }],
      [{ businessName: 42 }, { businessName: "required" }],
      [{ businessName: "Acme \ud800" }, { businessName: "invalidText" }],
      [{ businessName: "Acme\u2028Two" }, { businessName: "invalidText" }],
      [{ businessName: "Acme\u200fPlumbing" }, { businessName: "invalidText" }],
      [{ businessName: "Ac\u200bme" }, { businessName: "invalidText" }],
      [{ label: "L".repeat(121) }, { label: "tooLong" }],
      [{ label: "line\nbreak" }, { label: "invalidText" }],
      [{ theme: "hotpink" }, { theme: "unknownTheme" }],
      [{ brandColour: "red;}", tokens: themeTokens.base }, { brandColour: "invalidColour" }],
      [{ brandColour: "#12345", tokens: themeTokens.base }, { brandColour: "invalidColour" }],
      [{ brandColour: "#1f3a93" }, { brandColour: "invalidColour" }],
      [
        {
          brandColour: "#1f3a93",
          tokens: { ...themeTokens.base, colors: { ...themeTokens.base.colors, link: "red;}" } },
        },
        { brandColour: "invalidColour" },
      ],
      [
        // Well-formed but failing contrast: link text as light as the page.
        {
          brandColour: "#1f3a93",
          tokens: { ...themeTokens.base, colors: { ...themeTokens.base.colors, link: "#fefefe" } },
        },
        { brandColour: "invalidColour" },
      ],
      [{ logoAssetId: kiwiLogo }, { logoAssetId: "unknownAsset" }],
      [{ logoAssetId: acmeFavicon }, { logoAssetId: "unknownAsset" }],
      [{ faviconAssetId: "../../etc/passwd" }, { faviconAssetId: "unknownAsset" }],
      [{ faviconAssetId: randomUUID() }, { faviconAssetId: "unknownAsset" }],
    ];
    for (const [changes, fields] of cases) {
      const result = await saveDraft(acmeAdmin, changes as never);
      expect(result, JSON.stringify(changes).slice(0, 80)).toEqual({ ok: false, problem: "invalid", fields });
    }
    expect(await count("brand_versions")).toBe(before);
    expect((await getBrandState(acmeAdmin.businessId))!.draft).toBeNull();
  });

  let draftId = "";
  let logoId = "";

  it("saves a draft that customers never see", async () => {
    logoId = await asset(acmeAdmin.businessId, "logo", "image/png");
    const first = await saveDraft(acmeAdmin, { theme: "monza", businessName: "  <b>Acme</b> & Co  " });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.draft).toMatchObject({
      theme: "monza",
      businessName: "<b>Acme</b> & Co",
      label: "Acme Trade Accounts",
    });
    const second = await saveDraft(acmeAdmin, { logoAssetId: logoId });
    if (!second.ok) throw new Error("second save failed");
    // A new version each save; earlier choices carried over.
    expect(second.draft.id).not.toBe(first.draft.id);
    expect(second.draft).toMatchObject({ theme: "monza", businessName: "<b>Acme</b> & Co", logoAssetId: logoId });
    expect(second.draft.look).toMatchObject({
      logoDirectory: `/brand-assets/${second.draft.id}`,
      logoUrl: `/brand-assets/${second.draft.id}/logo.png`,
      faviconUrl: "/brands/acme/favicon.svg",
      customCss: null,
    });
    // Saving the same again writes nothing.
    const again = await saveDraft(acmeAdmin, { logoAssetId: logoId });
    expect(again).toMatchObject({ ok: true, changed: false, draft: { id: second.draft.id } });
    draftId = second.draft.id;

    const host = (await findHostBranding(db, "acme.localhost"))!;
    expect(host).toMatchObject({
      theme: "navy-blue",
      businessName: "Acme Plumbing Supplies",
      logoUrl: "/brands/acme/logo.svg",
    });
    expect((await requireHostBranding(page("acme.localhost"))).theme).toBe("navy-blue");
    expect((await findBusinessBranding(db, acmeAdmin.businessId))!.preview).toBeNull();
  });

  it("previews the draft for the host admin's session only", async () => {
    const adminCookie = await cookieFor("admin@acme.example", "acme.localhost");
    const oliviaCookie = await cookieFor("olivia@coastal.example", "acme.localhost");
    const adminSession = await sessionOf(adminCookie, "acme.localhost", acmeAdmin.businessId);
    const oliviaSession = await sessionOf(oliviaCookie, "acme.localhost", acmeAdmin.businessId);

    // Not for a customer, nor for a version of another business.
    expect(await startPreview(oliviaSession, draftId)).toBe(false);
    const kiwiDraft = await saveDraft(kiwiAdmin, { theme: "crimson" });
    if (!kiwiDraft.ok) throw new Error("kiwi draft failed");
    expect(await startPreview(adminSession, kiwiDraft.draft.id)).toBe(false);
    expect(await startPreview(adminSession, "'; DROP TABLE sessions; --")).toBe(false);
    expect((await requireHostBranding(page("acme.localhost", adminCookie))).preview).toBeNull();

    // Another request of the same session, which read it before the preview started, saves a key of
    // its own afterwards: the preview stays (the data is merged key by key, not written back whole).
    const readBefore = await sessionOf(adminCookie, "acme.localhost", acmeAdmin.businessId);
    expect(await startPreview(adminSession, draftId)).toBe(true);
    await updateSessionData(readBefore, { language: "id" });
    expect((await sessionOf(adminCookie, "acme.localhost", acmeAdmin.businessId)).data).toMatchObject({
      brandPreview: draftId,
      language: "id",
    });
    await updateSessionData(readBefore, { language: undefined });
    const merged = (await sessionOf(adminCookie, "acme.localhost", acmeAdmin.businessId)).data;
    expect(merged.brandPreview).toBe(draftId);
    expect("language" in merged).toBe(false);
    const previewed = await requireHostBranding(page("acme.localhost", adminCookie));
    expect(previewed).toMatchObject({
      theme: "monza",
      businessName: "<b>Acme</b> & Co",
      logoUrl: `/brand-assets/${draftId}/logo.png`,
      preview: { versionId: draftId },
    });
    // An action (which may send email built from the brand) never gets the draft, even the admin's.
    const post = new Request("http://acme.localhost/", {
      method: "POST",
      headers: { host: "acme.localhost", cookie: adminCookie },
    });
    expect(await requireHostBranding(post)).toMatchObject({ theme: "navy-blue", preview: null });
    // Everyone else, and every reader without a request, sees the published brand.
    expect((await requireHostBranding(page("acme.localhost", oliviaCookie))).theme).toBe("navy-blue");
    expect((await requireHostBranding(page("acme.localhost"))).preview).toBeNull();
    expect((await findBusinessBranding(db, acmeAdmin.businessId))!.theme).toBe("navy-blue");

    // A customer's session that names the draft anyway (written straight into the row) gets nothing.
    await db
      .updateTable("sessions")
      .set({ data: JSON.stringify({ brandPreview: draftId }) })
      .where("id_hash", "=", oliviaSession.idHash)
      .execute();
    expect((await requireHostBranding(page("acme.localhost", oliviaCookie))).preview).toBeNull();
    // The admin's session naming another business's version: the published brand.
    await db
      .updateTable("sessions")
      .set({ data: JSON.stringify({ brandPreview: kiwiDraft.draft.id }) })
      .where("id_hash", "=", adminSession.idHash)
      .execute();
    expect((await requireHostBranding(page("acme.localhost", adminCookie))).preview).toBeNull();
    // An admin who loses the permission stops previewing at once.
    await startPreview(await sessionOf(adminCookie, "acme.localhost", acmeAdmin.businessId), draftId);
    await db
      .updateTable("contacts")
      .set({ permissions: ["accessCustomerPortal"] })
      .where("id", "=", ids.acmeAdmin!)
      .execute();
    expect((await requireHostBranding(page("acme.localhost", adminCookie))).preview).toBeNull();
    await db
      .updateTable("contacts")
      .set({ permissions: ["accessCustomerPortal", "hostAdmin"] })
      .where("id", "=", ids.acmeAdmin!)
      .execute();
    expect((await requireHostBranding(page("acme.localhost", adminCookie))).preview).toEqual({ versionId: draftId });

    await stopPreview(await sessionOf(adminCookie, "acme.localhost", acmeAdmin.businessId));
    expect((await requireHostBranding(page("acme.localhost", adminCookie))).preview).toBeNull();
    // Kiwi's draft stays Kiwi's: its host is unchanged.
    expect((await findHostBranding(db, "kiwi.localhost"))!.theme).toBe("english-holly");
  });

  it("publishes the draft it was shown, once, with the changes in the trail", async () => {
    const publicationsBefore = await count("brand_publications");
    expect(await publishDraft(acmeAdmin, { expectedDraftId: randomUUID() })).toEqual({ ok: false, problem: "stale" });
    expect(await publishDraft(acmeAdmin, { expectedDraftId: "not-a-uuid" })).toEqual({ ok: false, problem: "stale" });
    expect(await count("brand_publications")).toBe(publicationsBefore);
    expect((await findHostBranding(db, "acme.localhost"))!.theme).toBe("navy-blue");

    const published = await publishDraft(acmeAdmin, { expectedDraftId: draftId });
    if (!published.ok) throw new Error(`publish failed: ${published.problem}`);
    expect(published.publication).toMatchObject({ kind: "publish", versionId: draftId });
    expect(published.publication.publishedBy).toMatchObject({ email: "admin@acme.example" });
    expect(published.publication.changes).toEqual([
      { field: "theme", from: "navy-blue", to: "monza" },
      { field: "businessName", from: "Acme Plumbing Supplies", to: "<b>Acme</b> & Co" },
      { field: "logo", from: null, to: logoId },
    ]);
    // Nothing left to publish; a second publish of the same draft changes nothing.
    expect(await publishDraft(acmeAdmin, { expectedDraftId: draftId })).toEqual({ ok: false, problem: "noDraft" });

    const host = (await findHostBranding(db, "acme.localhost"))!;
    expect(host).toMatchObject({
      theme: "monza",
      businessName: "<b>Acme</b> & Co",
      businessLabel: "Acme Trade Accounts",
      logoDirectory: `/brand-assets/${draftId}`,
      logoUrl: `/brand-assets/${draftId}/logo.png`,
      faviconUrl: "/brands/acme/favicon.svg",
      preview: null,
    });
    const business = await db
      .selectFrom("businesses")
      .select(["brand_version_id", "theme", "name", "logo_directory"])
      .where("id", "=", acmeAdmin.businessId)
      .executeTakeFirstOrThrow();
    expect(business).toEqual({
      brand_version_id: draftId,
      theme: "monza",
      name: "<b>Acme</b> & Co",
      logo_directory: `/brand-assets/${draftId}`,
    });
    const trail = await db
      .selectFrom("audit_events")
      .select(["action", "contact_id", "client_ip", "details"])
      .where("business_id", "=", acmeAdmin.businessId)
      .where("action", "=", "brand.publish")
      .execute();
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ contact_id: ids.acmeAdmin, client_ip: "203.0.113.9" });
    expect(trail[0]!.details).toMatchObject({ versionId: draftId, changes: published.publication.changes });

    const state = (await getBrandState(acmeAdmin.businessId))!;
    expect(state.published.id).toBe(draftId);
    expect(state.draft).toBeNull();
    expect(state.publications.map((p) => p.id)).toEqual([published.publication.id]);
  });

  it("publishes a custom colour with an uploaded favicon, then rolls back in one step", async () => {
    const favicon = await asset(acmeAdmin.businessId, "favicon", "image/svg+xml");
    const tokens = themeTokens["dark-blue"];
    const saved = await saveDraft(acmeAdmin, { brandColour: "#1f3a93", tokens, faviconAssetId: favicon, label: "" });
    if (!saved.ok) throw new Error("save failed");
    expect(saved.draft.look.customCss).toBe(`/brand-assets/${saved.draft.id}/theme.css`);
    const published = await publishDraft(acmeAdmin, { expectedDraftId: saved.draft.id });
    if (!published.ok) throw new Error("publish failed");
    expect(published.publication.changes.map((c) => c.field)).toEqual(["brandColour", "label", "favicon"]);
    expect(await findHostBranding(db, "acme.localhost")).toMatchObject({
      customCss: `/brand-assets/${saved.draft.id}/theme.css`,
      faviconUrl: `/brand-assets/${saved.draft.id}/favicon.svg`,
      faviconType: "image/svg+xml",
      businessLabel: "",
    });

    // Another admin's publish since the page was shown: refused, nothing undone.
    expect(
      await rollBack(acmeAdmin, { publicationId: published.publication.id, expectedLiveVersionId: draftId }),
    ).toEqual({ ok: false, problem: "stale" });
    expect(await findHostBranding(db, "acme.localhost")).toMatchObject({ faviconType: "image/svg+xml" });
    const back = await rollBack(acmeAdmin, {
      publicationId: published.publication.id,
      expectedLiveVersionId: saved.draft.id,
    });
    if (!back.ok) throw new Error(`roll back failed: ${back.problem}`);
    expect(back.publication).toMatchObject({ kind: "rollback", versionId: draftId, previousId: saved.draft.id });
    expect(await findHostBranding(db, "acme.localhost")).toMatchObject({
      theme: "monza",
      customCss: null,
      faviconUrl: "/brands/acme/favicon.svg",
      businessLabel: "Acme Trade Accounts",
    });
    // Again: that brand is live already.
    expect(
      await rollBack(acmeAdmin, { publicationId: published.publication.id, expectedLiveVersionId: draftId }),
    ).toEqual({
      ok: false,
      problem: "alreadyLive",
    });

    // The first publication rolls back to the seed's own brand (kept as a version of its own).
    const first = (await getBrandState(acmeAdmin.businessId))!.publications.at(-1)!;
    const original = await rollBack(acmeAdmin, { publicationId: first.id, expectedLiveVersionId: draftId });
    if (!original.ok) throw new Error(`roll back failed: ${original.problem}`);
    expect(await findHostBranding(db, "acme.localhost")).toMatchObject({
      theme: "navy-blue",
      businessName: "Acme Plumbing Supplies",
      logoDirectory: "/brands/acme",
      logoUrl: "/brands/acme/logo.svg",
    });
    expect((await getBrandState(acmeAdmin.businessId))!.publications.map((p) => p.kind)).toEqual([
      "rollback",
      "rollback",
      "publish",
      "publish",
    ]);

    // Another business's publication, or none at all: not found, nothing changes.
    const live = (await getBrandState(acmeAdmin.businessId))!.published.id;
    expect(await rollBack(kiwiAdmin, { publicationId: first.id, expectedLiveVersionId: live })).toEqual({
      ok: false,
      problem: "notFound",
    });
    expect(await rollBack(acmeAdmin, { publicationId: "1 OR 1=1", expectedLiveVersionId: live })).toEqual({
      ok: false,
      problem: "notFound",
    });
    expect(
      await rollBack(
        { ...acmeAdmin, contactId: ids.olivia! },
        { publicationId: first.id, expectedLiveVersionId: live },
      ),
    ).toEqual({
      ok: false,
      problem: "forbidden",
    });
  });

  return { opened: () => opened };
}

describe("on PGlite", () => {
  brandSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, drop: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  const suite = brandSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, url: database.url, drop: database.drop };
  });

  it("a publish through one process is seen at once by another (a fresh connection pool)", async () => {
    const { handle, url } = suite.opened();
    const other = openPostgres(url!, { max: 1 });
    try {
      expect((await findHostBranding(other.db, "kiwi.localhost"))!.theme).toBe("english-holly");
      const kiwi = await handle.db
        .selectFrom("contacts")
        .select(["id", "business_id"])
        .where("email", "=", "admin@kiwi.example")
        .executeTakeFirstOrThrow();
      const actor = { businessId: kiwi.business_id, contactId: kiwi.id };
      const saved = await saveDraft(actor, { theme: "sycamore", businessName: "Kiwi Freight" });
      if (!saved.ok) throw new Error("save failed");
      expect((await findHostBranding(other.db, "kiwi.localhost"))!.theme).toBe("english-holly");
      // Two publishes of the same draft at once: the row lock lets one through.
      const results = await Promise.all([
        publishDraft(actor, { expectedDraftId: saved.draft.id }),
        publishDraft(actor, { expectedDraftId: saved.draft.id }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, problem: "noDraft" }]);
      expect(await findHostBranding(other.db, "kiwi.localhost")).toMatchObject({
        theme: "sycamore",
        businessName: "Kiwi Freight",
      });
      const publications = await other.db
        .selectFrom("brand_publications")
        .select("id")
        .where("business_id", "=", kiwi.business_id)
        .execute();
      expect(publications).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
