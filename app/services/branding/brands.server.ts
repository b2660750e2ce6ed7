import type { Transaction } from "kysely";
import { BRAND_LABEL_MAX_LENGTH, BRAND_NAME_MAX_LENGTH, checkBrandText, type BrandTextProblem } from "~/lib/brand-text";
import { isValidBrandTokens, storedBrandTokens } from "~/lib/brand-colours";
import { isThemeName, type ThemeName } from "~/themes/names";
import type { ThemeTokens } from "~/themes/tokens";
import { isHostAdmin } from "../auth/access.server";
import { updateSessionData, type PortalSession } from "../auth/session.server";
import { brandLook, type HostBranding } from "../host/host.server";
import { audit } from "../platform/audit.server";
import { now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import { logger } from "../platform/logger.server";
import type { Db } from "../platform/db.server";
import type { BrandAssetKind, BrandAssetType, BrandChange, DB } from "../platform/db-schema.server";
import { CANONICAL_UUID } from "~/lib/ids";

/**
 * A host admin's brand (issue 16; decision 037): drafts, previews, publishing and rolling back.
 *
 * Versions are never changed: saving a draft writes a new brand_versions row (the current draft,
 * else the published brand, plus the changes) and points brand_drafts at it. Publishing and
 * rolling back run in one transaction with the business's row locked (FOR UPDATE): they write a
 * brand_publications row (who, when, from which version to which, what changed), point
 * businesses.brand_version_id at the version and copy its theme, name, label and logo directory
 * into the business's columns, which bootstrap, titles and favicons read. Every portal process
 * reads those per request (findHostBranding), so a publish is live everywhere at once.
 *
 * Every function checks, inside its own transaction, that the acting contact is a verified,
 * enabled host admin of the business: the pages check first, this is the second lock.
 */

export type BrandActor = { businessId: string; contactId: string; clientIp?: string };

/** What a brand version shows: the host's brand fields and the addresses of its files. */
export type BrandLook = Pick<
  HostBranding,
  | "theme"
  | "businessName"
  | "businessLabel"
  | "logoDirectory"
  | "logoUrl"
  | "faviconUrl"
  | "faviconType"
  | "customCss"
  | "brandTokens"
  | "emailLogo"
>;

export type BrandVersionView = {
  /** Null only for a business that never published: its brand is the business's own columns. */
  id: string | null;
  theme: ThemeName;
  brandColour: string | null;
  tokens: ThemeTokens | null;
  businessName: string;
  label: string;
  logoAssetId: string | null;
  faviconAssetId: string | null;
  /** The static logo directory (`/brands/<name>`) used where nothing is uploaded. */
  staticLogoDirectory: string;
  look: BrandLook;
  createdAt: string | null;
};

export type BrandDraftView = BrandVersionView & { id: string; savedAt: string; savedBy: BrandPerson | null };

export type BrandPerson = { id: string; name: string; email: string };

export type BrandPublicationView = {
  id: string;
  kind: "publish" | "rollback";
  versionId: string;
  previousId: string | null;
  changes: BrandChange[];
  publishedAt: string;
  publishedBy: BrandPerson | null;
};

export type BrandState = {
  published: BrandVersionView;
  draft: BrandDraftView | null;
  /** The newest first, at most PUBLICATIONS_SHOWN. */
  publications: BrandPublicationView[];
};

export const PUBLICATIONS_SHOWN = 20;

/**
 * A draft's changes. Absent fields keep the current draft's (else the published brand's) value.
 * `brandColour` and `tokens` go together (the colours helper's deriveBrand gives both); null for
 * both means the named theme's own colours. Choosing a theme keeps a custom colour unless it is
 * also set to null. Asset ids are ones storeBrandAsset returned; null removes the upload.
 */
export type BrandDraftChanges = {
  theme?: ThemeName;
  brandColour?: string | null;
  tokens?: ThemeTokens | null;
  businessName?: string;
  label?: string;
  logoAssetId?: string | null;
  faviconAssetId?: string | null;
};

export type BrandDraftField = keyof BrandDraftChanges;
export type BrandFieldProblem = BrandTextProblem | "unknownTheme" | "invalidColour" | "unknownAsset";

export type SaveDraftResult =
  | { ok: true; draft: BrandDraftView; changed: boolean }
  | { ok: false; problem: "forbidden" }
  | { ok: false; problem: "invalid"; fields: Partial<Record<BrandDraftField, BrandFieldProblem>> };

export type PublishResult =
  | { ok: true; publication: BrandPublicationView }
  /**
   * forbidden: not a host admin of the business; noDraft: nothing to publish; stale: the draft
   * changed since the page showed it (another admin saved or published); notFound: no such
   * publication of this business; alreadyLive: that brand is the one customers see now.
   */
  | { ok: false; problem: "forbidden" | "noDraft" | "stale" | "notFound" | "alreadyLive" };

const UUID = CANONICAL_UUID;
export const isBrandId = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

const HEX = /^#[0-9a-f]{6}$/;
const STATIC_LOGO_DIRECTORY = /^\/brands\/[a-z0-9][a-z0-9-]{0,62}$/;
const FALLBACK_LOGO_DIRECTORY = "/brands/default";

type VersionRow = {
  id: string;
  theme: ThemeName;
  brand_colour: string | null;
  tokens: unknown;
  business_name: string;
  label: string;
  logo_asset_id: string | null;
  favicon_asset_id: string | null;
  logo_directory: string;
  created_at: unknown;
  logoType: BrandAssetType | null;
  logoWidth: number | null;
  logoHeight: number | null;
  faviconType: BrandAssetType | null;
};

function selectVersions(db: Db) {
  return db
    .selectFrom("brand_versions")
    .leftJoin("brand_assets as logo_asset", "logo_asset.id", "brand_versions.logo_asset_id")
    .leftJoin("brand_assets as favicon_asset", "favicon_asset.id", "brand_versions.favicon_asset_id")
    .select([
      "brand_versions.id",
      "brand_versions.theme",
      "brand_versions.brand_colour",
      "brand_versions.tokens",
      "brand_versions.business_name",
      "brand_versions.label",
      "brand_versions.logo_asset_id",
      "brand_versions.favicon_asset_id",
      "brand_versions.logo_directory",
      "brand_versions.created_at",
      "logo_asset.content_type as logoType",
      "logo_asset.width as logoWidth",
      "logo_asset.height as logoHeight",
      "favicon_asset.content_type as faviconType",
    ]);
}

async function readVersion(db: Db, businessId: string, versionId: string): Promise<VersionRow | null> {
  if (!isBrandId(versionId)) return null;
  const row = await selectVersions(db)
    .where("brand_versions.id", "=", versionId)
    .where("brand_versions.business_id", "=", businessId)
    .executeTakeFirst();
  return row ?? null;
}

/** A timestamp as the drivers give it (a Date; PGlite and pg agree) in ISO 8601. */
const isoTime = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

function versionView(row: VersionRow): BrandVersionView {
  const tokens = row.brand_colour ? storedBrandTokens(row.tokens) : null;
  return {
    id: row.id,
    theme: row.theme,
    brandColour: tokens ? row.brand_colour : null,
    tokens,
    businessName: row.business_name,
    label: row.label,
    logoAssetId: row.logo_asset_id,
    faviconAssetId: row.favicon_asset_id,
    staticLogoDirectory: row.logo_directory,
    look: lookOf(row),
    createdAt: isoTime(row.created_at),
  };
}

function lookOf(row: VersionRow): BrandLook {
  return {
    theme: row.theme,
    businessName: row.business_name,
    businessLabel: row.label,
    ...brandLook({
      versionId: row.id,
      logoDirectory: row.logo_directory,
      custom: row.brand_colour !== null,
      tokens: row.tokens,
      logoType: row.logo_asset_id ? row.logoType : null,
      logoSize:
        row.logo_asset_id && row.logoWidth !== null && row.logoHeight !== null
          ? { width: row.logoWidth, height: row.logoHeight }
          : null,
      faviconType: row.favicon_asset_id ? row.faviconType : null,
    }),
  };
}

/**
 * Tokens as deriveBrand makes them: exactly the roles of ThemeTokens, each a lower-case #rrggbb,
 * and every WCAG pair passing. Checked again here: the stylesheet and the emails are built from them.
 */
export const isValidTokens = isValidBrandTokens;

/** The look of one version of this business (a preview), or null when it is not one of its versions. */
export async function findBrandVersionLook(db: Db, businessId: string, versionId: string): Promise<BrandLook | null> {
  const row = await readVersion(db, businessId, versionId);
  return row ? lookOf(row) : null;
}

type BusinessBrandRow = {
  id: string;
  name: string;
  label: string;
  theme: ThemeName;
  logo_directory: string;
  brand_version_id: string | null;
};

/** The brand customers see: the published version, else the business's own columns (never published). */
async function publishedVersion(db: Db, business: BusinessBrandRow): Promise<BrandVersionView> {
  if (business.brand_version_id) {
    const row = await readVersion(db, business.id, business.brand_version_id);
    if (row) return versionView(row);
  }
  const staticLogoDirectory = STATIC_LOGO_DIRECTORY.test(business.logo_directory)
    ? business.logo_directory
    : FALLBACK_LOGO_DIRECTORY;
  return {
    id: null,
    theme: business.theme,
    brandColour: null,
    tokens: null,
    businessName: business.name,
    label: business.label,
    logoAssetId: null,
    faviconAssetId: null,
    staticLogoDirectory,
    look: {
      theme: business.theme,
      businessName: business.name,
      businessLabel: business.label,
      ...brandLook({
        versionId: null,
        logoDirectory: staticLogoDirectory,
        custom: false,
        logoType: null,
        faviconType: null,
      }),
    },
    createdAt: null,
  };
}

async function readBusiness(db: Db, businessId: string, lock: boolean): Promise<BusinessBrandRow | null> {
  if (!isBrandId(businessId)) return null;
  let query = db
    .selectFrom("businesses")
    .select(["id", "name", "label", "theme", "logo_directory", "brand_version_id"])
    .where("id", "=", businessId);
  if (lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

async function readDraft(db: Db, businessId: string): Promise<BrandDraftView | null> {
  const draft = await db
    .selectFrom("brand_drafts")
    .leftJoin("contacts", "contacts.id", "brand_drafts.saved_by")
    .select([
      "brand_drafts.version_id",
      "brand_drafts.saved_at",
      "contacts.id as contactId",
      "contacts.first_name",
      "contacts.last_name",
      "contacts.email",
    ])
    .where("brand_drafts.business_id", "=", businessId)
    .executeTakeFirst();
  if (!draft) return null;
  const row = await readVersion(db, businessId, draft.version_id);
  if (!row) return null;
  return {
    ...versionView(row),
    id: row.id,
    savedAt: isoTime(draft.saved_at),
    savedBy: draft.contactId ? person(draft.contactId, draft.first_name, draft.last_name, draft.email) : null,
  };
}

function person(id: string, first: string | null, last: string | null, email: string | null): BrandPerson {
  return { id, name: `${first ?? ""} ${last ?? ""}`.trim(), email: email ?? "" };
}

/** Whether the contact may change this business's brand: verified, enabled, hostAdmin, of this business. */
async function actorIsHostAdmin(db: Db, actor: BrandActor): Promise<boolean> {
  if (!isBrandId(actor.contactId) || !isBrandId(actor.businessId)) return false;
  const contact = await db
    .selectFrom("contacts")
    .select(["permissions", "verified_at", "disabled_at"])
    .where("id", "=", actor.contactId)
    .where("business_id", "=", actor.businessId)
    .executeTakeFirst();
  return Boolean(contact && contact.verified_at && !contact.disabled_at && isHostAdmin(contact));
}

/** The published brand, the draft (if any) and the newest publications of a business. */
export async function getBrandState(businessId: string): Promise<BrandState | null> {
  const db = await getDb();
  const business = await readBusiness(db, businessId, false);
  if (!business) return null;
  const [published, draft, publications] = await Promise.all([
    publishedVersion(db, business),
    readDraft(db, businessId),
    listPublications(db, businessId),
  ]);
  return { published, draft, publications };
}

async function listPublications(db: Db, businessId: string): Promise<BrandPublicationView[]> {
  const rows = await db
    .selectFrom("brand_publications")
    .leftJoin("contacts", "contacts.id", "brand_publications.published_by")
    .select([
      "brand_publications.id",
      "brand_publications.kind",
      "brand_publications.version_id",
      "brand_publications.previous_id",
      "brand_publications.changes",
      "brand_publications.published_at",
      "contacts.id as contactId",
      "contacts.first_name",
      "contacts.last_name",
      "contacts.email",
    ])
    .where("brand_publications.business_id", "=", businessId)
    .orderBy("brand_publications.published_at", "desc")
    .orderBy("brand_publications.id", "desc")
    .limit(PUBLICATIONS_SHOWN)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    versionId: row.version_id,
    previousId: row.previous_id,
    changes: Array.isArray(row.changes) ? row.changes : [],
    publishedAt: isoTime(row.published_at),
    publishedBy: row.contactId ? person(row.contactId, row.first_name, row.last_name, row.email) : null,
  }));
}

