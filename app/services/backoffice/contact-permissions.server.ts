import { HOST_ADMIN_PERMISSION, PORTAL_PERMISSION } from "../auth/access.server";
import {
  contactPermissionsView as view,
  findBusinessContact,
  lockBusinessContact,
  writeContactPermission,
  type ContactPermissionsView,
} from "../auth/contact-permissions.server";
import { audit } from "../platform/audit.server";
import { getDb } from "../platform/database.server";
import { invalid, RequestProblem } from "../platform/problems.server";
import type { CommitHook } from "./api.server";

/**
 * A contact's permissions, from the back office (issue 16; decision 032's API): read, grant and
 * revoke `accessCustomerPortal` and `hostAdmin`. A contact is named by id or email address, and
 * only a contact of the calling key's business is ever found (another business's: 404, exactly
 * like one that does not exist). Granting what is held, or revoking what is not, is no change
 * (`changed: false`), not an error, so a retried call is harmless.
 */
export const GRANTABLE_PERMISSIONS = [PORTAL_PERMISSION, HOST_ADMIN_PERMISSION] as const;
export type GrantablePermission = (typeof GRANTABLE_PERMISSIONS)[number];

export type { ContactPermissionsView };

const notFound = () => new RequestProblem("not-found", "No such contact.");

export async function getContactPermissions(businessId: string, contact: unknown): Promise<ContactPermissionsView> {
  if (typeof contact !== "string") throw notFound();
  const query = findBusinessContact(await getDb(), businessId, contact);
  const row = query ? await query.executeTakeFirst() : undefined;
  if (!row) throw notFound();
  return view(row);
}

/** Grants or revokes one permission, in one statement under the contact's row lock; audited. */
export async function changeContactPermission(
  businessId: string,
  contact: unknown,
  body: Record<string, unknown>,
  change: "grant" | "revoke",
  options: { beforeCommit?: CommitHook; keyId?: string } = {},
): Promise<{ contact: ContactPermissionsView; permission: GrantablePermission; changed: boolean }> {
  const unknown = Object.keys(body).filter((name) => name !== "permission");
  if (unknown.length) {
    throw invalid(
      Object.fromEntries(
        unknown.slice(0, 10).map((name) => [name.slice(0, 60), "This field is not part of the call."]),
      ),
    );
  }
  const permission = GRANTABLE_PERMISSIONS.find((p) => p === body.permission);
  if (!permission) {
    throw invalid({ permission: `Give one of: ${GRANTABLE_PERMISSIONS.join(", ")}.` });
  }
  if (typeof contact !== "string") throw notFound();
  const db = await getDb();
  const result = await db.transaction().execute(async (tx) => {
    const row = await lockBusinessContact(tx, businessId, contact);
    if (!row) throw notFound();
    const written = await writeContactPermission(tx, row, permission, change);
    await options.beforeCommit?.(tx, row.id);
    return written;
  });
  if (result.changed) {
    await audit({
      businessId,
      contactId: result.row.id,
      action: change === "grant" ? "contact.permission.grant" : "contact.permission.revoke",
      details: { permission, by: "back-office", keyId: options.keyId ?? null },
    });
  }
  return { contact: view(result.row), permission, changed: result.changed };
}
