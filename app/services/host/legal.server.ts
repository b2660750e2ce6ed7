import { data } from "@remix-run/node";
import { getDb } from "../platform/database.server";
import { getLegalDocument, type LegalDocument } from "./host.server";
import { requireHostBranding, serviceUnavailable } from "./tenant.server";

/** A host's privacy policy or terms; 404 when the business has not published one. */
export async function loadLegalPage(request: Request, document: LegalDocument) {
  const branding = await requireHostBranding(request);
  let content: string | null;
  try {
    content = await getLegalDocument(await getDb(), branding.businessId, document);
  } catch {
    throw serviceUnavailable();
  }
  if (!content || content.trim() === "") throw data({ reason: "not-published" }, { status: 404 });
  return { content, businessName: branding.businessName };
}
