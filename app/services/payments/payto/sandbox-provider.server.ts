import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { sql, type Selectable, type Transaction } from "kysely";
import { z } from "zod";
import { ISO_INSTANT_MAX } from "~/lib/input-bounds";
import {
  AGREEMENT_STATUSES,
  canTransition,
  PAYTO_PAYMENT_FAILURES,
  PROVIDER_PAYMENT_STATUSES,
  TERMINAL_AGREEMENT_STATUSES,
  type AgreementStatus,
  type PayToPaymentFailure,
  type ProviderPaymentStatus,
} from "~/lib/payto-states";
import type { DB, SandboxPayToAgreementsTable, SandboxPayToPaymentsTable } from "../../platform/db-schema.server";
import type { Db } from "../../platform/db.server";
import { getDb } from "../../platform/database.server";
import { getEnv } from "../../platform/env.server";
import { logger } from "../../platform/logger.server";
import { getPayToProvider } from "./index.server";
import {
  PayToTimeoutError,
  type CreateAgreementInput,
  type IncomingPayment,
  type InitiatePaymentInput,
  type PayToDebtor,
  type PayToEvent,
  type PayToProvider,
  type ProviderAgreement,
  type ProviderPayment,
  type ProviderResult,
  type RegisterPayIdInput,
  type WebhookVerification,
} from "./payto-provider.server";

/**
 * A PayTo provider that behaves like the real ones, for development, demos and tests
 * (decision 027): it keeps its own records (the sandbox_payto_* tables, standing in for the
 * provider's storage), answers after a small delay, lets test PayIDs and accounts choose what
 * the payer's bank does, moves time by itself (`runDue`: expiry, suspension, settlement) on an
 * injected clock, and pushes every change as a signed webhook snapshot, retried until answered
 * 2xx. The payer's side (approve, decline, suspend, resume, cancel, pay a PayID) is the
 * sandbox bank page's, through the exported controls below.
 */

/** What the payer's bank does with an agreement, chosen by the test identifiers. */
export type SandboxPayToOutcome =
  "payer" | "approve" | "decline" | "expire" | "suspend" | "nofunds" | "lapsed" | "unavailable" | "slow";

/** The test PayIDs (README lists them); BSB 000000 with the accounts below does the same. */
export const SANDBOX_PAYTO_TEST_PAYIDS: Record<string, SandboxPayToOutcome> = {
  "approve@payto.test": "approve",
  "decline@payto.test": "decline",
  "expire@payto.test": "expire",
  "suspend@payto.test": "suspend",
  "nofunds@payto.test": "nofunds",
  "lapsed@payto.test": "lapsed",
  "unavailable@payto.test": "unavailable",
  "slow@payto.test": "slow",
};

export const SANDBOX_PAYTO_TEST_BSB = "000000";
export const SANDBOX_PAYTO_TEST_ACCOUNTS: Record<string, SandboxPayToOutcome> = {
  "10000001": "approve",
  "10000002": "decline",
  "10000003": "expire",
  "10000004": "suspend",
  "10000005": "nofunds",
  "10000006": "lapsed",
  "10000007": "unavailable",
  "10000008": "slow",
};

/** Outcomes whose bank answers by itself, a moment after the agreement is created. */
const AUTO_DECISION: Partial<Record<SandboxPayToOutcome, "approve" | "decline">> = {
  approve: "approve",
  decline: "decline",
  suspend: "approve",
  nofunds: "approve",
  lapsed: "approve",
  slow: "approve",
};

/** How long a bank that answers by itself takes: long enough to see "waiting for the payer". */
const AUTO_DECISION_MS = 1_000;
/** Webhook retries: 1 s, 2 s, 4 s … at most 60 s apart, 10 attempts in all. */
const MAX_DELIVERY_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 60_000;
/** How far the signature's timestamp may be from now (decision 027). */
const SIGNATURE_TOLERANCE_SECONDS = 300;
export const SIGNATURE_HEADER = "PayTo-Signature";

export type DeliverWebhook = (hostname: string, body: string, headers: Record<string, string>) => Promise<number>;

export type SandboxPayToOptions = {
  /** The shared webhook secret (HMAC-SHA256). */
  secret: string;
  db?: () => Promise<Db>;
  delayMs?: number;
  now?: () => Date;
  /** Sends one webhook; answers the HTTP status (0: no answer). Default: node:http POST. */
  deliver?: DeliverWebhook;
  expireMs?: number;
  settleMs?: number;
  suspendMs?: number;
};

