import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ISO_INSTANT_MAX } from "~/lib/input-bounds";
import { AGREEMENT_STATUSES, PAYTO_PAYMENT_FAILURES, PROVIDER_PAYMENT_STATUSES } from "~/lib/payto-states";
import type { PayToEvent, WebhookVerification } from "../payto-provider.server";

/** How far the signature's timestamp may be from now (decision 027). */
const SIGNATURE_TOLERANCE_SECONDS = 300;
export const SIGNATURE_HEADER = "PayTo-Signature";

/** The `PayTo-Signature` header value for a body sent at `timestampSeconds`. */
export function signWebhook(secret: string, rawBody: string, timestampSeconds: number): string {
  const t = Math.floor(timestampSeconds);
  const v1 = createHmac("sha256", secret).update(`${t}.${rawBody}`, "utf8").digest("hex");
  return `t=${t},v1=${v1}`;
}

const agreementSchema = z.object({
  agreementId: z.string().min(1).max(100),
  idempotencyKey: z.string().min(1).max(200),
  merchant: z.string().min(1).max(100),
  status: z.enum(AGREEMENT_STATUSES),
  version: z.number().int().positive(),
  statusReason: z.string().max(200).nullable(),
  maxAmountCents: z.number().int().positive(),
  updatedAt: z.string().max(ISO_INSTANT_MAX).datetime({ offset: true }),
});

const paymentSchema = z.object({
  paymentId: z.string().min(1).max(100),
  idempotencyKey: z.string().min(1).max(200),
  merchant: z.string().min(1).max(100),
  agreementId: z.string().min(1).max(100),
  status: z.enum(PROVIDER_PAYMENT_STATUSES),
  version: z.number().int().positive(),
  amountCents: z.number().int().positive(),
  failureReason: z.enum(PAYTO_PAYMENT_FAILURES).nullable(),
  updatedAt: z.string().max(ISO_INSTANT_MAX).datetime({ offset: true }),
});

const incomingSchema = z.object({
  transactionId: z.string().min(1).max(100),
  payId: z.string().min(1).max(256),
  reference: z.string().min(1).max(200),
  merchant: z.string().min(1).max(100),
  amountCents: z.number().int().positive(),
  payerName: z.string().max(140),
  receivedAt: z.string().max(ISO_INSTANT_MAX).datetime({ offset: true }),
});

const eventBase = {
  id: z.string().min(1).max(100),
  createdAt: z.string().max(ISO_INSTANT_MAX).datetime({ offset: true }),
};
const eventSchema = z.discriminatedUnion("type", [
  z.object({ ...eventBase, type: z.literal("agreement.updated"), data: agreementSchema }),
  z.object({ ...eventBase, type: z.literal("payment.updated"), data: paymentSchema }),
  z.object({ ...eventBase, type: z.literal("payid.received"), data: incomingSchema }),
]);

/** Checks a webhook exactly as decision 027 says: signature over the raw bytes first, then time, then shape. */
export function verifySignedWebhook(secret: string, headers: Headers, rawBody: string, now: Date): WebhookVerification {
  const header = headers.get(SIGNATURE_HEADER);
  if (header === null || header.trim() === "") return { ok: false, reason: "missing_signature" };
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [key, value, ...rest] = part.trim().split("=");
    if (rest.length > 0 || value === undefined) return { ok: false, reason: "bad_signature" };
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null) return { ok: false, reason: "bad_signature" };
      timestamp = Number(value);
    } else if (key === "v1") {
      if (/^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
    }
  }
  if (timestamp === null || candidates.length === 0) return { ok: false, reason: "bad_signature" };
  const expected = Buffer.from(signWebhook(secret, rawBody, timestamp).split("v1=")[1]!, "hex");
  // Every candidate is compared, so the time taken does not say which one (or how much) matched.
  let matched = false;
  for (const candidate of candidates) {
    if (timingSafeEqual(expected, Buffer.from(candidate, "hex"))) matched = true;
  }
  if (!matched) return { ok: false, reason: "bad_signature" };
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, reason: "stale_timestamp" };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const event = eventSchema.safeParse(parsed);
  return event.success ? { ok: true, event: event.data as PayToEvent } : { ok: false, reason: "malformed" };
}
