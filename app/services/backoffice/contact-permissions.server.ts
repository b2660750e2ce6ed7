import { sql } from "kysely";
import { HOST_ADMIN_PERMISSION, PORTAL_PERMISSION } from "../auth/access.server";
import { audit } from "../platform/audit.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { invalid, RequestProblem } from "../platform/problems.server";
import type { CommitHook } from "./api.server";
import { UUID } from "~/lib/ids";

/**
 * A contact's permissions, from the back office (issue 16; decision 032's API): read, grant and
 * revoke `accessCustomerPortal` and `hostAdmin`. A contact is named by id or email address, and
 * only a contact of the calling key's business is ever found (another business's: 404, exactly
 * like one that does not exist). Granting what is held, or revoking what is not, is no change
 * (`changed: false`), not an error, so a retried call is harmless.
 */
export const GRANTABLE_PERMISSIONS = [PORTAL_PERMISSION, HOST_ADMIN_PERMISSION] as const;
export type GrantablePermission = (typeof GRANTABLE_PERMISSIONS)[number];

export type ContactPermissionsView = {
  id: string;
  email: string;
  name: string;
  verified: boolean;
  disabled: boolean;
  permissions: string[];
};

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

const notFound = () => new RequestProblem("not-found", "No such contact.");

function findContact(db: Db, businessId: string, contact: string) {
  const byId = UUID.test(contact);
  if (!byId && !EMAIL.test(contact)) return null;
  const query = db
    .selectFrom("contacts")
    .select(["id", "email", "first_name", "last_name", "verified_at", "disabled_at", "permissions"])
    .where("business_id", "=", businessId);
  return byId
    ? query.where("id", "=", contact.toLowerCase())
    : query.where(sql<string>`lower(email)`, "=", contact.toLowerCase());
}

type ContactRow = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  verified_at: unknown;
  disabled_at: unknown;
  permissions: string[];
};

const view = (row: ContactRow): ContactPermissionsView => ({
  id: row.id,
  email: row.email,
  name: `${row.first_name} ${row.last_name}`.trim(),
  verified: row.verified_at !== null,
  disabled: row.disabled_at !== null,
  permissions: [...row.permissions].sort(),
});

export async function getContactPermissions(businessId: string, contact: unknown): Promise<ContactPermissionsView> {
  if (typeof contact !== "string") throw notFound();
  const query = findContact(await getDb(), businessId, contact);
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
    const query = findContact(tx, businessId, contact);
    const row = query ? await query.forUpdate().executeTakeFirst() : undefined;
    if (!row) throw notFound();
    const holds = row.permissions.includes(permission);
    const changed = change === "grant" ? !holds : holds;
    let permissions = row.permissions;
    if (changed) {
      permissions =
        change === "grant" ? [...row.permissions, permission] : row.permissions.filter((p) => p !== permission);
      await tx.updateTable("contacts").set({ permissions }).where("id", "=", row.id).execute();
    }
    await options.beforeCommit?.(tx, row.id);
    return { row: { ...row, permissions }, changed };
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