export type PayerAction = "approve" | "decline" | "suspend" | "resume" | "cancel";

/** An agreement as the payer's bank shows it. */
export type BankAgreement = ProviderAgreement & {
  description: string;
  hostname: string;
  partyName: string;
  payer: string;
  createdAt: string;
  /** What the payer may do with it now (the transition table, payer's steps). */
  actions: PayerAction[];
};

export type PayerActionResult =
  { ok: true; agreement: BankAgreement } | { ok: false; reason: "not_found" | "not_allowed"; message: string };

export type SendToPayIdResult =
  | { ok: true; incoming: IncomingPayment }
  | { ok: false; reason: "unknown_payid" | "invalid_amount" | "invalid_name"; message: string };

export type RunDueSummary = {
  agreements: number;
  payments: number;
  webhooksDelivered: number;
  webhooksFailed: number;
};

export type SandboxPayTo = PayToProvider & {
  readonly sandbox: true;
  payerApproves(agreementId: string): Promise<PayerActionResult>;
  payerDeclines(agreementId: string): Promise<PayerActionResult>;
  payerSuspends(agreementId: string): Promise<PayerActionResult>;
  payerResumes(agreementId: string): Promise<PayerActionResult>;
  payerCancels(agreementId: string): Promise<PayerActionResult>;
  sendToPayId(input: { payId: string; amountCents: number; payerName: string }): Promise<SendToPayIdResult>;
  /** The payer's agreements (one payer key or several candidates), pending first, then newest first. */
  listForPayer(payerKey: string | readonly string[]): Promise<BankAgreement[]>;
  findAgreementForBank(agreementId: string): Promise<BankAgreement | null>;
  /** Everything time-driven, once: expiry, the banks' own answers, settlement, webhook delivery. */
  runDue(now?: Date): Promise<RunDueSummary>;
};

/** The payer steps the bank offers, per status (decision 027's table, the payer's rows). */
const PAYER_STEPS: Record<PayerAction, { to: AgreementStatus; reason: string }> = {
  approve: { to: "ACTIVE", reason: "Approved by the payer" },
  decline: { to: "DECLINED", reason: "Declined by the payer" },
  suspend: { to: "SUSPENDED", reason: "Suspended by the payer" },
  resume: { to: "ACTIVE", reason: "Resumed by the payer" },
  cancel: { to: "CANCELLED", reason: "Cancelled by the payer" },
};

export function payerActionsFor(status: AgreementStatus): PayerAction[] {
  return (Object.keys(PAYER_STEPS) as PayerAction[]).filter((action) => {
    const step = PAYER_STEPS[action];
    if (action === "approve" && status !== "CREATED") return false;
    if (action === "resume" && status !== "SUSPENDED") return false;
    return canTransition(status, step.to, "payer");
  });
}

/** The payer's key for a debtor: `BBAN:<bsb><account>` or `<aliasType>:<value>`. */
export function payerKeyFor(debtor: PayToDebtor): string {
  return debtor.kind === "bban"
    ? `BBAN:${debtor.bsb}${debtor.accountNumber}`
    : `${debtor.aliasType}:${debtor.aliasValue.trim().toLowerCase()}`;
}

/**
 * What a person typed into the bank's "whose bank is this" field, as candidate payer keys:
 * a BSB and account number ("062-000 12345678"), an email PayID, or a phone number / ABN
 * PayID (as typed and without spaces). Null: none of these.
 */
export function payerKeysFromInput(input: string): string[] | null {
  const text = input.trim();
  if (text === "" || text.length > 256) return null;
  const bban = /^(\d{3})[\s-]?(\d{3})[\s-]*(\d{4,9})$/.exec(text);
  if (bban) return [`BBAN:${bban[1]}${bban[2]}${bban[3]}`];
  if (/^[^\s@<>"']+@[^\s@<>"']+\.[^\s@<>"']+$/.test(text)) return [`EMAL:${text.toLowerCase()}`];
  if (/^\+?[\d\s-]{6,20}$/.test(text)) {
    const values = [...new Set([text, text.replace(/[\s-]/g, "")])];
    return ["TELI", "AUBN", "ORGN"].flatMap((type) => values.map((value) => `${type}:${value}`));
  }
  return null;
}

