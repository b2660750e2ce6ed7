import { sql } from "kysely";
import { isUuid, UUID } from "~/lib/ids";
import { recordAuditEvent } from "../platform/audit.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { HOST_ADMIN_PERMISSION, isHostAdmin } from "./access.server";
import { lockBusinessContact, writeContactPermission, type ContactPermissionsRow } from "./contact-permissions.server";

/**
 * Who may manage a business's brand (issue 32; decision 080): its host admins, listed, added and
 * removed by another host admin of the same business at /admin/admins. The back office's API
 * changes the same permission (backoffice/contact-permissions.server.ts); both go through
 * contact-permissions.server.ts and both write `contact.permission.grant` / `.revoke` audit rows,
 * which the branding page's history shows.
 *
 * Rules of the screen: an admin never removes their own admin rights, and a business never ends
 * up with no host admin who can sign in. Each change runs in one transaction with the business's
 * row locked (two admins removing each other queue, and the second finds it is no longer an
 * admin), the acting admin checked again inside it, and its audit row written in it.
 */
export type HostAdminActor = { businessId: string; contactId: string; clientIp?: string };

export type HostAdminView = {
  id: string;
  name: string;
  email: string;
  /** May open /admin now: verified and not turned off. */
  active: boolean;
};

/** At most this many admins are listed (a business has a handful; the page says when there are more). */
export const HOST_ADMINS_SHOWN = 100;

const PERMISSION_ACTIONS = ["contact.permission.grant", "contact.permission.revoke"] as const;

const nameOf = (row: { first_name: string | null; last_name: string | null }) =>
  `${row.first_name ?? ""} ${row.last_name ?? ""}`.trim();

const isActive = (row: { verified_at: unknown; disabled_at: unknown }) => row.verified_at !== null && !row.disabled_at;

/** The business's host admins, by name, at most HOST_ADMINS_SHOWN (+1 to know there are more). */
export async function listHostAdmins(businessId: string): Promise<{ admins: HostAdminView[]; more: boolean }> {
  if (!isUuid(businessId)) return { admins: [], more: false };
  const rows = await (
    await getDb()
  )
    .selectFrom("contacts")
    .select(["id", "email", "first_name", "last_name", "verified_at", "disabled_at"])
    .where("business_id", "=", businessId)
    .where(sql<boolean>`permissions @> ARRAY[${HOST_ADMIN_PERMISSION}]::text[]`)
    .orderBy(sql`lower(first_name || ' ' || last_name)`)
    .orderBy("email")
    .limit(HOST_ADMINS_SHOWN + 1)
    .execute();
  return {
    admins: rows.slice(0, HOST_ADMINS_SHOWN).map((row) => ({
      id: row.id,
      name: nameOf(row),
      email: row.email,
      active: isActive(row),
    })),
    more: rows.length > HOST_ADMINS_SHOWN,
  };
}

/** One contact of the business, as a host admin sees them, or null (another business's, or none). */
export async function findBusinessContactById(businessId: string, contactId: unknown) {
  if (!isUuid(businessId) || !isUuid(contactId)) return null;
  const row = await (
    await getDb()
  )
    .selectFrom("contacts")
    .select(["id", "email", "first_name", "last_name", "verified_at", "disabled_at", "permissions"])
    .where("business_id", "=", businessId)
    .where("id", "=", contactId.toLowerCase())
    .executeTakeFirst();
  return row ? { id: row.id, name: nameOf(row), email: row.email, hostAdmin: isHostAdmin(row) } : null;
}

/** The business row, locked: every admin change of one business runs one at a time. */
async function lockBusiness(tx: Db, businessId: string) {
  return tx.selectFrom("businesses").select("id").where("id", "=", businessId).forUpdate().executeTakeFirst();
}

/** The acting contact, locked and checked again: a verified, enabled host admin of this business. */
async function actorStillAdmin(tx: Db, actor: HostAdminActor) {
  if (!isUuid(actor.businessId) || !isUuid(actor.contactId)) return false;
  const row = await lockBusinessContact(tx, actor.businessId, actor.contactId);
  return Boolean(row && isActive(row) && isHostAdmin(row));
}

async function recordChange(tx: Db, actor: HostAdminActor, target: ContactPermissionsRow, change: "grant" | "revoke") {
  await recordAuditEvent(tx, {
    businessId: actor.businessId,
    contactId: target.id,
    action: change === "grant" ? PERMISSION_ACTIONS[0] : PERMISSION_ACTIONS[1],
    clientIp: actor.clientIp,
    details: { permission: HOST_ADMIN_PERMISSION, by: "admin", byContactId: actor.contactId },
  });
}

export type GrantHostAdminResult =
  | { ok: true; contact: { id: string; name: string; email: string }; changed: boolean }
  /** forbidden: the actor is no longer a host admin here; noContact: no contact of this business has that email. */
  | { ok: false; problem: "forbidden" | "noContact" };

