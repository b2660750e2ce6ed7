import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { now } from "./clock.server";
import { getDb } from "./database.server";
import type { Db } from "./db.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import {
  assertHeaderSafe,
  messageIdDomain,
  sendMail,
  type MailAttachment,
  type OutgoingMail,
  type SentMail,
} from "./mail.server";
import { enqueue, QUEUES, type JobHandler } from "./queue.server";

/**
 * The mail outbox (issue 18; decision 044). Every email leaves in three steps:
 *
 * 1. `queueMail(tx, …)` writes the message in the transaction of the change that causes it (or a
 *    transaction of its own), with a key per cause — writing the same key again writes nothing —
 *    and, in the same transaction, a `mail` job due a little later: the fallback.
 * 2. After commit, the process that made the change delivers it at once (`deliverOutboxMessage`,
 *    "the kick"), so a reader of the mail server sees it as soon as the page answers.
 * 3. If that process died, or the mail server refused, the job delivers it later, retried with
 *    backoff by pg-boss, in whichever process works the queue.
 *
 * Sent once: a sender claims the row (pending → sending, with a claim token), sends, and marks it
 * sent with that token. A claim older than SEND_TIMEOUT_MS is a dead sender's and may be taken
 * again. The one window left: a sender that dies after the mail server accepted the message and
 * before its mark commits leaves a claim that is taken again, and the message goes twice — with
 * the same Message-ID (derived from the key), so mail programs and the mail server's logs show it
 * is one message.
 *
 * Messages carry link secrets that the database otherwise keeps only hashed, so the stored
 * payload is sealed (AES-256-GCM, key from MAIL_OUTBOX_SECRET or SESSION_SECRET by HKDF, the row's
 * key as associated data) and cleared once sent. A receipt stores only what to render it from, and
 * is rendered at sending by the renderer its domain registered (`registerMailRenderer`).
 */

/** A claim older than this belongs to a sender that died: well beyond SMTP's three 10 s timeouts. */
export const SEND_TIMEOUT_MS = 5 * 60_000;
/** When the fallback job first looks: after the kick has normally sent the message. */
export const FALLBACK_DELAY_MS = 60_000;

/** A message stored as it is to be sent. */
export type RenderedPayload = { kind: "mail"; mail: OutgoingMail };

/**
 * A message stored as what to render it from when it is sent (a receipt: `{ kind: "receipt",
 * paymentId }`), rendered by the renderer registered for its kind (`registerMailRenderer`).
 */
export type RenderAtSend = { kind: string } & Record<string, string>;

/** What is stored (sealed): a rendered message, or what to render one from at sending. */
export type OutboxPayload = RenderedPayload | RenderAtSend;

/**
 * A file a rendered message asks to carry (`{ kind: "receipt-pdf", paymentId }`): made when the message
 * is sent, by the maker registered for its kind (`registerAttachmentMaker`), never stored.
 */
export type AttachmentSpec = { kind: string } & Record<string, string>;

/**
 * Renders a render-at-send message from the database as it is now; null when there is nothing to
 * send any more (a receipt for a payment that is no longer one). `attach`: the files to make for it.
 */
export type MailRenderer = (
  businessId: string,
  payload: RenderAtSend,
) => Promise<(OutgoingMail & { attach?: AttachmentSpec[] }) | null>;

/** Makes an attachment's file from the database as it is now; null when there is none to make. */
export type AttachmentMaker = (businessId: string, spec: AttachmentSpec) => Promise<MailAttachment | null>;

const renderers = new Map<string, MailRenderer>();
const attachmentMakers = new Map<string, AttachmentMaker>();

/**
 * As with renderers, the outbox knows no domain: the domain that makes a kind of file (documents'
 * receipt PDF) registers its maker when it loads (every portal process loads it through
 * jobs/background.server.ts). A message asking for a kind with no maker in this process goes without
 * that file, logged: a receipt must never wait on its attachment.
 */
export function registerAttachmentMaker(kind: string, maker: AttachmentMaker) {
  attachmentMakers.set(kind, maker);
}

/**
 * The outbox knows no domain: a domain that stores messages to be rendered at sending registers
 * its renderer for their kind when it loads (payments/receipts.server.ts for receipts).
 */
export function registerMailRenderer(kind: string, renderer: MailRenderer) {
  if (kind === "mail") throw new Error('registerMailRenderer: "mail" is the outbox\'s own kind');
  renderers.set(kind, renderer);
}

function isRendered(payload: OutboxPayload): payload is RenderedPayload {
  return payload.kind === "mail";
}

export type QueuedMail = { id: string; key: string; messageId: string; created: boolean };

export type Delivery =
  | { outcome: "sent"; sent: SentMail }
  /** Sent earlier (or dropped): nothing to do. */
  | { outcome: "done" }
  /** Another sender holds a live claim on it. */
  | { outcome: "busy" }
  /** There was nothing to send (a receipt for a payment that is no longer one, an unreadable payload). */
  | { outcome: "dropped"; reason: string }
  | { outcome: "missing" };

