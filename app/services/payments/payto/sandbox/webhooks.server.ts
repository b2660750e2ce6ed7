import http from "node:http";
import https from "node:https";
import { getEnv } from "../../../platform/env.server";
import { logger } from "../../../platform/logger.server";
import type { PayToEvent } from "../payto-provider.server";
import type { DeliverWebhook, SandboxContext } from "./context.server";
import { SIGNATURE_HEADER, signWebhook } from "./signing.server";
import type { Tx } from "./store.server";

/**
 * The sandbox's webhooks: every change is queued as a signed snapshot in the transaction that
 * makes it, and delivered oldest first, retried with backoff until answered 2xx.
 */

/** Webhook retries: 1 s, 2 s, 4 s … at most 60 s apart, 10 attempts in all. */
const MAX_DELIVERY_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 60_000;

const backoffMs = (attempts: number) => Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.max(0, attempts - 1));

/** Where webhooks go: SANDBOX_PAYTO_WEBHOOK_URL, else this process's own webhook route. */
export function webhookUrl(): URL {
  const configured = getEnv().SANDBOX_PAYTO_WEBHOOK_URL;
  return new URL(configured ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/api/payTo/webhook`);
}

/**
 * A deliverer that POSTs to `target` with node:http, since fetch will not let the Host header
 * be set (and `*.localhost` names do not resolve in Node): the business is chosen by Host, as
 * a real provider's request to the business's own domain would be. Any failure answers
 * status 0 (retried later).
 */
export function httpDeliverer(target: string | URL): DeliverWebhook {
  const url = new URL(target);
  const client = url.protocol === "https:" ? https : http;
  return (hostname, body, headers) =>
    new Promise((resolve) => {
      const request = client.request(
        url,
        {
          method: "POST",
          timeout: 10_000,
          headers: { ...headers, Host: hostname, "Content-Length": String(Buffer.byteLength(body)) },
          ...(url.protocol === "https:" ? { servername: hostname } : {}),
        },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
          response.on("error", () => resolve(response.statusCode ?? 0));
        },
      );
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", () => resolve(0));
      request.end(body);
    });
}

/** Queues one event for the business at `hostname`, in the transaction of the change it reports. */
export async function queueWebhook(tx: Tx, hostname: string, event: PayToEvent, now: Date) {
  await tx
    .insertInto("sandbox_payto_webhooks")
    .values({ id: event.id, hostname, body: JSON.stringify(event), next_attempt_at: now })
    .execute();
}

/** Sends the webhooks that are due, oldest first, each signed at the moment it is sent. */
export async function deliverDue(ctx: SandboxContext, now: Date): Promise<{ delivered: number; failed: number }> {
  const q = await ctx.db();
  const due = await q
    .selectFrom("sandbox_payto_webhooks")
    .selectAll()
    .where("delivered_at", "is", null)
    .where("attempts", "<", MAX_DELIVERY_ATTEMPTS)
    .where("next_attempt_at", "<=", now)
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(50)
    .execute();
  let delivered = 0;
  let failed = 0;
  for (const hook of due) {
    const attempts = hook.attempts + 1;
    // Claim this attempt first (moving the next one into the future): another process
    // running the clock at the same moment finds the row changed and leaves it alone.
    const claimed = await q
      .updateTable("sandbox_payto_webhooks")
      .set({ attempts, next_attempt_at: new Date(now.getTime() + backoffMs(attempts)) })
      .where("id", "=", hook.id)
      .where("attempts", "=", hook.attempts)
      .where("delivered_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!claimed) continue;
    const signature = signWebhook(ctx.secret, hook.body, Math.floor(now.getTime() / 1000));
    let status = 0;
    try {
      status = await ctx.deliver(hook.hostname, hook.body, {
        "Content-Type": "application/json",
        [SIGNATURE_HEADER]: signature,
      });
    } catch {
      status = 0;
    }
    const ok = status >= 200 && status < 300;
    await q
      .updateTable("sandbox_payto_webhooks")
      .set({ last_status: status, delivered_at: ok ? now : null })
      .where("id", "=", hook.id)
      .execute();
    if (ok) delivered++;
    else {
      failed++;
      const log = attempts >= MAX_DELIVERY_ATTEMPTS ? logger.error : logger.warn;
      log("sandbox payto webhook not accepted", {
        eventId: hook.id,
        hostname: hook.hostname,
        status,
        attempts,
        givenUp: attempts >= MAX_DELIVERY_ATTEMPTS,
      });
    }
  }
  return { delivered, failed };
}