/** Makes the contact of this business with `email` a host admin. Already one: no change, no audit row. */
export async function grantHostAdmin(actor: HostAdminActor, email: string): Promise<GrantHostAdminResult> {
  const db = await getDb();
  return db.transaction().execute(async (tx): Promise<GrantHostAdminResult> => {
    if (!(await lockBusiness(tx, actor.businessId)) || !(await actorStillAdmin(tx, actor))) {
      return { ok: false, problem: "forbidden" };
    }
    // An id would find a contact too; this screen takes email addresses only.
    if (UUID.test(email)) return { ok: false, problem: "noContact" };
    const row = await lockBusinessContact(tx, actor.businessId, email.trim());
    if (!row) return { ok: false, problem: "noContact" };
    const written = await writeContactPermission(tx, row, HOST_ADMIN_PERMISSION, "grant");
    if (written.changed) await recordChange(tx, actor, row, "grant");
    return { ok: true, contact: { id: row.id, name: nameOf(row), email: row.email }, changed: written.changed };
  });
}

export type RemoveHostAdminResult =
  | { ok: true; contact: { id: string; name: string; email: string } }
  /**
   * forbidden: the actor is no longer a host admin here; notFound: no host admin of this business
   * has that id; self: the actor's own rights; lastAdmin: nobody who can sign in would be left.
   */
  | { ok: false; problem: "forbidden" | "notFound" | "self" | "lastAdmin" };

/** Takes host admin away from another contact of this business, within the rules above. */
export async function removeHostAdmin(actor: HostAdminActor, contactId: string): Promise<RemoveHostAdminResult> {
  const db = await getDb();
  return db.transaction().execute(async (tx): Promise<RemoveHostAdminResult> => {
    if (!(await lockBusiness(tx, actor.businessId)) || !(await actorStillAdmin(tx, actor))) {
      return { ok: false, problem: "forbidden" };
    }
    if (!isUuid(contactId)) return { ok: false, problem: "notFound" };
    const row = await lockBusinessContact(tx, actor.businessId, contactId);
    if (!row || !isHostAdmin(row)) return { ok: false, problem: "notFound" };
    // Nobody left who can open /admin: refused first, whoever is removed (yourself included).
    const others = await tx
      .selectFrom("contacts")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("business_id", "=", actor.businessId)
      .where("id", "<>", row.id)
      .where("verified_at", "is not", null)
      .where("disabled_at", "is", null)
      .where(sql<boolean>`permissions @> ARRAY[${HOST_ADMIN_PERMISSION}]::text[]`)
      .executeTakeFirstOrThrow();
    if (Number(others.n) === 0) return { ok: false, problem: "lastAdmin" };
    if (row.id === actor.contactId) return { ok: false, problem: "self" };
    await writeContactPermission(tx, row, HOST_ADMIN_PERMISSION, "revoke");
    await recordChange(tx, actor, row, "revoke");
    return { ok: true, contact: { id: row.id, name: nameOf(row), email: row.email } };
  });
}

export type HostAdminChange = {
  id: string;
  change: "grant" | "revoke";
  at: string;
  /** The admin who made it (null: the back office's API, or a contact since deleted). */
  by: { name: string; email: string } | null;
  byBackOffice: boolean;
  /** Whose rights changed (null: a contact since deleted). */
  contact: { name: string; email: string } | null;
};

/** The newest changes of who is a host admin of the business: this screen's and the back office's. */
export async function listHostAdminChanges(businessId: string, limit: number): Promise<HostAdminChange[]> {
  if (!isUuid(businessId)) return [];
  const rows = await (
    await getDb()
  )
    .selectFrom("audit_events")
    .leftJoin("contacts as whom", "whom.id", "audit_events.contact_id")
    // Only this service writes byContactId, always a UUID; anything else joins nobody.
    .leftJoin("contacts as who", (join) =>
      join.on(
        sql<boolean>`who.id = CASE WHEN audit_events.details->>'byContactId' ~ '^[0-9a-f-]{36}$' THEN (audit_events.details->>'byContactId')::uuid END`,
      ),
    )
    .select([
      "audit_events.id",
      "audit_events.action",
      "audit_events.at",
      sql<string | null>`audit_events.details->>'by'`.as("byKind"),
      "whom.first_name as whomFirst",
      "whom.last_name as whomLast",
      "whom.email as whomEmail",
      "who.first_name as whoFirst",
      "who.last_name as whoLast",
      "who.email as whoEmail",
      "who.business_id as whoBusiness",
    ])
    .where("audit_events.business_id", "=", businessId)
    // Written out, as in the partial index of migration 0023's predicate, so the planner can use it.
    .where(sql<boolean>`audit_events.action IN ('contact.permission.grant', 'contact.permission.revoke')`)
    .where(sql<boolean>`audit_events.details->>'permission' = ${HOST_ADMIN_PERMISSION}`)
    .orderBy("audit_events.at", "desc")
    .orderBy("audit_events.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: String(row.id),
    change: row.action === PERMISSION_ACTIONS[0] ? "grant" : "revoke",
    at: (row.at instanceof Date ? row.at : new Date(String(row.at))).toISOString(),
    by:
      row.whoEmail !== null && row.whoBusiness === businessId
        ? { name: nameOf({ first_name: row.whoFirst, last_name: row.whoLast }), email: row.whoEmail }
        : null,
    byBackOffice: row.byKind === "back-office",
    contact:
      row.whomEmail !== null
        ? { name: nameOf({ first_name: row.whomFirst, last_name: row.whomLast }), email: row.whomEmail }
        : null,
  }));
}
