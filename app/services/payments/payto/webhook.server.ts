import { getDb } from "../../platform/database.server";
import { logger } from "../../platform/logger.server";
import { applyAgreementSnapshot } from "./agreements.server";
import { getPayToProvider } from "./index.server";
import { applyIncomingPayment } from "./payids.server";
import { applyPaymentSnapshot } from "./payto-payments.server";
import type { PayToEvent } from "./payto-provider.server";

/**
 * A PayTo webhook, from raw bytes to applied state (decision 027). The signature is checked
 * over the raw body before anything is parsed or trusted; each event id is processed once
 * per business; an event about something this business never made is refused and logged.
 */
export type WebhookAnswer =
  | { status: 200; body: { received: true; duplicate?: true; result: string } }
  | { status: 401; body: { received: false; message: string } }
  | { status: 404; body: { received: false; message: string } };

export async function receiveWebhook(
  businessId: string,
  headers: Headers,
  rawBody: string,
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
  // Claim the event id first: a replay (or a concurrent duplicate delivery) finds it taken.
  const claimed = await db
    .insertInto("payto_webhook_events")
    .values({ business_id: businessId, event_id: event.id, type: event.type })
    .onConflict((oc) => oc.columns(["business_id", "event_id"]).doNothing())
    .returning("event_id")
    .executeTakeFirst();
  if (!claimed) {
    logger.info("payto webhook replayed: ignored", { businessId, eventId: event.id, type: event.type });
    return { status: 200, body: { received: true, duplicate: true, result: "duplicate" } };
  }

  let result: string;
  try {
    result = await dispatch(businessId, event);
  } catch (error) {
    // Let the provider retry it later: the id is released so the retry is not a "replay".
    await releaseEvent(businessId, event.id);
    throw error;
  }
  if (result === "unknown") {
    await releaseEvent(businessId, event.id);
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

async function releaseEvent(businessId: string, eventId: string) {
  const db = await getDb();
  await db
    .deleteFrom("payto_webhook_events")
    .where("business_id", "=", businessId)
    .where("event_id", "=", eventId)
    .execute();
}