function outcomeFor(debtor: PayToDebtor): SandboxPayToOutcome {
  if (debtor.kind === "bban") {
    if (debtor.bsb !== SANDBOX_PAYTO_TEST_BSB) return "payer";
    return Object.hasOwn(SANDBOX_PAYTO_TEST_ACCOUNTS, debtor.accountNumber)
      ? SANDBOX_PAYTO_TEST_ACCOUNTS[debtor.accountNumber]!
      : "payer";
  }
  const value = debtor.aliasValue.trim().toLowerCase();
  return Object.hasOwn(SANDBOX_PAYTO_TEST_PAYIDS, value) ? SANDBOX_PAYTO_TEST_PAYIDS[value]! : "payer";
}

/* ----------------------------- webhook signing ----------------------------- */

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

/* --------------------------------- delivery -------------------------------- */

/** Where webhooks go: SANDBOX_PAYTO_WEBHOOK_URL, else this process's own webhook route. */
function webhookUrl(): URL {
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

/* --------------------------------- helpers --------------------------------- */

type AgreementRow = Selectable<SandboxPayToAgreementsTable>;
type PaymentRow = Selectable<SandboxPayToPaymentsTable>;
type Tx = Transaction<DB>;

/**
 * Ids sort by creation time and, within one millisecond, by this process's sequence (webhooks
 * are sent oldest first); the random part keeps them unguessable.
 */
let sequence = 0;
const newId = (prefix: string, now: Date) => {
  sequence = (sequence + 1) % 36 ** 4;
  const order = `${now.getTime().toString(36).padStart(9, "0")}${sequence.toString(36).padStart(4, "0")}`;
  return `${prefix}_${order}${randomBytes(12).toString("base64url")}`;
};

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toAgreement(row: AgreementRow): ProviderAgreement {
  return {
    agreementId: row.id,
    idempotencyKey: row.idempotency_key,
    merchant: row.merchant,
    status: row.status as AgreementStatus,
    version: row.version,
    statusReason: row.status_reason,
    maxAmountCents: Number(row.max_amount_cents),
    updatedAt: iso(row.updated_at),
  };
}

function toBankAgreement(row: AgreementRow): BankAgreement {
  return {
    ...toAgreement(row),
    description: row.description,
    hostname: row.hostname,
    partyName: row.party_name,
    payer: row.payer,
    createdAt: iso(row.created_at),
    actions: payerActionsFor(row.status as AgreementStatus),
  };
}

function toPayment(row: PaymentRow, merchant: string): ProviderPayment {
  return {
    paymentId: row.id,
    idempotencyKey: row.idempotency_key,
    merchant,
    agreementId: row.agreement_id,
    status: row.status as ProviderPaymentStatus,
    version: row.version,
    amountCents: Number(row.amount_cents),
    failureReason: (row.failure_reason as PayToPaymentFailure | null) ?? null,
    updatedAt: iso(row.updated_at),
  };
}

async function queueWebhook(tx: Tx, hostname: string, event: PayToEvent, now: Date) {
  await tx
    .insertInto("sandbox_payto_webhooks")
    .values({ id: event.id, hostname, body: JSON.stringify(event), next_attempt_at: now })
    .execute();
}

const backoffMs = (attempts: number) => Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.max(0, attempts - 1));

const isSafeCents = (cents: number) => Number.isSafeInteger(cents) && cents > 0;

/* --------------------------------- adapter --------------------------------- */

