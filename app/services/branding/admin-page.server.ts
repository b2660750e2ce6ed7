import type {
  AdminHistoryEntry,
  BrandChangeView,
  BrandHistoryEntry,
  BrandSummary,
  PublicationHistoryEntry,
} from "~/lib/brand-admin";
import { pageDates } from "../host/language.server";
import type { BrandDraftInput } from "~/lib/brand-draft-schema";
import { CUSTOM_COLOUR_CHOICE } from "~/lib/brand-admin";
import { deriveBrand, parseBrandColour, themeChecks, type PairCheck } from "~/lib/brand-colours";
import { BRAND_FORM_MAX_BYTES, BRAND_UPLOAD_KINDS, type BrandUploadKind } from "~/lib/brand-uploads";
import type { MessageKey } from "~/lib/i18n";
import { THEME_NAMES, type ThemeName } from "~/themes/names";
import { themeTokens, type ThemeColors } from "~/themes/tokens";
import { pageNotFound, requireSession } from "../auth/auth.server";
import { isHostAdmin } from "../auth/access.server";
import { listHostAdminChanges, type HostAdminChange } from "../auth/host-admins.server";
import type { PortalSession } from "../auth/session.server";
import type { HostBranding } from "../host/host.server";
import { getDb } from "../platform/database.server";
import { clientAddress } from "../platform/request-context.server";
import {
  checkBrandUpload,
  readBrandForm,
  storeBrandAsset,
  type BrandUploadFile,
  type CheckedBrandAsset,
} from "./brand-assets.server";
import {
  discardDraft,
  findBrandVersionLook,
  getBrandState,
  isBrandId,
  PUBLICATIONS_SHOWN,
  publishDraft,
  rollBack,
  saveDraft,
  startPreview,
  stopPreview,
  type BrandDraftChanges,
  type BrandVersionView,
  type PublishResult,
} from "./brands.server";

/**
 * The host admin's pages (/admin/*, issue 16): a signed-in, verified contact of this host's
 * business holding hostAdmin, else the usual "Page not found" (404), which reveals nothing
 * about the page. Every loader and every action starts here.
 */
export async function requireHostAdminPage(request: Request) {
  const context = await requireSession(request);
  const contact = context.session.contact;
  if (!contact.verified || contact.businessId !== context.branding.businessId || !isHostAdmin(contact)) {
    throw pageNotFound();
  }
  return {
    ...context,
    actor: { businessId: context.branding.businessId, contactId: contact.id, clientIp: clientAddress(request) },
  };
}

export type BrandAdminActor = Awaited<ReturnType<typeof requireHostAdminPage>>["actor"];

function summaryOf(version: BrandVersionView): BrandSummary {
  return {
    versionId: version.id,
    theme: version.theme,
    brandColour: version.brandColour,
    businessName: version.businessName,
    label: version.label,
    logoUrl: version.look.logoUrl,
    faviconUrl: version.look.faviconUrl,
  };
}

/** The pairs a brand renders, measured: a custom colour's derived roles, else its theme's. */
function checksOf(version: BrandVersionView): PairCheck[] {
  return themeChecks(version.brandColour && version.tokens ? version.tokens : themeTokens[version.theme]);
}

/** What publishing the draft would change, field by field, as the history will record it. */
function draftChanges(published: BrandVersionView, draft: BrandVersionView): BrandChangeView[] {
  const fields: [string, (version: BrandVersionView) => string | null][] = [
    // The colours customers see are a theme or a custom colour (which replaces the theme's
    // colours): one line that names both sides, never "Brand colour: (none) → #0f766e".
    ["look", (v) => (v.brandColour ? `colour:${v.brandColour}` : `theme:${v.theme}`)],
    ["businessName", (v) => v.businessName],
    ["label", (v) => v.label],
    ["logo", (v) => v.logoAssetId],
    ["favicon", (v) => v.faviconAssetId],
  ];
  return fields
    .filter(([, read]) => read(published) !== read(draft))
    .map(([field, read]) => ({ field, from: read(published), to: read(draft) }));
}

const personLabel = (person: { name: string; email: string } | null) => person?.name || person?.email || null;

