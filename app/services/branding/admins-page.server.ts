import type { MessageKey } from "~/lib/i18n";
import { pageNotFound } from "../auth/auth.server";
import {
  findBusinessContactById,
  grantHostAdmin,
  listHostAdmins,
  removeHostAdmin,
  type HostAdminActor,
} from "../auth/host-admins.server";
import type { HostBranding } from "../host/host.server";

/**
 * The logic of /admin/admins (issue 32; decision 080): who is a host admin of this business, the
 * one-step confirmation of a removal (`?remove=<id>`, a page of its own, with or without
 * JavaScript), and what the page says after a change (`?done=…&contact=<id>`, POST/redirect/GET).
 * The caller has passed requireHostAdminPage; the rules themselves live in auth/host-admins.server.ts.
 */
const DONE = ["granted", "already", "removed"] as const;
type Done = (typeof DONE)[number];

export async function hostAdminsView(branding: HostBranding, actor: HostAdminActor, query: URLSearchParams) {
  const { admins, more } = await listHostAdmins(branding.businessId);
  const removeId = query.get("remove");
  let askRemove: { id: string; name: string; email: string } | null = null;
  let refusal: MessageKey | null = null;
  if (removeId !== null) {
    // Only an admin of this business can be asked about: any other id is a page that is not there.
    const contact = await findBusinessContactById(branding.businessId, removeId);
    if (!contact?.hostAdmin) throw pageNotFound();
    if (contact.id === actor.contactId) refusal = "admins.error.self";
    else askRemove = { id: contact.id, name: contact.name || contact.email, email: contact.email };
  }
  const doneKind = query.get("done");
  let done: { kind: Done; name: string } | null = null;
  if (DONE.some((kind) => kind === doneKind)) {
    const contact = await findBusinessContactById(branding.businessId, query.get("contact"));
    if (contact) done = { kind: doneKind as Done, name: contact.name || contact.email };
  }
  return {
    businessName: branding.businessName,
    you: actor.contactId,
    admins,
    more,
    askRemove,
    refusal,
    done,
  };
}

export type GrantOutcome = { ok: true; location: string } | { ok: false; emailError: MessageKey };

/** Makes the contact with that email address an admin; where the page goes next, or the field's error. */
export async function grantHostAdminByEmail(actor: HostAdminActor, email: string): Promise<GrantOutcome> {
  const result = await grantHostAdmin(actor, email);
  if (!result.ok) {
    if (result.problem === "forbidden") throw pageNotFound();
    return { ok: false, emailError: "admins.error.email.notFound" };
  }
  const done = result.changed ? "granted" : "already";
  return { ok: true, location: `/admin/admins?done=${done}&contact=${result.contact.id}` };
}

export type RemoveOutcome = { ok: true; location: string } | { ok: false; message: MessageKey; name: string };

/** Takes admin away from another contact; where the page goes next, or why it was refused. */
export async function removeHostAdminById(actor: HostAdminActor, contactId: string): Promise<RemoveOutcome> {
  const result = await removeHostAdmin(actor, contactId);
  if (result.ok) return { ok: true, location: `/admin/admins?done=removed&contact=${result.contact.id}` };
  // Not an admin of this business (another business's id, or none): 404, as for any page not there.
  if (result.problem === "forbidden" || result.problem === "notFound") throw pageNotFound();
  const contact = await findBusinessContactById(actor.businessId, contactId);
  return {
    ok: false,
    message: result.problem === "self" ? "admins.error.self" : "admins.error.lastAdmin",
    name: contact ? contact.name || contact.email : "",
  };
}