function sealingKey(): Buffer {
  const env = getEnv();
  const secret = env.MAIL_OUTBOX_SECRET ?? env.SESSION_SECRET;
  return Buffer.from(hkdfSync("sha256", secret, "portal", "mail-outbox v1 aes-256-gcm", 32));
}

/** "v1." + base64url(iv ‖ tag ‖ ciphertext); the row's key is bound in as associated data. */
export function sealPayload(key: string, payload: OutboxPayload): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(), iv);
  cipher.setAAD(Buffer.from(key, "utf8"));
  const body = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export function openPayload(key: string, sealed: string): OutboxPayload {
  if (!sealed.startsWith("v1.")) throw new Error("mail outbox: unknown payload format");
  const raw = Buffer.from(sealed.slice(3), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(key, "utf8"));
  decipher.setAuthTag(raw.subarray(12, 28));
  const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  return JSON.parse(text) as OutboxPayload;
}

/** The message's Message-ID, the same every time it is sent: from its key, never revealing it. */
export function messageIdFor(key: string): string {
  const digest = createHash("sha256").update(`mail-outbox\u0000${key}`).digest("base64url").slice(0, 32);
  return `<${digest}@${messageIdDomain()}>`;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,300}$/;

/**
 * Writes a message into the outbox in `tx` (a transaction, or the database outside one) with its
 * fallback job. A key already there writes nothing (`created: false`). A message that would fail
 * `sendMail`'s header checks is refused here, in the transaction of its cause.
 */