/** Everything /admin/branding shows: the live brand, the draft, its changes, the history. */
export async function brandAdminView(request: Request, branding: HostBranding) {
  const [state, adminChanges, { dateTime }] = await Promise.all([
    getBrandState(branding.businessId),
    listHostAdminChanges(branding.businessId, PUBLICATIONS_SHOWN),
    // When something happened: the business's time zone, the page's language (decision 078).
    pageDates(request, branding),
  ]);
  if (!state) throw pageNotFound();
  const { published, draft } = state;
  const latest = state.publications[0];
  const publications = state.publications.map((publication) => ({
    sortAt: publication.publishedAt,
    entry: {
      id: publication.id,
      kind: publication.kind,
      at: dateTime(publication.publishedAt),
      by: personLabel(publication.publishedBy),
      changes: publication.changes,
      // "Restore" is offered on the newest publication: one step back to the brand before it.
      restorable: publication === latest && publication.previousId !== null && publication.previousId !== published.id,
    } satisfies PublicationHistoryEntry,
  }));
  const admins = adminChanges.map((change: HostAdminChange) => ({
    sortAt: change.at,
    entry: {
      id: `admin-${change.id}`,
      kind: change.change === "grant" ? "adminGranted" : "adminRemoved",
      at: dateTime(change.at),
      by: personLabel(change.by),
      byBackOffice: change.byBackOffice,
      whom: personLabel(change.contact),
    } satisfies AdminHistoryEntry,
  }));
  // One history, newest first: the brand's publications and the changes of who may publish it.
  const history: BrandHistoryEntry[] = [...publications, ...admins]
    .sort((a, b) => (a.sortAt < b.sortAt ? 1 : a.sortAt > b.sortAt ? -1 : 0))
    .slice(0, PUBLICATIONS_SHOWN)
    .map(({ entry }) => entry);
  return {
    published: summaryOf(published),
    draft: draft ? { ...summaryOf(draft), savedAt: dateTime(draft.savedAt) } : null,
    changes: draft ? draftChanges(published, draft) : [],
    checks: checksOf(draft ?? published),
    previewing: branding.preview !== null,
    history,
  };
}

/** The branding form's body (multipart with files, or a small URL-encoded one), capped. */
export async function readBrandAdminForm(request: Request) {
  const form = await readBrandForm(request, BRAND_FORM_MAX_BYTES);
  if (!form.ok) return form;
  const formData = new URLSearchParams();
  for (const [name, value] of Object.entries(form.fields)) formData.append(name, value);
  return { ok: true as const, fields: form.fields, files: form.files, formData };
}

export type SaveOutcome =
  | { ok: true }
  | { ok: false; fieldErrors: Record<string, string[]>; suggestion: string | null; checks: PairCheck[] | null };

/** The form field and message of each problem the brand service reports. */
const SERVICE_PROBLEMS: Record<string, { field: string; key: (problem: string) => MessageKey }> = {
  theme: { field: "theme", key: () => "branding.error.theme.unknownTheme" },
  brandColour: { field: "brandColour", key: () => "branding.error.colour.invalid" },
  tokens: { field: "brandColour", key: () => "branding.error.colour.invalid" },
  businessName: { field: "businessName", key: textProblemKey },
  label: { field: "label", key: textProblemKey },
  logoAssetId: { field: "logo", key: () => "branding.error.upload.unknownAsset" },
  faviconAssetId: { field: "favicon", key: () => "branding.error.upload.unknownAsset" },
};

function textProblemKey(problem: string): MessageKey {
  if (problem === "required") return "branding.error.businessName.required";
  if (problem === "tooLong") return "branding.error.text.tooLong";
  return "branding.error.businessName.invalidText";
}

/**
 * Saves the draft: every check first (the colour derived, each upload identified by its
 * content), so a refused field writes nothing; then the uploads are stored and the draft
 * written. Customers see nothing of it (brands.server.ts keeps drafts out of their pages).
 */
