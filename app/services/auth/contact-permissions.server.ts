import { sql } from "kysely";
import { UUID } from "~/lib/ids";
import type { Db } from "../platform/db.server";
import { PORTAL_PERMISSION } from "./access.server";

/**
 * A contact's permissions, as the back office (its API) and a host admin (/admin/admins) change them
 * (issue 16; issue 32, decision 080): finding a contact of one business by id or email address, and
 * adding or taking away one permission under the contact's row lock. Only a contact of the given
 * business is ever found; another business's is exactly like one that does not exist. Each caller
 * keeps its own rules around this (the API's body and key; the admin screen's "never yourself,
 * never the last admin") and records the change in the audit log.
 */
export type ContactPermissionsRow = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  verified_at: unknown;
  disabled_at: unknown;
  permissions: string[];
};

export type ContactPermissionsView = {
  id: string;
  email: string;
  name: string;
  verified: boolean;
  disabled: boolean;
  permissions: string[];
};

/** An email address as the contacts table can hold one; anything else is never looked up. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** The query for one contact of the business, by id or email address (any case); null when `contact` is neither. */
export function findBusinessContact(db: Db, businessId: string, contact: string) {
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

/** The contact, locked FOR UPDATE in the caller's transaction, or null. */
export async function lockBusinessContact(
  tx: Db,
  businessId: string,
  contact: string,
): Promise<ContactPermissionsRow | null> {
  const query = findBusinessContact(tx, businessId, contact);
  return (query ? await query.forUpdate().executeTakeFirst() : undefined) ?? null;
}

export const contactPermissionsView = (row: ContactPermissionsRow): ContactPermissionsView => ({
  id: row.id,
  email: row.email,
  name: `${row.first_name} ${row.last_name}`.trim(),
  verified: row.verified_at !== null,
  disabled: row.disabled_at !== null,
  permissions: [...row.permissions].sort(),
});

/**
 * Adds or takes away one permission of a locked contact row. Granting what is held, or revoking
 * what is not, writes nothing (`changed: false`), so a repeat is harmless.
 */
export async function writeContactPermission(
  tx: Db,
  row: ContactPermissionsRow,
  permission: string,
  change: "grant" | "revoke",
): Promise<{ row: ContactPermissionsRow; changed: boolean }> {
  const holds = row.permissions.includes(permission);
  const changed = change === "grant" ? !holds : holds;
  if (!changed) return { row, changed };
  const permissions =
    change === "grant" ? [...row.permissions, permission] : row.permissions.filter((p) => p !== permission);
  await tx.updateTable("contacts").set({ permissions }).where("id", "=", row.id).execute();
  if (permission === PORTAL_PERMISSION) await markOpenSessions(tx, row.id, change);
  return { row: { ...row, permissions }, changed };
}

/**
 * Portal access taken away marks the contact's open sessions, in the same transaction, so their next
 * account-scoped API call can say so and end them (decision 093); given back, the mark goes. A session opened
 * after the change carries no mark: it never had the access, and its calls answer 404 as before (decision 056).
 */
async function markOpenSessions(tx: Db, contactId: string, change: "grant" | "revoke") {
  const data =
    change === "revoke"
      ? sql<string>`data || '{"portalWithdrawn": true}'::jsonb`
      : sql<string>`data - 'portalWithdrawn'`;
  await tx.updateTable("sessions").set({ data }).where("contact_id", "=", contactId).execute();
}