type VersionContent = {
  theme: ThemeName;
  brandColour: string | null;
  tokens: ThemeTokens | null;
  businessName: string;
  label: string;
  logoAssetId: string | null;
  faviconAssetId: string | null;
};

const contentOf = (view: BrandVersionView): VersionContent => ({
  theme: view.theme,
  brandColour: view.brandColour,
  tokens: view.tokens,
  businessName: view.businessName,
  label: view.label,
  logoAssetId: view.logoAssetId,
  faviconAssetId: view.faviconAssetId,
});

/** The fields a publication lists, with the values it records for each. */
const CHANGE_FIELDS: [string, (content: VersionContent) => string | null][] = [
  ["theme", (c) => c.theme],
  ["brandColour", (c) => c.brandColour],
  ["businessName", (c) => c.businessName],
  ["label", (c) => c.label],
  ["logo", (c) => c.logoAssetId],
  ["favicon", (c) => c.faviconAssetId],
];

function changesBetween(from: VersionContent, to: VersionContent): BrandChange[] {
  const changes: BrandChange[] = [];
  for (const [field, read] of CHANGE_FIELDS) {
    if (read(from) !== read(to)) changes.push({ field, from: read(from), to: read(to) });
  }
  // The same colour with other derived roles (a newer derivation) is a change too.
  if (from.brandColour === to.brandColour && JSON.stringify(from.tokens) !== JSON.stringify(to.tokens)) {
    changes.push({ field: "tokens", from: from.brandColour, to: to.brandColour });
  }
  return changes;
}