export async function queueMail(
  tx: Db,
  input: { key: string; businessId?: string | null } & (
    { mail: OutgoingMail } | { render: RenderAtSend; category: OutgoingMail["category"] }
  ),
): Promise<QueuedMail> {
  if (!KEY_PATTERN.test(input.key)) throw new Error("queueMail: the key must be 1 to 300 printable ASCII characters");
  const payload: OutboxPayload = "mail" in input ? { kind: "mail", mail: input.mail } : input.render;
  if (isRendered(payload)) {
    assertHeaderSafe(payload.mail);
    // A file is made when its message is sent (a render-at-send message's `attach`), never stored.
    if (payload.mail.attachments?.length) throw new Error("queueMail: a stored message carries no attachments");
  }
  const messageId = messageIdFor(input.key);
  const inserted = await tx
    .insertInto("mail_outbox")
    .values({
      key: input.key,
      business_id: input.businessId ?? null,
      category: "mail" in input ? input.mail.category : input.category,
      recipient: "mail" in input ? input.mail.to : null,
      message_id: messageId,
      payload: sealPayload(input.key, payload),
    })
    .onConflict((oc) => oc.column("key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) {
    const existing = await tx
      .selectFrom("mail_outbox")
      .select("id")
      .where("key", "=", input.key)
      .executeTakeFirstOrThrow();
    return { id: existing.id, key: input.key, messageId, created: false };
  }
  await enqueue(
    tx,
    QUEUES.mail,
    { outboxId: inserted.id },
    // The wall clock, not the portal's (which tests move): pg-boss compares it with the database's now().
    // eslint-disable-next-line no-restricted-syntax -- pg-boss compares startAfter with the database's now(), the real clock
    { key: input.key, startAfter: new Date(Date.now() + FALLBACK_DELAY_MS) },
  );
  return { id: inserted.id, key: input.key, messageId, created: true };
}

/** Short, single-line and free of the message: what is kept of an error. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s+/g, " ").slice(0, 500);
}

/**
 * Renders a render-at-send payload (a receipt), with the files it asks for; null when there is nothing
 * to send any more. A file that cannot be made is left out (and logged): a receipt without its PDF is
 * better than no receipt, and a fault in making the file would fail every retry alike.
 */
async function render(businessId: string | null, payload: OutboxPayload): Promise<OutgoingMail | null> {
  if (isRendered(payload)) return payload.mail;
  if (!businessId) return null;
  const renderer = renderers.get(payload.kind);
  if (!renderer) throw new NoRendererError(payload.kind);
  const rendered = await renderer(businessId, payload);
  if (!rendered) return null;
  const { attach, ...mail } = rendered;
  const attachments: MailAttachment[] = [];
  for (const spec of attach ?? []) {
    const maker = attachmentMakers.get(spec.kind);
    if (!maker) {
      logger.error("mail outbox: no maker for an attachment in this process; the message goes without it", {
        kind: spec.kind,
      });
      continue;
    }
    try {
      const made = await maker(businessId, spec);
      if (made) attachments.push(made);
    } catch (error) {
      logger.error("mail outbox: an attachment could not be made; the message goes without it", {
        kind: spec.kind,
        error,
      });
    }
  }
  return attachments.length > 0 ? { ...mail, attachments } : mail;
}

/** No renderer is registered for a payload's kind in this process: another process, or later, sends it. */
class NoRendererError extends Error {
  constructor(kind: string) {
    super(`mail outbox: no renderer for "${kind}" in this process`);
    this.name = "NoRendererError";
  }
}

/**
 * Sends one message of the outbox if it is still to be sent and no live sender holds it. Throws
 * when the mail server refuses or cannot be reached: the message is pending again, for the job.
 */
export async function deliverOutboxMessage(id: string, options: { db?: Db } = {}): Promise<Delivery> {
  const db = options.db ?? (await getDb());
  const token = randomUUID();
  const at = now();
  const claimed = await db
    .updateTable("mail_outbox")
    .set((eb) => ({ status: "sending", claim_token: token, claimed_at: at, attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where((eb) =>
      eb.or([
        eb("status", "=", "pending"),
        eb.and([eb("status", "=", "sending"), eb("claimed_at", "<", new Date(at.getTime() - SEND_TIMEOUT_MS))]),
      ]),
    )
    .returning(["key", "business_id", "message_id", "payload", "attempts"])
    .executeTakeFirst();
  if (!claimed) {
    const row = await db.selectFrom("mail_outbox").select("status").where("id", "=", id).executeTakeFirst();
    if (!row) return { outcome: "missing" };
    return row.status === "sending" ? { outcome: "busy" } : { outcome: "done" };
  }
  const mine = (eb: Db) => eb.updateTable("mail_outbox").where("id", "=", id).where("claim_token", "=", token);
  let mail: OutgoingMail | null;
  try {
    mail = await render(claimed.business_id, openPayload(claimed.key, claimed.payload!));
  } catch (error) {
    if (error instanceof NoRendererError) {
      // A fault of this process's start-up, not of the message: left for a sender that can render it.
      await mine(db)
        .set({ status: "pending", claim_token: null, claimed_at: null, last_error: errorText(error) })
        .execute();
      throw error;
    }
    // Unreadable (another key) or unrenderable: sending it later will not make it readable.
    const reason = errorText(error);
    logger.error("mail outbox: message dropped", { key: claimed.key, reason });
    await mine(db)
      .set({ status: "dropped", payload: null, claim_token: null, claimed_at: null, last_error: reason })
      .execute();
    return { outcome: "dropped", reason };
  }
  if (!mail) {
    await mine(db)
      .set({ status: "dropped", payload: null, claim_token: null, claimed_at: null, last_error: "nothing to send" })
      .execute();
    return { outcome: "dropped", reason: "nothing to send" };
  }
  let sent: SentMail;
  try {
    sent = await sendMail(mail, { messageId: claimed.message_id });
  } catch (error) {
    await mine(db)
      .set({ status: "pending", claim_token: null, claimed_at: null, last_error: errorText(error) })
      .execute();
    throw error;
  }
  await mine(db)
    .set({
      status: "sent",
      payload: null,
      claim_token: null,
      claimed_at: null,
      sent_at: now(),
      recipient: mail.to,
      last_error: null,
    })
    .execute();
  return { outcome: "sent", sent };
}

/**
 * The kick after commit: delivers these messages now, in this process. Never throws — a message
 * not delivered now stays in the outbox for its job — and says what became of each.
 */
export async function kickMail(ids: string[]): Promise<(Delivery | { outcome: "failed"; error: unknown })[]> {
  const results = [];
  for (const id of ids) {
    try {
      results.push(await deliverOutboxMessage(id));
    } catch (error) {
      logger.warn("mail not delivered now: the outbox tries again later", { outboxId: id, error });
      results.push({ outcome: "failed" as const, error });
    }
  }
  return results;
}

/**
 * A message sent at once through the outbox, in a transaction of its own: for mail whose cause is
 * not a transaction of ours. Throws if the mail server did not take it now (it stays queued, and
 * its job tries again); the same key again sends nothing new.
 */
export async function sendThroughOutbox(
  mail: OutgoingMail,
  options: { key: string; businessId?: string | null },
): Promise<{ messageId: string; transport: SentMail["transport"] }> {
  const db = await getDb();
  const queued = await db.transaction().execute((tx) => queueMail(tx, { ...options, mail }));
  const delivery = await deliverOutboxMessage(queued.id);
  if (delivery.outcome === "dropped") throw new Error(`mail outbox: message dropped (${delivery.reason})`);
  return { messageId: queued.messageId, transport: getEnv().SMTP_URL ? "smtp" : "outbox" };
}

/**
 * The `mail` queue's handler: delivers the message if the kick did not. A message another sender
 * holds is tried again later (pg-boss's retry), so a claim whose sender died is taken once it is
 * stale; a refusal is thrown for the same retry.
 */
export const mailJobHandler: JobHandler = async (job) => {
  const { outboxId } = job.data as { outboxId: string };
  const delivery = await deliverOutboxMessage(outboxId);
  if (delivery.outcome === "busy") throw new Error("mail outbox: another sender holds the message; tried again later");
  return delivery.outcome;
};

/** Messages not sent (yet), oldest first: what an operator looks at (decision 044). */
export async function unsentMail(db: Db, limit = 100) {
  return db
    .selectFrom("mail_outbox")
    .select(["id", "key", "category", "recipient", "status", "attempts", "last_error", "created_at", "claimed_at"])
    .where("status", "in", ["pending", "sending"])
    .orderBy("created_at")
    .limit(limit)
    .execute();
}