export function createSandboxPayTo(options: SandboxPayToOptions): SandboxPayTo {
  const env = getEnv();
  const db = options.db ?? getDb;
  const delayMs = options.delayMs ?? env.SANDBOX_PAYTO_DELAY_MS;
  const clock = options.now ?? (() => new Date());
  const deliver = options.deliver ?? httpDeliverer(webhookUrl());
  const expireMs = options.expireMs ?? env.SANDBOX_PAYTO_EXPIRE_MS;
  const settleMs = options.settleMs ?? env.SANDBOX_PAYTO_SETTLE_MS;
  const suspendMs = options.suspendMs ?? env.SANDBOX_PAYTO_SUSPEND_MS;
  const secret = options.secret;

  const delay = () => (delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve());
  const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

  async function agreementRow(id: string) {
    return (await db()).selectFrom("sandbox_payto_agreements").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /**
   * One step of an agreement: guarded by its status and version (two processes or two clicks
   * cannot both take it), version + 1, and the webhook queued in the same transaction unless
   * the change is silent (the lapsed payer's cancellation).
   */
  async function step(
    row: AgreementRow,
    to: AgreementStatus,
    reason: string,
    now: Date,
    next: { action: string; at: Date } | null,
    silent = false,
  ): Promise<AgreementRow | null> {
    return (await db()).transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable("sandbox_payto_agreements")
        .set({
          status: to,
          status_reason: reason,
          version: sql`version + 1`,
          updated_at: now,
          next_action: next?.action ?? null,
          next_action_at: next?.at ?? null,
          silent,
        })
        .where("id", "=", row.id)
        .where("version", "=", row.version)
        .where("status", "=", row.status)
        .returningAll()
        .executeTakeFirst();
      if (!updated) return null;
      if (!silent) {
        const event: PayToEvent = {
          id: newId("evt", now),
          type: "agreement.updated",
          createdAt: now.toISOString(),
          data: toAgreement(updated),
        };
        await queueWebhook(tx, updated.hostname, event, now);
      }
      return updated;
    });
  }

  /** What the outcome does next once the payer has approved. */
  function afterApproval(outcome: string, now: Date) {
    if (outcome === "suspend") return { action: "suspend", at: later(now, suspendMs) };
    if (outcome === "lapsed") return { action: "lapse", at: later(now, suspendMs) };
    return null;
  }

  async function payerStep(agreementId: string, action: PayerAction): Promise<PayerActionResult> {
    await delay();
    const now = clock();
    // Retried: a time-driven step may have moved the row between our read and our write.
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await agreementRow(agreementId);
      if (!row) return { ok: false, reason: "not_found", message: "There is no such agreement at this bank." };
      const status = row.status as AgreementStatus;
      if (!payerActionsFor(status).includes(action)) {
        return {
          ok: false,
          reason: "not_allowed",
          message: `This agreement is ${status.toLowerCase()}: it cannot be ${pastTense(action)} now.`,
        };
      }
      const target = PAYER_STEPS[action];
      // Only the first approval starts the outcome's later step (a resumed suspend@ stays resumed).
      const next = action === "approve" ? afterApproval(row.outcome, now) : null;
      const updated = await step(row, target.to, target.reason, now, next);
      if (updated) return { ok: true, agreement: toBankAgreement(updated) };
    }
    return { ok: false, reason: "not_allowed", message: "The agreement changed meanwhile: look at it again." };
  }

  async function createAgreement(input: CreateAgreementInput): Promise<ProviderResult<ProviderAgreement>> {
    await delay();
    const q = await db();
    const seen = await q
      .selectFrom("sandbox_payto_agreements")
      .selectAll()
      .where("idempotency_key", "=", input.idempotencyKey)
      .executeTakeFirst();
    if (seen) return { ok: true, value: toAgreement(seen) };

    const debtor = input.debtor;
    if (debtor.kind === "bban") {
      if (!/^\d{6}$/.test(debtor.bsb) || !/^\d{4,9}$/.test(debtor.accountNumber)) {
        return { ok: false, refusal: "invalid_account" };
      }
    } else {
      const value = typeof debtor.aliasValue === "string" ? debtor.aliasValue.trim() : "";
      if (value === "" || value.length > 256) return { ok: false, refusal: "invalid_payid" };
    }
    if (!isSafeCents(input.maxAmountCents)) return { ok: false, refusal: "limit_exceeded" };
    const outcome = outcomeFor(debtor);
    if (outcome === "unavailable") return { ok: false, refusal: "unavailable" };

    const now = clock();
    const decision = AUTO_DECISION[outcome];
    const inserted = await q
      .insertInto("sandbox_payto_agreements")
      .values({
        id: newId("agr_sbx", now),
        idempotency_key: input.idempotencyKey,
        merchant: input.merchant,
        hostname: input.hostname,
        status: "CREATED",
        status_reason: "Waiting for the payer",
        version: 1,
        payer: payerKeyFor(debtor),
        party_name: debtor.partyName.slice(0, 140),
        outcome,
        max_amount_cents: input.maxAmountCents,
        description: input.description.slice(0, 280),
        next_action: decision ?? "expire",
        next_action_at: decision ? later(now, AUTO_DECISION_MS) : later(now, expireMs),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .returningAll()
      .executeTakeFirst();
    // Two requests raced on one key: the other one's agreement is the agreement.
    const row =
      inserted ??
      (await q
        .selectFrom("sandbox_payto_agreements")
        .selectAll()
        .where("idempotency_key", "=", input.idempotencyKey)
        .executeTakeFirstOrThrow());
    return { ok: true, value: toAgreement(row) };
  }

  async function getAgreement(agreementId: string): Promise<ProviderAgreement | null> {
    await delay();
    const row = await agreementRow(agreementId);
    return row ? toAgreement(row) : null;
  }

  async function findAgreement(idempotencyKey: string): Promise<ProviderAgreement | null> {
    await delay();
    const row = await (
      await db()
    )
      .selectFrom("sandbox_payto_agreements")
      .selectAll()
      .where("idempotency_key", "=", idempotencyKey)
      .executeTakeFirst();
    return row ? toAgreement(row) : null;
  }

  async function cancelAgreement(agreementId: string): Promise<ProviderResult<ProviderAgreement>> {
    await delay();
    const now = clock();
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await agreementRow(agreementId);
      if (!row) return { ok: false, refusal: "invalid_account" };
      const status = row.status as AgreementStatus;
      if (TERMINAL_AGREEMENT_STATUSES.includes(status)) return { ok: true, value: toAgreement(row) };
      const updated = await step(row, "CANCELLED", "Cancelled by the business", now, null);
      if (updated) return { ok: true, value: toAgreement(updated) };
    }
    const row = await agreementRow(agreementId);
    return row ? { ok: true, value: toAgreement(row) } : { ok: false, refusal: "invalid_account" };
  }

  async function paymentByKey(idempotencyKey: string): Promise<ProviderPayment | null> {
    const row = await (
      await db()
    )
      .selectFrom("sandbox_payto_payments")
      .innerJoin("sandbox_payto_agreements", "sandbox_payto_agreements.id", "sandbox_payto_payments.agreement_id")
      .selectAll("sandbox_payto_payments")
      .select("sandbox_payto_agreements.merchant")
      .where("sandbox_payto_payments.idempotency_key", "=", idempotencyKey)
      .executeTakeFirst();
    return row ? toPayment(row, row.merchant) : null;
  }

  async function initiatePayment(input: InitiatePaymentInput): Promise<ProviderResult<ProviderPayment>> {
    await delay();
    const seen = await paymentByKey(input.idempotencyKey);
    if (seen) return { ok: true, value: seen };
    const agreement = await agreementRow(input.agreementId);
    if (!agreement) return { ok: false, refusal: "invalid_account" };
    if (agreement.status !== "ACTIVE") return { ok: false, refusal: "agreement_not_active" };
    if (!isSafeCents(input.amountCents) || input.amountCents > Number(agreement.max_amount_cents)) {
      return { ok: false, refusal: "limit_exceeded" };
    }
    const now = clock();
    await (
      await db()
    )
      .insertInto("sandbox_payto_payments")
      .values({
        id: newId("pay_sbx", now),
        idempotency_key: input.idempotencyKey,
        agreement_id: agreement.id,
        amount_cents: input.amountCents,
        currency: input.currency.slice(0, 3),
        status: "CREATED",
        version: 1,
        settle_at: later(now, settleMs),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .execute();
    // Whoever won a race on the key, its payment is the payment.
    const payment = (await paymentByKey(input.idempotencyKey))!;
    if (agreement.outcome === "slow") throw new PayToTimeoutError();
    return { ok: true, value: payment };
  }

  async function getPayment(idempotencyKey: string): Promise<ProviderPayment | null> {
    await delay();
    return paymentByKey(idempotencyKey);
  }

  async function registerPayId(input: RegisterPayIdInput): Promise<ProviderResult<{ payId: string }>> {
    await delay();
    const payId = input.payId.trim().toLowerCase();
    if (!/^[^\s@]{1,64}@[^\s@]{1,190}$/.test(payId)) return { ok: false, refusal: "invalid_payid" };
    const q = await db();
    await q
      .insertInto("sandbox_payto_payids")
      .values({
        payid: payId,
        merchant: input.merchant,
        hostname: input.hostname,
        reference: input.reference,
        name: input.name.slice(0, 140),
        created_at: clock(),
      })
      .onConflict((oc) => oc.column("payid").doNothing())
      .execute();
    const row = await q.selectFrom("sandbox_payto_payids").selectAll().where("payid", "=", payId).executeTakeFirst();
    // A PayID names one account: someone else's registration of it is refused.
    if (!row || row.merchant !== input.merchant || row.reference !== input.reference) {
      return { ok: false, refusal: "invalid_payid" };
    }
    return { ok: true, value: { payId } };
  }

  async function sendToPayId(input: {
    payId: string;
    amountCents: number;
    payerName: string;
  }): Promise<SendToPayIdResult> {
    await delay();
    if (!isSafeCents(input.amountCents)) {
      return { ok: false, reason: "invalid_amount", message: "Enter an amount of at least $0.01." };
    }
    const payerName = input.payerName.trim();
    if (payerName === "" || payerName.length > 140) {
      return { ok: false, reason: "invalid_name", message: "Enter the payer's name (at most 140 characters)." };
    }
    const payId = input.payId.trim().toLowerCase();
    const q = await db();
    const target =
      payId.length > 256
        ? undefined
        : await q.selectFrom("sandbox_payto_payids").selectAll().where("payid", "=", payId).executeTakeFirst();
    if (!target) {
      return { ok: false, reason: "unknown_payid", message: "No business has registered this PayID." };
    }
    const now = clock();
    const incoming: IncomingPayment = {
      transactionId: newId("txn_sbx", now),
      payId,
      reference: target.reference,
      merchant: target.merchant,
      amountCents: input.amountCents,
      payerName,
      receivedAt: now.toISOString(),
    };
    await q.transaction().execute(async (tx) => {
      await tx
        .insertInto("sandbox_payto_incoming")
        .values({
          id: incoming.transactionId,
          payid: payId,
          amount_cents: input.amountCents,
          payer_name: payerName,
          created_at: now,
        })
        .execute();
      const event: PayToEvent = {
        id: newId("evt", now),
        type: "payid.received",
        createdAt: now.toISOString(),
        data: incoming,
      };
      await queueWebhook(tx, target.hostname, event, now);
    });
    return { ok: true, incoming };
  }

  async function listForPayer(payerKey: string | readonly string[]): Promise<BankAgreement[]> {
    await delay();
    const keys = typeof payerKey === "string" ? [payerKey] : [...payerKey];
    if (keys.length === 0) return [];
    const rows = await (
      await db()
    )
      .selectFrom("sandbox_payto_agreements")
      .selectAll()
      .where("payer", "in", keys)
      .orderBy(sql`CASE WHEN status = 'CREATED' THEN 0 ELSE 1 END`)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(200)
      .execute();
    return rows.map(toBankAgreement);
  }

  async function findAgreementForBank(agreementId: string): Promise<BankAgreement | null> {
    await delay();
    if (agreementId.length > 100) return null;
    const row = await agreementRow(agreementId);
    return row ? toBankAgreement(row) : null;
  }

  /* ------------------------------ time-driven ------------------------------ */

  async function runDueAgreements(now: Date): Promise<number> {
    const due = await (
      await db()
    )
      .selectFrom("sandbox_payto_agreements")
      .selectAll()
      .where("next_action", "is not", null)
      .where("next_action_at", "<=", now)
      .orderBy("next_action_at")
      .limit(100)
      .execute();
    let moved = 0;
    for (const row of due) {
      const status = row.status as AgreementStatus;
      let done: AgreementRow | null = null;
      switch (row.next_action) {
        case "approve":
          if (status === "CREATED") {
            done = await step(row, "ACTIVE", "Approved by the payer", now, afterApproval(row.outcome, now));
          }
          break;
        case "decline":
          if (status === "CREATED") done = await step(row, "DECLINED", "Declined by the payer", now, null);
          break;
        case "expire":
          if (status === "CREATED") {
            done = await step(row, "EXPIRED", "The payer did not answer in time", now, null);
          }
          break;
        case "suspend":
          if (status === "ACTIVE") done = await step(row, "SUSPENDED", "Suspended by the payer", now, null);
          break;
        case "lapse":
          // The payer cancels in their bank and the provider says nothing (decision 027).
          if (status === "ACTIVE") done = await step(row, "CANCELLED", "Cancelled by the payer", now, null, true);
          break;
      }
      if (done) moved++;
      else {
        // The planned step no longer applies (the payer or business acted first): forget it.
        await (
          await db()
        )
          .updateTable("sandbox_payto_agreements")
          .set({ next_action: null, next_action_at: null })
          .where("id", "=", row.id)
          .where("version", "=", row.version)
          .where("next_action", "=", row.next_action)
          .execute();
      }
    }
    return moved;
  }

  async function runDuePayments(now: Date): Promise<number> {
    const due = await (
      await db()
    )
      .selectFrom("sandbox_payto_payments")
      .innerJoin("sandbox_payto_agreements", "sandbox_payto_agreements.id", "sandbox_payto_payments.agreement_id")
      .selectAll("sandbox_payto_payments")
      .select([
        "sandbox_payto_agreements.merchant",
        "sandbox_payto_agreements.hostname",
        "sandbox_payto_agreements.outcome",
        "sandbox_payto_agreements.status as agreement_status",
      ])
      .where("sandbox_payto_payments.status", "=", "CREATED")
      .where("sandbox_payto_payments.settle_at", "<=", now)
      .orderBy("sandbox_payto_payments.settle_at")
      .limit(100)
      .execute();
    let settled = 0;
    for (const payment of due) {
      const failure: PayToPaymentFailure | null =
        payment.agreement_status !== "ACTIVE"
          ? "agreement_not_active"
          : payment.outcome === "nofunds"
            ? "insufficient_funds"
            : null;
      const done = await (await db()).transaction().execute(async (tx) => {
        const updated = await tx
          .updateTable("sandbox_payto_payments")
          .set({
            status: failure ? "FAILED" : "SETTLED",
            failure_reason: failure,
            version: sql`version + 1`,
            updated_at: now,
            settle_at: null,
          })
          .where("id", "=", payment.id)
          .where("status", "=", "CREATED")
          .where("version", "=", payment.version)
          .returningAll()
          .executeTakeFirst();
        if (!updated) return false;
        const event: PayToEvent = {
          id: newId("evt", now),
          type: "payment.updated",
          createdAt: now.toISOString(),
          data: toPayment(updated, payment.merchant),
        };
        await queueWebhook(tx, payment.hostname, event, now);
        return true;
      });
      if (done) settled++;
    }
    return settled;
  }

  async function deliverDue(now: Date): Promise<{ delivered: number; failed: number }> {
    const q = await db();
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
      const signature = signWebhook(secret, hook.body, Math.floor(now.getTime() / 1000));
      let status = 0;
      try {
        status = await deliver(hook.hostname, hook.body, {
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

  async function runDue(now: Date = clock()): Promise<RunDueSummary> {
    const agreements = await runDueAgreements(now);
    const payments = await runDuePayments(now);
    const hooks = await deliverDue(now);
    return { agreements, payments, webhooksDelivered: hooks.delivered, webhooksFailed: hooks.failed };
  }

  return {
    name: "PayTo sandbox",
    sandbox: true,
    createAgreement,
    getAgreement,
    findAgreement,
    cancelAgreement,
    initiatePayment,
    getPayment,
    registerPayId,
    verifyWebhook: (headers, rawBody, now) => verifySignedWebhook(secret, headers, rawBody, now),
    payerApproves: (id) => payerStep(id, "approve"),
    payerDeclines: (id) => payerStep(id, "decline"),
    payerSuspends: (id) => payerStep(id, "suspend"),
    payerResumes: (id) => payerStep(id, "resume"),
    payerCancels: (id) => payerStep(id, "cancel"),
    sendToPayId,
    listForPayer,
    findAgreementForBank,
    runDue,
  };
}

function pastTense(action: PayerAction) {
  return { approve: "approved", decline: "declined", suspend: "suspended", resume: "resumed", cancel: "cancelled" }[
    action
  ];
}

/** The configured provider when it is the sandbox (the bank page and the clock need its controls). */
export function asSandboxPayTo(provider: PayToProvider): SandboxPayTo | null {
  return (provider as Partial<SandboxPayTo>).sandbox === true ? (provider as SandboxPayTo) : null;
}

/**
 * Runs the sandbox's clock in this process (expiry, the banks' own answers, settlement,
 * webhook delivery). Several processes may run it at once: every step is guarded. Unref'd,
 * so it never keeps the process alive.
 */
export function startSandboxClock(
  intervalMs = 1_000,
  tick: () => Promise<unknown> = async () => asSandboxPayTo(getPayToProvider())?.runDue(new Date()),
) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch((error: unknown) => logger.error("sandbox payto clock failed", { error }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