async function assetIsUsable(db: Db, businessId: string, id: string, kind: BrandAssetKind): Promise<boolean> {
  if (!isBrandId(id)) return false;
  const row = await db
    .selectFrom("brand_assets")
    .select("id")
    .where("id", "=", id)
    .where("business_id", "=", businessId)
    .where("kind", "=", kind)
    .executeTakeFirst();
  return Boolean(row);
}

/** The changes applied to `base`, or the fields that are wrong (nothing is written then). */
async function applyChanges(
  db: Db,
  businessId: string,
  base: VersionContent,
  input: BrandDraftChanges,
): Promise<
  { ok: true; content: VersionContent } | { ok: false; fields: Partial<Record<BrandDraftField, BrandFieldProblem>> }
> {
  const fields: Partial<Record<BrandDraftField, BrandFieldProblem>> = {};
  const next = { ...base };
  const changes = (input ?? {}) as Record<string, unknown>;
  if (changes.theme !== undefined) {
    if (isThemeName(changes.theme)) next.theme = changes.theme;
    else fields.theme = "unknownTheme";
  }
  if (changes.brandColour !== undefined || changes.tokens !== undefined) {
    if (changes.brandColour === null && (changes.tokens === null || changes.tokens === undefined)) {
      next.brandColour = null;
      next.tokens = null;
    } else if (
      typeof changes.brandColour === "string" &&
      HEX.test(changes.brandColour) &&
      isValidTokens(changes.tokens)
    ) {
      next.brandColour = changes.brandColour;
      next.tokens = changes.tokens;
    } else {
      fields.brandColour = "invalidColour";
    }
  }
  if (changes.businessName !== undefined) {
    const name = checkBrandText(changes.businessName, { max: BRAND_NAME_MAX_LENGTH, required: true });
    if (name.ok) next.businessName = name.value;
    else fields.businessName = name.problem;
  }
  if (changes.label !== undefined) {
    const label = checkBrandText(changes.label, { max: BRAND_LABEL_MAX_LENGTH, required: false });
    if (label.ok) next.label = label.value;
    else fields.label = label.problem;
  }
  for (const [field, kind, key] of [
    ["logoAssetId", "logo", "logoAssetId"],
    ["faviconAssetId", "favicon", "faviconAssetId"],
  ] as const) {
    const value = changes[field];
    if (value === undefined) continue;
    if (value === null) next[key] = null;
    else if (typeof value === "string" && (await assetIsUsable(db, businessId, value, kind))) next[key] = value;
    else fields[field] = "unknownAsset";
  }
  return Object.keys(fields).length ? { ok: false, fields } : { ok: true, content: next };
}

