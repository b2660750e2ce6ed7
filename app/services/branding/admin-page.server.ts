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
