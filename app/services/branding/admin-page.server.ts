import type { BrandChangeView, BrandDraftInput, BrandSummary } from "~/lib/brand-admin";
import { CUSTOM_COLOUR_CHOICE } from "~/lib/brand-admin";
import { deriveBrand, parseBrandColour, themeChecks, type PairCheck } from "~/lib/brand-colours";
import { BRAND_FORM_MAX_BYTES, BRAND_UPLOAD_KINDS, type BrandUploadKind } from "~/lib/brand-uploads";
import type { MessageKey } from "~/lib/i18n";
import { themeTokens } from "~/themes/tokens";
import { isUuid } from "~/lib/link-paths";
import { pageNotFound, requireSession } from "../auth/auth.server";
import { isHostAdmin } from "../auth/access.server";
import type { PortalSession } from "../auth/session.server";
import type { HostBranding } from "../host/host.server";
import { getDb } from "../platform/database.server";
import {
  checkBrandUpload,
  readBrandForm,
  storeBrandAsset,
  type BrandUploadFile,
  type CheckedBrandAsset,
} from "./brand-assets.server";
import { getBrandState, publishDraft, rollBack, saveDraft, startPreview, stopPreview } from "./brands.server";

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
  return { ...context, actor: { businessId: context.branding.businessId, contactId: contact.id } };
}

export type BrandAdminActor = Awaited<ReturnType<typeof requireHostAdminPage>>["actor"];

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
  | {
      ok: false;
      fieldErrors: Record<string, string[]>;
      suggestion: string | null;
      checks: PairCheck[] | null;
    };

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
  let brandColour: string | null = null;
  if (input.theme === CUSTOM_COLOUR_CHOICE) {
    // A typed colour wins over the picker's (which a browser always sends).
    const raw = input.brandColour?.trim() ? input.brandColour : input.brandColourPicker;
    brandColour = parseBrandColour(raw);
    if (!brandColour) {
      fieldErrors.brandColour = ["branding.error.colour.invalid" satisfies MessageKey];
    } else {
      const derived = deriveBrand(brandColour);
      if (!derived.ok) {
        fieldErrors.brandColour = ["branding.error.colour.refused" satisfies MessageKey];
        suggestion = derived.suggestion;
        checks = derived.checks;
      }
    }
  }
  const assets: Partial<Record<BrandUploadKind, CheckedBrandAsset>> = {};
  for (const kind of BRAND_UPLOAD_KINDS) {
    const file = files[kind];
    if (!file) continue;
    const checked = await checkBrandUpload(kind, file);
    if (checked.ok) assets[kind] = checked.asset;
    else fieldErrors[kind] = [`branding.error.upload.${checked.problem}` satisfies MessageKey];
  }
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors, suggestion, checks };

  const db = await getDb();
  const assetIds: Partial<Record<BrandUploadKind, string>> = {};
  for (const kind of BRAND_UPLOAD_KINDS) {
    const asset = assets[kind];
    if (asset) assetIds[kind] = await storeBrandAsset(db, { ...actor, kind, asset });
  }
  await saveDraft(actor, {
    theme: input.theme === CUSTOM_COLOUR_CHOICE ? undefined : input.theme,
    brandColour,
    businessName: input.businessName,
    label: input.label ?? "",
    logoAssetId: assetIds.logo,
    faviconAssetId: assetIds.favicon,
  });
  return { ok: true };
}