const sameContent = (a: VersionContent, b: VersionContent) =>
  CHANGE_FIELDS.every(([, read]) => read(a) === read(b)) && JSON.stringify(a.tokens) === JSON.stringify(b.tokens);

async function insertVersion(
  db: Db,
  businessId: string,
  content: VersionContent,
  staticLogoDirectory: string,
  createdBy: string | null,
): Promise<string> {
  const row = await db
    .insertInto("brand_versions")
    .values({
      business_id: businessId,
      theme: content.theme,
      brand_colour: content.tokens ? content.brandColour : null,
      tokens: content.tokens && content.brandColour ? JSON.stringify(content.tokens) : null,
      business_name: content.businessName,
      label: content.label,
      logo_asset_id: content.logoAssetId,
      favicon_asset_id: content.faviconAssetId,
      logo_directory: staticLogoDirectory,
      created_by: createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Saves a draft: a new version made of the current draft (else the published brand) plus
 * `changes`, which brand_drafts then points at. Customers see nothing of it. Nothing is written
 * when a field is wrong, or when the draft already says exactly this (`changed: false`).
 */
export async function saveDraft(actor: BrandActor, changes: BrandDraftChanges): Promise<SaveDraftResult> {
  const db = await getDb();
  return db.transaction().execute(async (tx): Promise<SaveDraftResult> => {
    // Saves of one business queue behind each other, and behind a publish.
    const business = await readBusiness(tx, actor.businessId, true);
    if (!business || !(await actorIsHostAdmin(tx, actor))) return { ok: false, problem: "forbidden" };
    const current = (await readDraft(tx, business.id)) ?? (await publishedVersion(tx, business));
    const applied = await applyChanges(tx, business.id, contentOf(current), changes);
    if (!applied.ok) return { ok: false, problem: "invalid", fields: applied.fields };
    const existingDraft = "savedAt" in current ? (current as BrandDraftView) : null;
    if (existingDraft && sameContent(applied.content, contentOf(existingDraft))) {
      return { ok: true, draft: existingDraft, changed: false };
    }
    const versionId = await insertVersion(
      tx,
      business.id,
      applied.content,
      current.staticLogoDirectory,
      actor.contactId,
    );
    await tx
      .insertInto("brand_drafts")
      .values({ business_id: business.id, version_id: versionId, saved_by: actor.contactId })
      .onConflict((oc) =>
        oc.column("business_id").doUpdateSet({ version_id: versionId, saved_by: actor.contactId, saved_at: now() }),
      )
      .execute();
    const draft = await readDraft(tx, business.id);
    return { ok: true, draft: draft!, changed: true };
  });
}

/** Drops the draft (the published brand stays as it is). */
export async function discardDraft(actor: BrandActor): Promise<{ ok: boolean }> {
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    const business = await readBusiness(tx, actor.businessId, true);
    if (!business || !(await actorIsHostAdmin(tx, actor))) return { ok: false };
    await tx.deleteFrom("brand_drafts").where("business_id", "=", business.id).execute();
    return { ok: true };
  });
}

/**
 * Makes `versionId` the brand customers see: inside the caller's transaction, with the business's
 * row locked. The first publish of a business first keeps its columns as a version of their own,
 * so that it can be rolled back to.
 */
async function makeLive(
  tx: Transaction<DB>,
  business: BusinessBrandRow,
  target: VersionRow,
  kind: "publish" | "rollback",
  actor: BrandActor,
): Promise<BrandPublicationView> {
  const before = await publishedVersion(tx, business);
  const previousId =
    before.id ?? (await insertVersion(tx, business.id, contentOf(before), before.staticLogoDirectory, actor.contactId));
  const after = versionView(target);
  const changes = changesBetween(contentOf(before), contentOf(after));
  const publication = await tx
    .insertInto("brand_publications")
    .values({
      business_id: business.id,
      version_id: target.id,
      previous_id: previousId,
      kind,
      changes: JSON.stringify(changes),
      published_by: actor.contactId,
      client_ip: (actor.clientIp ?? "").slice(0, 64),
    })
    .returning(["id", "published_at"])
    .executeTakeFirstOrThrow();
  await tx
    .updateTable("businesses")
    .set({
      brand_version_id: target.id,
      theme: after.theme,
      name: after.businessName,
      label: after.label,
      logo_directory: after.look.logoDirectory,
    })
    .where("id", "=", business.id)
    .execute();
  const publisher = await tx
    .selectFrom("contacts")
    .select(["id", "first_name", "last_name", "email"])
    .where("id", "=", actor.contactId)
    .executeTakeFirst();
  return {
    id: publication.id,
    kind,
    versionId: target.id,
    previousId,
    changes,
    publishedAt: isoTime(publication.published_at),
    publishedBy: publisher ? person(publisher.id, publisher.first_name, publisher.last_name, publisher.email) : null,
  };
}

/** The audit event of a publish or roll back, after its commit: the publication row is the record, so a failure here is logged, not the admin's error. */
async function recordPublication(actor: BrandActor, publication: BrandPublicationView) {
  try {
    await audit({
      businessId: actor.businessId,
      contactId: actor.contactId,
      action: publication.kind === "publish" ? "brand.publish" : "brand.rollback",
      clientIp: actor.clientIp,
      details: {
        publicationId: publication.id,
        versionId: publication.versionId,
        previousId: publication.previousId,
        changes: publication.changes,
      },
    });
  } catch (error) {
    logger.error("brand publication not written to the audit log (brand_publications has it)", {
      businessId: actor.businessId,
      publicationId: publication.id,
      error,
    });
  }
}

/**
 * Publishes the draft the admin was shown (`expectedDraftId`; another draft saved meanwhile is
 * `stale`, nothing published). The draft then is the live brand and no longer a draft.
 */
export async function publishDraft(actor: BrandActor, input: { expectedDraftId: string }): Promise<PublishResult> {
  const db = await getDb();
  const result = await db.transaction().execute(async (tx): Promise<PublishResult> => {
    const business = await readBusiness(tx, actor.businessId, true);
    if (!business || !(await actorIsHostAdmin(tx, actor))) return { ok: false, problem: "forbidden" };
    const draft = await tx
      .selectFrom("brand_drafts")
      .select("version_id")
      .where("business_id", "=", business.id)
      .executeTakeFirst();
    if (!draft) return { ok: false, problem: "noDraft" };
    if (!isBrandId(input?.expectedDraftId) || draft.version_id !== input.expectedDraftId) {
      return { ok: false, problem: "stale" };
    }
    const target = await readVersion(tx, business.id, draft.version_id);
    if (!target) return { ok: false, problem: "noDraft" };
    const publication = await makeLive(tx, business, target, "publish", actor);
    await tx.deleteFrom("brand_drafts").where("business_id", "=", business.id).execute();
    return { ok: true, publication };
  });
  if (result.ok) await recordPublication(actor, result.publication);
  return result;
}

/**
 * Restores the brand that was live before `publicationId` (one of this business's): publishes
 * that version again, as a "rollback" publication. The draft, if any, is left alone.
 */
export async function rollBack(
  actor: BrandActor,
  /**
   * expectedLiveVersionId: the live version the page showed (null: none yet). Another admin's
   * publish since then makes this `stale`, never silently undone.
   */
  input: { publicationId: string; expectedLiveVersionId: string | null },
): Promise<PublishResult> {
  const db = await getDb();
  const result = await db.transaction().execute(async (tx): Promise<PublishResult> => {
    const business = await readBusiness(tx, actor.businessId, true);
    if (!business || !(await actorIsHostAdmin(tx, actor))) return { ok: false, problem: "forbidden" };
    if (!isBrandId(input?.publicationId)) return { ok: false, problem: "notFound" };
    const publication = await tx
      .selectFrom("brand_publications")
      .select(["previous_id"])
      .where("id", "=", input.publicationId)
      .where("business_id", "=", business.id)
      .executeTakeFirst();
    if (!publication?.previous_id) return { ok: false, problem: "notFound" };
    if (publication.previous_id === business.brand_version_id) return { ok: false, problem: "alreadyLive" };
    if ((input.expectedLiveVersionId ?? null) !== (business.brand_version_id ?? null)) {
      return { ok: false, problem: "stale" };
    }
    const target = await readVersion(tx, business.id, publication.previous_id);
    if (!target) return { ok: false, problem: "notFound" };
    return { ok: true, publication: await makeLive(tx, business, target, "rollback", actor) };
  });
  if (result.ok) await recordPublication(actor, result.publication);
  return result;
}

/**
 * Lets this session see `versionId` (a version of its business) on every page instead of the
 * published brand. Only a verified host admin's session may; anything else changes nothing.
 */
export async function startPreview(session: PortalSession, versionId: string): Promise<boolean> {
  if (!session.contact.verified || !isHostAdmin(session.contact) || !isBrandId(versionId)) return false;
  const db = await getDb();
  const version = await readVersion(db, session.businessId, versionId);
  if (!version) return false;
  await updateSessionData(session, { brandPreview: versionId });
  return true;
}

/** Back to the published brand for this session. */
export async function stopPreview(session: PortalSession): Promise<void> {
  if (session.data.brandPreview === undefined) return;
  await updateSessionData(session, { brandPreview: undefined });
}
