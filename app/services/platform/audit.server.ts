import { getDb } from "./database.server";
import type { Db } from "./db.server";
import { logger } from "./logger.server";

export type AuditEvent = {
  businessId: string;
  contactId?: string | null;
  action: string;
  clientIp?: string;
  details?: Record<string, unknown>;
};

/**
 * Writes one audit row with `db` (a caller's transaction, so the row commits or rolls back with
 * the change it records); a failure is the caller's failure.
 */
export async function recordAuditEvent(db: Db, event: AuditEvent) {
  await db
    .insertInto("audit_events")
    .values({
      business_id: event.businessId,
      contact_id: event.contactId ?? null,
      action: event.action,
      client_ip: event.clientIp ?? null,
      details: JSON.stringify(event.details ?? {}),
    })
    .execute();
}

/** Records who did what (sign-in, sign-out, password changes). Never secrets or card data. */
export async function audit(event: AuditEvent) {
  try {
    await recordAuditEvent(await getDb(), event);
  } catch (error) {
    // The audit trail must not turn a finished sign-in into an error page.
    logger.error("audit write failed", { action: event.action, error });
  }
}
