import { getDb } from "../../platform/database.server";
import { logger } from "../../platform/logger.server";
import { applyAgreementSnapshot } from "./agreements.server";
import { getPayToProvider } from "./index.server";
import { applyIncomingPayment } from "./payids.server";
import { applyPaymentSnapshot } from "./payto-payments.server";
import type { PayToEvent } from "./payto-provider.server";

/**
 * A PayTo webhook, from raw bytes to applied state (decision 027). The signature is checked
 * over the raw body before anything is parsed or trusted; an event id already processed for
 * this business is a replay and changes nothing; an event about something this business never
 * made is refused and logged (and not recorded, so nothing about it is kept).
 */
export type WebhookAnswer =
  | { status: 200; body: { received: true; duplicate?: true; result: string } }
  | { status: 401; body: { received: false; message: string } }
  | { status: 404; body: { received: false; message: string } };

export async function receiveWebhook(
  businessId: string,
  headers: Headers,
  rawBody: string,
  // eslint-disable-next-line no-restricted-syntax -- the signature's timestamp is checked against the sender's (real) clock
  now = new Date(),
): Promise<WebhookAnswer> {
  const verified = getPayToProvider().verifyWebhook(headers, rawBody, now);
  if (!verified.ok) {
    logger.warn("payto webhook refused", { businessId, reason: verified.reason });
    return { status: 401, body: { received: false, message: "The webhook signature could not be verified." } };
  }
  const event = verified.event;
  if (event.data.merchant !== businessId) {
    logger.warn("payto webhook for another business refused", { businessId, eventId: event.id, type: event.type });
    return { status: 404, body: { received: false, message: "Unknown object." } };
  }

  const db = await getDb();
  const seen = await db
    .selectFrom("payto_webhook_events")
    .select("event_id")
    .where("business_id", "=", businessId)
    .where("event_id", "=", event.id)
    .executeTakeFirst();
  if (seen) {
    logger.info("payto webhook replayed: ignored", { businessId, eventId: event.id, type: event.type });
    return { status: 200, body: { received: true, duplicate: true, result: "duplicate" } };
  }

  // Applied first, recorded after: a crash in between leaves the id unrecorded, so the
  // provider's retry is applied rather than mistaken for a replay. Applying twice is harmless
  // (snapshots carry versions and statuses; money at a PayID is claimed by its transaction id),
  // which is also what makes two concurrent deliveries of one event safe.
  const result = await dispatch(businessId, event);
  if (result === "unknown") {
    logger.warn("payto webhook about an object we never made: refused", {
      businessId,
      eventId: event.id,
      type: event.type,
    });
    return { status: 404, body: { received: false, message: "Unknown object." } };
  }
  if (result === "impossible") {
    logger.error("payto webhook with an impossible transition: ignored", { businessId, eventId: event.id });
  }
  await db
    .insertInto("payto_webhook_events")
    .values({ business_id: businessId, event_id: event.id, type: event.type })
    .onConflict((oc) => oc.columns(["business_id", "event_id"]).doNothing())
    .execute();
  return { status: 200, body: { received: true, result } };
}

function dispatch(businessId: string, event: PayToEvent): Promise<string> {
  switch (event.type) {
    case "agreement.updated":
      return applyAgreementSnapshot(businessId, event.data, "webhook");
    case "payment.updated":
      return applyPaymentSnapshot(businessId, event.data, "webhook");
    case "payid.received":
      return applyIncomingPayment(businessId, event.data);
  }
}