export async function saveBrandDraft(
  actor: BrandAdminActor,
  input: BrandDraftInput,
  files: Partial<Record<BrandUploadKind, BrandUploadFile>>,
): Promise<SaveOutcome> {
  const fieldErrors: Record<string, string[]> = {};
  let suggestion: string | null = null;
  let checks: PairCheck[] | null = null;
  const changes: BrandDraftChanges = { businessName: input.businessName, label: input.label ?? "" };
  if (input.theme === CUSTOM_COLOUR_CHOICE) {
    // A typed colour wins over the picker's (which a browser always sends).
    const raw = input.brandColour?.trim() ? input.brandColour : input.brandColourPicker;
    const colour = parseBrandColour(raw);
    const derived = colour ? deriveBrand(colour) : null;
    if (!colour || !derived) {
      fieldErrors.brandColour = ["branding.error.colour.invalid" satisfies MessageKey];
    } else if (!derived.ok) {
      fieldErrors.brandColour = ["branding.error.colour.refused" satisfies MessageKey];
      suggestion = derived.suggestion;
      checks = derived.checks;
    } else {
      changes.brandColour = colour;
      changes.tokens = derived.tokens;
    }
  } else {
    changes.theme = input.theme;
    changes.brandColour = null;
    changes.tokens = null;
  }
  const assets: Partial<Record<BrandUploadKind, CheckedBrandAsset>> = {};
  for (const kind of BRAND_UPLOAD_KINDS) {
    const file = files[kind];
    if (!file) continue;
    const checked = await checkBrandUpload(kind, file);
    if (checked.ok) assets[kind] = checked.asset;
    else fieldErrors[kind] = [`branding.error.upload.${checked.problem}` as MessageKey];
  }
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors, suggestion, checks };

  const db = await getDb();
  for (const kind of BRAND_UPLOAD_KINDS) {
    const asset = assets[kind];
    if (!asset) continue;
    const id = await storeBrandAsset(db, { businessId: actor.businessId, contactId: actor.contactId, kind, asset });
    if (kind === "logo") changes.logoAssetId = id;
    else changes.faviconAssetId = id;
  }
  const saved = await saveDraft(actor, changes);
  if (saved.ok) return { ok: true };
  if (saved.problem === "forbidden") throw pageNotFound();
  for (const [name, problem] of Object.entries(saved.fields)) {
    const known = Object.hasOwn(SERVICE_PROBLEMS, name) ? SERVICE_PROBLEMS[name] : undefined;
    if (known && problem) fieldErrors[known.field] = [known.key(problem)];
  }
  return { ok: false, fieldErrors, suggestion: null, checks: null };
}

type PublishOutcome = { ok: true } | { ok: false; message: MessageKey };

function publishOutcome(result: PublishResult, staleMessage: MessageKey): PublishOutcome {
  if (result.ok) return { ok: true };
  if (result.problem === "forbidden") throw pageNotFound();
  const messages: Record<Exclude<typeof result.problem, "forbidden">, MessageKey> = {
    noDraft: "branding.error.publish.none",
    stale: staleMessage,
    notFound: "branding.error.publish.notFound",
    alreadyLive: "branding.error.publish.alreadyLive",
  };
  return { ok: false, message: messages[result.problem] };
}

/** Publishes the draft the page showed; the session's preview of it ends (it is live now). */
export async function publishBrandDraft(actor: BrandAdminActor, session: PortalSession, draftId: unknown) {
  const outcome = publishOutcome(
    await publishDraft(actor, { expectedDraftId: typeof draftId === "string" ? draftId : "" }),
    "branding.error.publish.stale",
  );
  if (outcome.ok) await stopPreview(session);
  return outcome;
}

/** Drops the draft; the published brand stays. False when this contact may not (no longer a host admin). */
export async function discardBrandDraft(actor: BrandAdminActor, session: PortalSession) {
  const { ok } = await discardDraft(actor);
  if (ok) await stopPreview(session);
  return ok;
}

/**
 * Restores the brand that was live before a publication, in one step, provided the live brand
 * is still the one the page showed (`liveVersionId`; empty when none was published yet).
 */
export async function restoreBrand(actor: BrandAdminActor, publicationId: unknown, liveVersionId: unknown) {
  return publishOutcome(
    await rollBack(actor, {
      publicationId: typeof publicationId === "string" ? publicationId : "",
      expectedLiveVersionId: typeof liveVersionId === "string" && liveVersionId !== "" ? liveVersionId : null,
    }),
    "branding.error.restore.stale",
  );
}

export function startBrandPreview(session: PortalSession, versionId: unknown) {
  return startPreview(session, typeof versionId === "string" ? versionId : "");
}

export function stopBrandPreview(session: PortalSession) {
  return stopPreview(session);
}

/** A version of this business (a shared preview link's), or null: never another business's. */
export async function findBrandVersionOf(businessId: string, versionId: unknown) {
  if (!isBrandId(versionId)) return null;
  const look = await findBrandVersionLook(await getDb(), businessId, versionId);
  return look ? { id: versionId } : null;
}

/** For each of the fifteen themes, its colour roles to show as a swatch. */
const THEME_SWATCHES: Readonly<Record<ThemeName, Readonly<ThemeColors>>> = Object.fromEntries(
  THEME_NAMES.map((name) => [name, { ...themeTokens[name].colors }]),
) as Record<ThemeName, ThemeColors>;

/** The fifteen themes' colour roles for the swatches, sent with the page (the theme tokens stay here). */
export function themeSwatches() {
  return THEME_SWATCHES;
}
