import { getDb } from "./database.server";
import { logger } from "./logger.server";

/** Records who did what (sign-in, sign-out, password changes). Never secrets or card data. */
export async function audit(event: {
  businessId: string;
  contactId?: string | null;
  action: string;
  clientIp?: string;
  details?: Record<string, unknown>;
}) {
  try {
    const db = await getDb();
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
  } catch (error) {
    // The audit trail must not turn a finished sign-in into an error page.
    logger.error("audit write failed", { action: event.action, error });
  }
}
