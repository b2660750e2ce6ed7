import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { z } from "zod";
import {
  AGREEMENT_KINDS,
  AGREEMENT_OFFER_STATES,
  AGREEMENT_REFERENCE,
  AGREEMENT_TEXT_MAX,
  agreementOfferState,
  agreementTextProblem,
  normaliseAgreementText,
  readTypedName,
  recordedUserAgent,
  titleProblem,
  type AgreementKind,
  type AgreementOfferState,
  type StoredOfferStatus,
} from "~/lib/agreements";
import type { MessageKey } from "~/lib/i18n";
import { rawTextMax } from "~/lib/input-bounds";
import { contactMayActFor, visibleAccounts } from "../accounts/accounts.server";
import { findBusinessBranding, publicLink } from "../host/host.server";
import { createLinkToken, revokeLinkTokens } from "../links/link-tokens.server";
import { audit } from "../platform/audit.server";
import { now as clockNow } from "../platform/clock.server";
import { decodeCursor, encodeCursor } from "../platform/cursor.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { sendContactMail } from "../communication/contact-mail.server";
import { clip, findAccount } from "../requests/lookups.server";
import { UUID } from "~/lib/ids";
import { invalid, RequestProblem, zodFields } from "../requests/problems.server";
import { renderAgreementOfferEmail } from "./agreement-email.server";

/**
 * Agreements (issue 15; decisions 034 and 036): a business's documents, published in versions
 * that never change; offers of a document to one contact of one account, each emailed with a
 * link; and the contact's decision — accept or decline — recorded once and never changed.
 *
 * The back-office API and the CLI call the document and offer functions; the pages call
 * `loadAgreementOffer`, `decideAgreementOffer` and the lists. Problems are `RequestProblem`s
 * (validation → 400, not-found → 404, conflict → 409), as for payment requests.
 */
export const DEFAULT_OFFER_EXPIRY_DAYS = 30;
export const MAX_OFFER_EXPIRY_DAYS = 90;
export const DEFAULT_LIST_LIMIT = 25;
export const MAX_LIST_LIMIT = 100;
const DAY_MS = 86_400_000;
const REFERENCE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Runs inside the service's transaction, just before it commits (the API's idempotency record). */
type BeforeCommit = (tx: Db, resourceId: string) => Promise<void>;

/** SHA-256 (hex) of a text's UTF-8 bytes: what a version records and a download lets anyone check. */
export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export const KIND_LABELS: Record<AgreementKind, string> = {
  "terms-of-trade": "terms of trade",
  "direct-debit": "direct-debit request",
  "card-authority": "card authority",
  other: "agreement",
};

// ---------------------------------------------------------------------------------------------
// Views

export type AgreementVersionView = {
  id: string;
  version: number;
  body: string;
  bodySha256: string;
  /** UTF-8 bytes of the body: what the hash is taken over. */
  bytes: number;
  publishedAt: string;
};

export type AgreementDocumentView = {
  id: string;
  kind: AgreementKind;
  title: string;
  createdAt: string;
  latestVersion: Omit<AgreementVersionView, "body">;
};

export type AgreementDocumentDetail = AgreementDocumentView & { versions: AgreementVersionView[] };

export type AgreementDecisionView = {
  decision: "accepted" | "declined";
  version: { id: string; version: number };
  typedName: string;
  bodySha256: string;
  contact: { id: string; email: string };
  clientAddress: string;
  userAgent: string;
  decidedAt: string;
};

export type AgreementOfferView = {
  id: string;
  reference: string;
  state: AgreementOfferState;
  document: { id: string; kind: AgreementKind; title: string };
  account: { id: string; number: string; name: string };
  contact: { id: string; email: string };
  expiresAt: string;
  createdAt: string;
  sentAt: string | null;
  sendCount: number;
  /** When a link of this offer was first opened (any of its links, a resent one too). */
  openedAt: string | null;
  withdrawnAt: string | null;
  decision: AgreementDecisionView | null;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

// ---------------------------------------------------------------------------------------------
// Input

const line = (what: string, max: number) =>
  z
    .string({ required_error: `Give the ${what}.`, invalid_type_error: `Give the ${what} as text.` })
    .trim()
    .min(1, `Give the ${what}.`)
    .max(max, `That is too long for the ${what} (at most ${max} characters).`);

/** Bounded raw (rawTextMax) before publishableText counts its characters against AGREEMENT_TEXT_MAX. */
const bodyField = z
  .string({
    required_error: "Give the agreement's text (the portal's simple Markdown).",
    invalid_type_error: "Give the agreement's text as a string.",
  })
  .max(
    rawTextMax(AGREEMENT_TEXT_MAX),
    `The text is too long (at most ${AGREEMENT_TEXT_MAX.toLocaleString("en-AU")} characters).`,
  );

const DocumentSchema = z
  .object({
    kind: z.enum(AGREEMENT_KINDS, {
      errorMap: () => ({ message: `Use one of ${AGREEMENT_KINDS.join(", ")}.` }),
    }),
    title: line("title", 200),
    body: bodyField,
  })
  .strict();

const VersionSchema = z.object({ body: bodyField }).strict();

const OfferSchema = z
  .object({
    document: line("agreement document's id", 100),
    account: line("account's id or number", 100),
    contact: line("contact's id or email", 254),
    expiresInDays: z
      .number({ invalid_type_error: "Give a whole number of days." })
      .int("Give a whole number of days.")
      .min(1, "At least 1 day.")
      .max(MAX_OFFER_EXPIRY_DAYS, `At most ${MAX_OFFER_EXPIRY_DAYS} days.`)
      .nullish(),
  })
  .strict();

/** The text as it will be published, or a validation problem naming the field. */
function publishableText(raw: string, field = "body"): string {
  const body = normaliseAgreementText(raw);
  const problem = agreementTextProblem(body);
  if (problem) throw invalid({ [field]: problem });
  return body;
}

// ---------------------------------------------------------------------------------------------
// Documents and versions

/**
 * A new document with its first version, in one transaction. The title is one line of 1–200
 * characters; the text is the portal's simple Markdown, line endings made "\n", at most
 * 100,000 characters, and its SHA-256 is taken over exactly those UTF-8 bytes.
 */
export async function createAgreementDocument(
  businessId: string,
  input: unknown,
  options: { beforeCommit?: BeforeCommit } = {},
): Promise<AgreementDocumentDetail> {
  const parsed = DocumentSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const { kind, title } = parsed.data;
  const fields: Record<string, string> = {};
  const badTitle = titleProblem(title);
  if (badTitle) fields.title = badTitle;
  let body = "";
  try {
    body = publishableText(parsed.data.body);
  } catch (error) {
    Object.assign(fields, (error as RequestProblem).fields);
  }
  if (Object.keys(fields).length) throw invalid(fields);
  const at = clockNow();
  const db = await getDb();
  const documentId = await db.transaction().execute(async (tx) => {
    const document = await tx
      .insertInto("agreement_documents")
      .values({ business_id: businessId, kind, title, created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    await tx
      .insertInto("agreement_versions")
      .values({
        business_id: businessId,
        document_id: document.id,
        version: 1,
        body,
        body_sha256: sha256Hex(body),
        published_at: at,
      })
      .execute();
    await options.beforeCommit?.(tx, document.id);
    return document.id;
  });
  await audit({ businessId, action: "agreement.published", details: { documentId, version: 1 } });
  return (await getAgreementDocument(businessId, documentId))!;
}

/**
 * Publishes the next version of a document. Published text is never edited (the database
 * refuses); a change is a new version, which every offer not yet decided shows from now on.
 * The same text as the latest version is refused: there would be nothing new to read, yet
 * everyone reading the old one would be told it changed.
 */
export async function publishAgreementVersion(
  businessId: string,
  documentId: unknown,
  input: unknown,
  options: { beforeCommit?: BeforeCommit } = {},
): Promise<AgreementDocumentDetail> {
  if (typeof documentId !== "string" || !UUID.test(documentId)) {
    throw new RequestProblem("not-found", "No such agreement document.");
  }
  const parsed = VersionSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const body = publishableText(parsed.data.body);
  const hash = sha256Hex(body);
  const db = await getDb();
  const version = await db.transaction().execute(async (tx) => {
    // The document's row lock orders publishing against deciding (which takes it FOR SHARE):
    // a decision names the version that was latest when it committed.
    const document = await tx
      .selectFrom("agreement_documents")
      .select("id")
      .where("business_id", "=", businessId)
      .where("id", "=", documentId.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!document) throw new RequestProblem("not-found", "No such agreement document.");
    const latest = await tx
      .selectFrom("agreement_versions")
      .select(["version", "body_sha256 as bodySha256"])
      .where("document_id", "=", document.id)
      .orderBy("version", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    if (latest.bodySha256 === hash) {
      throw new RequestProblem(
        "conflict",
        `This text is the same as version ${latest.version}: there is nothing new to publish.`,
      );
    }
    const next = latest.version + 1;
    await tx
      .insertInto("agreement_versions")
      .values({
        business_id: businessId,
        document_id: document.id,
        version: next,
        body,
        body_sha256: hash,
        published_at: clockNow(),
      })
      .execute();
    await options.beforeCommit?.(tx, document.id);
    return next;
  });
  await audit({ businessId, action: "agreement.published", details: { documentId, version } });
  return (await getAgreementDocument(businessId, documentId))!;
}

/** One document of the business with every version (their text too), or null. Two statements. */
export async function getAgreementDocument(
  businessId: string,
  documentId: unknown,
): Promise<AgreementDocumentDetail | null> {
  if (typeof documentId !== "string" || !UUID.test(documentId)) return null;
  const db = await getDb();
  const document = await db
    .selectFrom("agreement_documents")
    .select(["id", "kind", "title", "created_at as createdAt"])
    .where("business_id", "=", businessId)
    .where("id", "=", documentId.toLowerCase())
    .executeTakeFirst();
  if (!document) return null;
  const versions = await db
    .selectFrom("agreement_versions")
    .select(["id", "version", "body", "body_sha256 as bodySha256", "published_at as publishedAt"])
    .where("business_id", "=", businessId)
    .where("document_id", "=", document.id)
    .orderBy("version", "desc")
    .execute();
  const views = versions.map((v): AgreementVersionView => ({
    id: v.id,
    version: v.version,
    body: v.body,
    bodySha256: v.bodySha256,
    bytes: Buffer.byteLength(v.body, "utf8"),
    publishedAt: iso(v.publishedAt)!,
  }));
  const { body: _body, ...latestVersion } = views[0]!;
  return {
    id: document.id,
    kind: document.kind,
    title: document.title,
    createdAt: iso(document.createdAt)!,
    latestVersion,
    versions: views,
  };
}

/**
 * The business's documents, newest first, a page at a time (keyset on created_at and id along
 * agreement_documents_business_idx), each with its latest version's number, hash and date.
 */
export async function listAgreementDocuments(
  businessId: string,
  query: { limit?: number | null; cursor?: string | null } = {},
): Promise<{ items: AgreementDocumentView[]; nextCursor: string | null }> {
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const fields: Record<string, string> = {};
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    fields.limit = `Use a whole number from 1 to ${MAX_LIST_LIMIT}.`;
  }
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) fields.cursor = "Use the nextCursor of the previous page as it was given.";
  if (Object.keys(fields).length) throw invalid(fields);
  const db = await getDb();
  let select = db
    .selectFrom("agreement_documents as d")
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("agreement_versions as v")
          .select([
            "v.id",
            "v.version",
            "v.body_sha256 as bodySha256",
            sql<number>`octet_length(v.body)`.as("bytes"),
            "v.published_at as publishedAt",
          ])
          .whereRef("v.document_id", "=", "d.id")
          .orderBy("v.version", "desc")
          .limit(1)
          .as("latest"),
      (join) => join.onTrue(),
    )
    .select([
      "d.id",
      "d.kind",
      "d.title",
      "d.created_at as createdAt",
      sql<string>`to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("cursorAt"),
      "latest.id as versionId",
      "latest.version",
      "latest.bodySha256",
      "latest.bytes",
      "latest.publishedAt",
    ])
    .where("d.business_id", "=", businessId);
  if (cursor) {
    select = select.where(sql<boolean>`(d.created_at, d.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
  }
  const rows = await select
    .orderBy("d.created_at", "desc")
    .orderBy("d.id", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({
      id: row.id,
      kind: row.kind,
      title: row.title,
      createdAt: iso(row.createdAt)!,
      latestVersion: {
        id: row.versionId,
        version: row.version,
        bodySha256: row.bodySha256,
        bytes: Number(row.bytes),
        publishedAt: iso(row.publishedAt)!,
      },
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursorAt, last.id) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Offers: read

function selectOffers(db: Db, businessId: string) {
  return db
    .selectFrom("agreement_offers as o")
    .innerJoin("agreement_documents as d", (join) =>
      join.onRef("d.id", "=", "o.document_id").onRef("d.business_id", "=", "o.business_id"),
    )
    .innerJoin("accounts as a", (join) =>
      join.onRef("a.id", "=", "o.account_id").onRef("a.business_id", "=", "o.business_id"),
    )
    .innerJoin("contacts as c", "c.id", "o.contact_id")
    .leftJoin("agreement_decisions as dec", "dec.offer_id", "o.id")
    .leftJoin("agreement_versions as dv", "dv.id", "dec.version_id")
    .leftJoin("contacts as dc", "dc.id", "dec.contact_id")
    .select((eb) => [
      "o.id",
      "o.reference",
      "o.status",
      "o.expires_at as expiresAt",
      "o.created_at as createdAt",
      "o.sent_at as sentAt",
      "o.send_count as sendCount",
      "o.withdrawn_at as withdrawnAt",
      sql<string>`to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("cursorAt"),
      "d.id as documentId",
      "d.kind",
      "d.title",
      "a.id as accountId",
      "a.number as accountNumber",
      "a.name as accountName",
      "c.id as contactId",
      "c.email as contactEmail",
      "dec.decision",
      "dec.typed_name as typedName",
      "dec.body_sha256 as decidedSha256",
      "dec.ip_address as clientAddress",
      "dec.user_agent as userAgent",
      "dec.decided_at as decidedAt",
      "dv.id as decidedVersionId",
      "dv.version as decidedVersion",
      "dc.id as deciderId",
      "dc.email as deciderEmail",
      eb
        .selectFrom("link_tokens as lt")
        .select((inner) => inner.fn.min("lt.first_opened_at").as("openedAt"))
        .where("lt.business_id", "=", businessId)
        .where("lt.purpose", "=", "agreement")
        .whereRef("lt.subject_id", "=", "o.id")
        .as("openedAt"),
    ])
    .where("o.business_id", "=", businessId);
}

type OfferRow = Awaited<ReturnType<ReturnType<typeof selectOffers>["executeTakeFirstOrThrow"]>>;

function toOfferView(row: OfferRow, now: Date): AgreementOfferView {
  return {
    id: row.id,
    reference: row.reference,
    state: agreementOfferState({ status: row.status, expiresAt: row.expiresAt }, now),
    document: { id: row.documentId, kind: row.kind, title: row.title },
    account: { id: row.accountId, number: row.accountNumber, name: row.accountName },
    contact: { id: row.contactId, email: row.contactEmail },
    expiresAt: iso(row.expiresAt)!,
    createdAt: iso(row.createdAt)!,
    sentAt: iso(row.sentAt),
    sendCount: row.sendCount,
    openedAt: iso(row.openedAt as Date | null),
    withdrawnAt: iso(row.withdrawnAt),
    decision:
      row.decision && row.decidedAt
        ? {
            decision: row.decision,
            version: { id: row.decidedVersionId!, version: row.decidedVersion! },
            typedName: row.typedName!,
            bodySha256: row.decidedSha256!,
            contact: { id: row.deciderId!, email: row.deciderEmail! },
            clientAddress: row.clientAddress!,
            userAgent: row.userAgent ?? "",
            decidedAt: iso(row.decidedAt)!,
          }
        : null,
  };
}

/**
 * One offer of the business by its id or its reference (AG-…), or null: another business's
 * offer, a malformed id and no offer at all are the same "not found". One statement.
 */
export async function getAgreementOffer(
  businessId: string,
  idOrReference: unknown,
): Promise<AgreementOfferView | null> {
  if (typeof idOrReference !== "string") return null;
  const byId = UUID.test(idOrReference);
  const reference = idOrReference.toUpperCase();
  if (!byId && !AGREEMENT_REFERENCE.test(reference)) return null;
  const db = await getDb();
  const row = await selectOffers(db, businessId)
    .where(byId ? "o.id" : "o.reference", "=", byId ? idOrReference.toLowerCase() : reference)
    .executeTakeFirst();
  return row ? toOfferView(row, clockNow()) : null;
}

/**
 * The offers of one account (by id or number) or to one contact (by id or email), newest first,
 * a page at a time along agreement_offers_account_idx / _contact_idx. One of the two is needed:
 * the business's offers are read through the account or person they concern.
 */
export async function listAgreementOffers(
  businessId: string,
  query: {
    account?: string | null;
    contact?: string | null;
    state?: string | null;
    limit?: number | null;
    cursor?: string | null;
  },
): Promise<{ items: AgreementOfferView[]; nextCursor: string | null }> {
  const fields: Record<string, string> = {};
  if (!query.account && !query.contact) fields.account = "Name the account (its id or number), or the contact.";
  const state = query.state || null;
  if (state !== null && !(AGREEMENT_OFFER_STATES as readonly string[]).includes(state)) {
    fields.state = `Use one of ${AGREEMENT_OFFER_STATES.join(", ")}.`;
  }
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    fields.limit = `Use a whole number from 1 to ${MAX_LIST_LIMIT}.`;
  }
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) fields.cursor = "Use the nextCursor of the previous page as it was given.";
  if (Object.keys(fields).length) throw invalid(fields);
  const db = await getDb();
  const now = clockNow();
  let select = selectOffers(db, businessId);
  if (query.account) {
    const account = await findAccount(db, businessId, query.account);
    if (!account) throw invalid({ account: `No account "${clip(query.account)}" at this business.` });
    select = select.where("o.account_id", "=", account.id);
  }
  if (query.contact) {
    const contact = await findContactOf(db, businessId, query.contact);
    if (!contact) throw invalid({ contact: `No contact "${clip(query.contact)}" at this business.` });
    select = select.where("o.contact_id", "=", contact.id);
  }
  if (state) {
    const s = state as AgreementOfferState;
    if (s === "offered") select = select.where("o.status", "=", "offered").where("o.expires_at", ">", now);
    else if (s === "expired") select = select.where("o.status", "=", "offered").where("o.expires_at", "<=", now);
    else select = select.where("o.status", "=", s);
  }
  if (cursor) {
    select = select.where(sql<boolean>`(o.created_at, o.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
  }
  const rows = await select
    .orderBy("o.created_at", "desc")
    .orderBy("o.id", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => toOfferView(row, now)),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursorAt, last.id) : null,
  };
}

async function findContactOf(db: Db, businessId: string, idOrEmail: string) {
  return db
    .selectFrom("contacts")
    .select(["id", "email", "first_name as firstName", "disabled_at as disabledAt"])
    .where("business_id", "=", businessId)
    .where((eb) =>
      UUID.test(idOrEmail)
        ? eb("id", "=", idOrEmail.toLowerCase())
        : eb(eb.fn("lower", ["email"]), "=", idOrEmail.toLowerCase()),
    )
    .executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// Offers: make, send again, withdraw

export type OfferDelivery = { email: string; sent: boolean; error?: string };
export type OfferResult = { offer: AgreementOfferView; delivery: OfferDelivery };

/**
 * Offers a document to one contact of one account and emails them the link, whose token lives
 * only in that email (purpose `agreement`, subject the offer, 30 days unless told). The contact
 * must be one who may act for the account (joined to it, or to its parent where the business
 * shows child accounts, and not disabled). A second offer of the same document to the same
 * contact for the same account is refused while the first is still waiting: resend or withdraw
 * it. The offer and its link are committed before the mail leaves; a mail failure is reported
 * in `delivery` (a resend fixes it), never thrown.
 */
export async function createAgreementOffer(
  businessId: string,
  input: unknown,
  options: {
    apiKeyId?: string | null;
    beforeCommit?: BeforeCommit;
    onLink?: (email: string, link: string) => void;
  } = {},
): Promise<OfferResult> {
  const parsed = OfferSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const data = parsed.data;
  const now = clockNow();
  const db = await getDb();
  const branding = await findBusinessBranding(db, businessId);
  if (!branding) throw new RequestProblem("conflict", "This business has no host name, so no link can be made.");
  const fields: Record<string, string> = {};
  const document = UUID.test(data.document)
    ? await db
        .selectFrom("agreement_documents")
        .select(["id", "title"])
        .where("business_id", "=", businessId)
        .where("id", "=", data.document.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!document) fields.document = `No agreement document "${clip(data.document)}" at this business.`;
  const account = await findAccount(db, businessId, data.account);
  if (!account) fields.account = `No account "${clip(data.account)}" at this business.`;
  const contact = await findContactOf(db, businessId, data.contact);
  if (!contact) fields.contact = `No contact "${clip(data.contact)}" at this business.`;
  else if (account && !(await contactMayActFor(businessId, contact.id, account.id))) {
    fields.contact = contact.disabledAt
      ? `${contact.email} can no longer be reached through the portal.`
      : `${contact.email} may not act for account ${account.number}.`;
  }
  if (Object.keys(fields).length || !document || !account || !contact) throw invalid(fields);
  const expiresAt = new Date(now.getTime() + (data.expiresInDays ?? DEFAULT_OFFER_EXPIRY_DAYS) * DAY_MS);

  const { offerId, token } = await db.transaction().execute(async (tx) => {
    // Two offers made at once (two API calls with different idempotency keys) would each find
    // none waiting: this lock on the (account, contact, document) triple makes the second wait
    // for the first to commit, then find it and be refused.
    const key = `agreement-offer|${businessId}|${account.id}|${contact.id}|${document.id}`;
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(tx);
    const waiting = await tx
      .selectFrom("agreement_offers")
      .select("reference")
      .where("business_id", "=", businessId)
      .where("account_id", "=", account.id)
      .where("contact_id", "=", contact.id)
      .where("document_id", "=", document.id)
      .where("status", "=", "offered")
      .where("expires_at", ">", now)
      .executeTakeFirst();
    if (waiting) {
      throw new RequestProblem(
        "conflict",
        `${waiting.reference} already offers this agreement to ${contact.email} for account ${account.number}, and is waiting for their decision: resend or withdraw it.`,
      );
    }
    const values = {
      business_id: businessId,
      account_id: account.id,
      contact_id: contact.id,
      document_id: document.id,
      email: contact.email,
      expires_at: expiresAt,
      sent_at: now,
      send_count: 1,
      created_by_api_key: options.apiKeyId ?? null,
      created_at: now,
    };
    // A reference another offer of this business already has is drawn again.
    let inserted: { id: string } | undefined;
    for (let attempt = 0; attempt < 5 && !inserted; attempt++) {
      inserted = await tx
        .insertInto("agreement_offers")
        .values({ ...values, reference: newReference() })
        .onConflict((oc) => oc.columns(["business_id", "reference"]).doNothing())
        .returning("id")
        .executeTakeFirst();
    }
    if (!inserted) throw new Error("createAgreementOffer: could not draw an unused reference");
    const link = await createLinkToken(tx, {
      businessId,
      purpose: "agreement",
      subjectId: inserted.id,
      contactId: contact.id,
      expiresAt,
    });
    await options.beforeCommit?.(tx, inserted.id);
    return { offerId: inserted.id, token: link.token };
  });
  const offer = (await getAgreementOffer(businessId, offerId))!;
  await audit({
    businessId,
    contactId: contact.id,
    action: "agreement.offered",
    details: { reference: offer.reference, documentId: document.id, accountId: account.id },
  });
  const delivery = await emailOffer(businessId, offer, contact.firstName, token, { resend: false, ...options });
  return { offer, delivery };
}

/**
 * Emails a waiting offer again with a new link; the contact's earlier links to it stop working
 * (they answer "replaced by a newer link"). A decided, withdrawn or expired offer is refused, and
 * so is a contact who may no longer act for the account.
 */
export async function resendAgreementOffer(
  businessId: string,
  idOrReference: string,
  options: { beforeCommit?: BeforeCommit; onLink?: (email: string, link: string) => void } = {},
): Promise<OfferResult> {
  const found = await getAgreementOffer(businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such agreement offer.");
  const now = clockNow();
  const db = await getDb();
  const contact = (await findContactOf(db, businessId, found.contact.id))!;
  // Read before the transaction: the embedded database has one connection, which the
  // transaction holds until it ends.
  const mayAct = await contactMayActFor(businessId, found.contact.id, found.account.id);
  const token = await db.transaction().execute(async (tx) => {
    const row = await lockOffer(tx, businessId, found.id);
    const state = agreementOfferState(row, now);
    if (state !== "offered") throw new RequestProblem("conflict", `The offer is ${state}: it can no longer be sent.`);
    if (!mayAct) {
      throw new RequestProblem(
        "conflict",
        `${contact.email} may no longer act for account ${found.account.number}: withdraw this offer, or make a new one to someone who may.`,
      );
    }
    await revokeLinkTokens(tx, { businessId, purpose: "agreement", subjectId: row.id, contactId: row.contactId });
    const link = await createLinkToken(tx, {
      businessId,
      purpose: "agreement",
      subjectId: row.id,
      contactId: row.contactId,
      expiresAt: new Date(row.expiresAt),
    });
    await tx
      .updateTable("agreement_offers")
      .set({ send_count: sql`send_count + 1`, sent_at: now })
      .where("business_id", "=", businessId)
      .where("id", "=", row.id)
      .execute();
    await options.beforeCommit?.(tx, row.id);
    return link.token;
  });
  const offer = (await getAgreementOffer(businessId, found.id))!;
  const delivery = await emailOffer(businessId, offer, contact.firstName, token, { resend: true, ...options });
  return { offer, delivery };
}

/**
 * Withdraws a waiting (or expired) offer: its links stop working and it can no longer be
 * decided. Withdrawing it again changes nothing; a decided offer cannot be withdrawn (a
 * decision is never undone — a business that wants new terms makes a new offer).
 */
export async function withdrawAgreementOffer(
  businessId: string,
  idOrReference: string,
  options: { beforeCommit?: BeforeCommit } = {},
): Promise<AgreementOfferView> {
  const found = await getAgreementOffer(businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such agreement offer.");
  const now = clockNow();
  const db = await getDb();
  const changed = await db.transaction().execute(async (tx) => {
    const row = await lockOffer(tx, businessId, found.id);
    if (row.status === "accepted" || row.status === "declined") {
      throw new RequestProblem("conflict", `The offer was ${row.status}: a decision is never undone.`);
    }
    if (row.status === "offered") {
      await tx
        .updateTable("agreement_offers")
        .set({ status: "withdrawn", withdrawn_at: now })
        .where("business_id", "=", businessId)
        .where("id", "=", row.id)
        .execute();
    }
    await revokeLinkTokens(tx, { businessId, purpose: "agreement", subjectId: row.id });
    await options.beforeCommit?.(tx, row.id);
    return row.status === "offered";
  });
  if (changed) {
    await audit({ businessId, action: "agreement.withdrawn", details: { reference: found.reference } });
  }
  return (await getAgreementOffer(businessId, found.id))!;
}

async function lockOffer(tx: Db, businessId: string, offerId: string) {
  return tx
    .selectFrom("agreement_offers")
    .select([
      "id",
      "status",
      "expires_at as expiresAt",
      "account_id as accountId",
      "contact_id as contactId",
      "document_id as documentId",
    ])
    .where("business_id", "=", businessId)
    .where("id", "=", offerId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

async function emailOffer(
  businessId: string,
  offer: AgreementOfferView,
  firstName: string,
  token: string,
  options: { resend: boolean; onLink?: (email: string, link: string) => void },
): Promise<OfferDelivery> {
  const db = await getDb();
  const branding = (await findBusinessBranding(db, businessId))!;
  const business = await db
    .selectFrom("businesses")
    .select(["support_email as supportEmail", "support_phone as supportPhone"])
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
  const latest = await db
    .selectFrom("agreement_versions")
    .select(["version", "published_at as publishedAt"])
    .where("business_id", "=", businessId)
    .where("document_id", "=", offer.document.id)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  const url = publicLink(branding, `/agreements/acceptance/${token}`);
  options.onLink?.(offer.contact.email, url);
  try {
    await sendContactMail({
      branding,
      contact: offer.contact,
      category: "agreements",
      replyTo: business.supportEmail,
      render: (preferences) =>
        renderAgreementOfferEmail({
          branding,
          support: business,
          recipientName: firstName,
          offer,
          version: { number: latest.version, publishedAt: new Date(latest.publishedAt) },
          kindLabel: KIND_LABELS[offer.document.kind],
          link: url,
          preferences,
        }),
    });
    // The reference and the recipient, never the link.
    logger.info("agreement offer emailed", {
      reference: offer.reference,
      to: offer.contact.email,
      resend: options.resend,
    });
    return { email: offer.contact.email, sent: true };
  } catch (error) {
    logger.warn("agreement offer email failed", { reference: offer.reference, to: offer.contact.email, error });
    return { email: offer.contact.email, sent: false, error: "The mail server did not take the message." };
  }
}

function newReference() {
  const bytes = randomBytes(16);
  let out = "";
  for (const byte of bytes) {
    // 252 = 7 × 36: bytes above it would favour the first characters, so they are skipped.
    if (byte < 252) out += REFERENCE_ALPHABET[byte % 36];
    if (out.length === 8) return `AG-${out}`;
  }
  return newReference();
}

// ---------------------------------------------------------------------------------------------
// The contact's side: the page, the decision, the lists

export type PageVersion = { id: string; version: number; body: string; bodySha256: string; publishedAt: Date };

/** An offer as its page shows it: the latest version to decide on, or the decided one and its record. */
export type AgreementPageOffer = {
  id: string;
  reference: string;
  status: StoredOfferStatus;
  state: AgreementOfferState;
  expiresAt: Date;
  accountId: string;
  accountName: string;
  accountNumber: string;
  contactId: string;
  document: { id: string; kind: AgreementKind; title: string };
  /** What the page shows: the latest version while waiting, the decided version once decided. */
  version: PageVersion;
  decision: {
    decision: "accepted" | "declined";
    /** Who decided: the link's contact, or a contact signed in. */
    contactId: string;
    typedName: string;
    contactEmail: string;
    clientAddress: string;
    userAgent: string;
    bodySha256: string;
    decidedAt: Date;
  } | null;
};

/**
 * The offer of this business by id (a link's subject) or reference (the signed-in pages), with
 * the text its page shows, or null. The caller decides who may see it (a link bound to it, or
 * a contact who may act for its account). Two statements.
 */
export async function loadAgreementOffer(
  businessId: string,
  by: { id: string } | { reference: string },
): Promise<AgreementPageOffer | null> {
  if ("id" in by ? !UUID.test(by.id) : !AGREEMENT_REFERENCE.test(by.reference)) return null;
  const db = await getDb();
  let query = db
    .selectFrom("agreement_offers as o")
    .innerJoin("agreement_documents as d", (join) =>
      join.onRef("d.id", "=", "o.document_id").onRef("d.business_id", "=", "o.business_id"),
    )
    .innerJoin("accounts as a", (join) =>
      join.onRef("a.id", "=", "o.account_id").onRef("a.business_id", "=", "o.business_id"),
    )
    .leftJoin("agreement_decisions as dec", "dec.offer_id", "o.id")
    .leftJoin("contacts as dc", "dc.id", "dec.contact_id")
    .select([
      "o.id",
      "o.reference",
      "o.status",
      "o.expires_at as expiresAt",
      "o.account_id as accountId",
      "a.name as accountName",
      "a.number as accountNumber",
      "o.contact_id as contactId",
      "d.id as documentId",
      "d.kind",
      "d.title",
      "dec.decision",
      "dec.version_id as decidedVersionId",
      "dec.typed_name as typedName",
      "dec.body_sha256 as decidedSha256",
      "dec.ip_address as clientAddress",
      "dec.user_agent as userAgent",
      "dec.decided_at as decidedAt",
      "dec.contact_id as deciderId",
      "dc.email as deciderEmail",
    ])
    .where("o.business_id", "=", businessId);
  query = "id" in by ? query.where("o.id", "=", by.id.toLowerCase()) : query.where("o.reference", "=", by.reference);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  let versionQuery = db
    .selectFrom("agreement_versions")
    .select(["id", "version", "body", "body_sha256 as bodySha256", "published_at as publishedAt"])
    .where("business_id", "=", businessId)
    .where("document_id", "=", row.documentId);
  versionQuery = row.decidedVersionId
    ? versionQuery.where("id", "=", row.decidedVersionId)
    : versionQuery.orderBy("version", "desc").limit(1);
  const version = await versionQuery.executeTakeFirstOrThrow();
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    state: agreementOfferState({ status: row.status, expiresAt: row.expiresAt }, clockNow()),
    expiresAt: new Date(row.expiresAt),
    accountId: row.accountId,
    accountName: row.accountName,
    accountNumber: row.accountNumber,
    contactId: row.contactId,
    document: { id: row.documentId, kind: row.kind, title: row.title },
    version: { ...version, publishedAt: new Date(version.publishedAt) },
    decision:
      row.decision && row.decidedAt
        ? {
            decision: row.decision,
            contactId: row.deciderId!,
            typedName: row.typedName!,
            contactEmail: row.deciderEmail!,
            clientAddress: row.clientAddress!,
            userAgent: row.userAgent ?? "",
            bodySha256: row.decidedSha256!,
            decidedAt: new Date(row.decidedAt),
          }
        : null,
  };
}

export type DecideInput = {
  businessId: string;
  offerId: string;
  /** Who decides: the link's contact, or the signed-in contact (the caller has checked they may act for the account). */
  contactId: string;
  /**
   * The emailed link deciding (its id), or null signed in. It is read again under the offer's
   * lock: a link replaced (resent) or revoked since the page checked it decides nothing.
   */
  linkTokenId?: string | null;
  decision: "accepted" | "declined";
  typedName: unknown;
  /** The checkbox "I have read and accept": required to accept, not to decline. */
  agreed: boolean;
  /** The version the page showed (its hidden field). */
  versionId: unknown;
  clientAddress: string;
  userAgent: string | null;
};

/**
 * Why a decision was refused (nothing is written): the offer's state (`decided`, `withdrawn`,
 * `expired`); `replaced` — the deciding link was revoked or expired after the page checked it;
 * `changed` — a newer version was published after the page was shown; `stale` — the page named
 * no version of this document (a tampered or missing field); or the form's fields.
 */
export type DecideRefusal =
  | { problem: "decided" | "withdrawn" | "expired" | "replaced" | "changed" | "stale" }
  | { problem: "fields"; errors: { typedName?: MessageKey; agreed?: MessageKey } };

export type DecideResult =
  { ok: true; decision: "accepted" | "declined"; decidedAt: Date } | ({ ok: false } & DecideRefusal);

/**
 * Records a contact's decision on an offer, once: under the offer's row lock (two submissions
 * at once: one decides, the other finds it decided) and the document's shared lock (a version
 * being published waits, or is waited for), the version the page showed must be the latest; then
 * one immutable agreement_decisions row — contact, account, version, the name typed, the text's
 * hash, the client address and user agent, the time — and the offer's state. Refusals write
 * nothing and say why.
 */
export async function decideAgreementOffer(input: DecideInput): Promise<DecideResult> {
  const { businessId } = input;
  const name = readTypedName(input.typedName);
  const errors: { typedName?: MessageKey; agreed?: MessageKey } = {};
  if (!name.ok) errors.typedName = name.error;
  if (input.decision === "accepted" && !input.agreed) errors.agreed = "agreement.error.agreed.required";
  const versionId =
    typeof input.versionId === "string" && UUID.test(input.versionId) ? input.versionId.toLowerCase() : null;
  const now = clockNow();
  const db = await getDb();
  const result = await db.transaction().execute(async (tx): Promise<DecideResult> => {
    const offer = await tx
      .selectFrom("agreement_offers")
      .select([
        "id",
        "status",
        "expires_at as expiresAt",
        "account_id as accountId",
        "document_id as documentId",
        "reference",
      ])
      .where("business_id", "=", businessId)
      .where("id", "=", input.offerId)
      .forUpdate()
      .executeTakeFirst();
    if (!offer) return { ok: false, problem: "stale" };
    const state = agreementOfferState(offer, now);
    if (state === "accepted" || state === "declined") return { ok: false, problem: "decided" };
    if (state === "withdrawn" || state === "expired") return { ok: false, problem: state };
    if (input.linkTokenId) {
      // Resend and withdraw revoke links under this same offer lock, so what is read here is
      // final until this transaction ends.
      const link = await tx
        .selectFrom("link_tokens")
        .select("id")
        .where("business_id", "=", businessId)
        .where("id", "=", input.linkTokenId)
        .where("purpose", "=", "agreement")
        .where("subject_id", "=", offer.id)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      if (!link) return { ok: false, problem: "replaced" };
    }
    await tx
      .selectFrom("agreement_documents")
      .select("id")
      .where("business_id", "=", businessId)
      .where("id", "=", offer.documentId)
      .forShare()
      .executeTakeFirstOrThrow();
    const latest = await tx
      .selectFrom("agreement_versions")
      .select(["id", "body_sha256 as bodySha256"])
      .where("document_id", "=", offer.documentId)
      .orderBy("version", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    if (versionId !== latest.id) {
      const older = versionId
        ? await tx
            .selectFrom("agreement_versions")
            .select("id")
            .where("document_id", "=", offer.documentId)
            .where("id", "=", versionId)
            .executeTakeFirst()
        : undefined;
      return { ok: false, problem: older ? "changed" : "stale" };
    }
    if (!name.ok || errors.agreed) return { ok: false, problem: "fields", errors };
    await tx
      .insertInto("agreement_decisions")
      .values({
        business_id: businessId,
        offer_id: offer.id,
        account_id: offer.accountId,
        contact_id: input.contactId,
        version_id: latest.id,
        decision: input.decision,
        typed_name: name.value,
        body_sha256: latest.bodySha256,
        ip_address: input.clientAddress.slice(0, 64),
        user_agent: recordedUserAgent(input.userAgent),
        decided_at: now,
      })
      .execute();
    await tx
      .updateTable("agreement_offers")
      .set({ status: input.decision, decided_at: now })
      .where("business_id", "=", businessId)
      .where("id", "=", offer.id)
      .execute();
    return { ok: true, decision: input.decision, decidedAt: now };
  });
  if (result.ok) {
    await audit({
      businessId,
      contactId: input.contactId,
      action: `agreement.${input.decision}`,
      clientIp: input.clientAddress,
      details: { offerId: input.offerId, versionId },
    });
  }
  return result;
}

export type ContactOffer = {
  reference: string;
  title: string;
  accountName: string;
  accountNumber: string;
  state: AgreementOfferState;
  /** The version decided on, once decided. */
  version: number | null;
  /** When it was decided, withdrawn, or offered. */
  at: Date;
};

export const OFFERS_PAGE = 20;

/**
 * A page of offers for the signed-in lists, newest first: those of one account (a portal
 * contact's selected account), or those addressed to one contact on accounts they may still
 * see (a customer-style contact, whose every link here opens). Keyset on the offer's own
 * (created_at, id), read in SQL from the last id. One statement.
 */
export async function listOffersFor(
  businessId: string,
  scope: { accountId: string } | { contactId: string },
  options: { after?: string | null; limit?: number } = {},
): Promise<{ items: ContactOffer[]; nextAfter: string | null }> {
  const limit = options.limit ?? OFFERS_PAGE;
  const after = typeof options.after === "string" && UUID.test(options.after) ? options.after.toLowerCase() : null;
  const db = await getDb();
  let query = db
    .selectFrom("agreement_offers as o")
    .innerJoin("agreement_documents as d", (join) =>
      join.onRef("d.id", "=", "o.document_id").onRef("d.business_id", "=", "o.business_id"),
    )
    .innerJoin("accounts", (join) =>
      join.onRef("accounts.id", "=", "o.account_id").onRef("accounts.business_id", "=", "o.business_id"),
    )
    .leftJoin("agreement_decisions as dec", "dec.offer_id", "o.id")
    .leftJoin("agreement_versions as dv", "dv.id", "dec.version_id")
    .select([
      "o.id",
      "o.reference",
      "o.status",
      "o.expires_at as expiresAt",
      "o.created_at as createdAt",
      "o.withdrawn_at as withdrawnAt",
      "o.decided_at as decidedAt",
      "d.title",
      "accounts.name as accountName",
      "accounts.number as accountNumber",
      "dv.version",
    ])
    .where("o.business_id", "=", businessId);
  if ("accountId" in scope) {
    query = query.where("o.account_id", "=", scope.accountId);
  } else {
    query = query
      .where("o.contact_id", "=", scope.contactId)
      .where(visibleAccounts({ businessId, contactId: scope.contactId }));
  }
  if (after) {
    query = query.where(
      sql<boolean>`(o.created_at, o.id) < (select c.created_at, c.id from agreement_offers as c
        where c.id = ${after} and c.business_id = ${businessId})`,
    );
  }
  const rows = await query
    .orderBy("o.created_at", "desc")
    .orderBy("o.id", "desc")
    .limit(limit + 1)
    .execute();
  const now = clockNow();
  const items = rows.slice(0, limit).map((row): ContactOffer => ({
    reference: row.reference,
    title: row.title,
    accountName: row.accountName,
    accountNumber: row.accountNumber,
    state: agreementOfferState({ status: row.status, expiresAt: row.expiresAt }, now),
    version: row.version ?? null,
    at: new Date(row.decidedAt ?? row.withdrawnAt ?? row.createdAt),
  }));
  return { items, nextAfter: rows.length > limit ? rows[limit - 1]!.id : null };
}

/** How many of a contact's agreements the customer-style home shows (the list has them all). */
export const HOME_AGREEMENTS = 5;

/** The home's rows: a waiting offer opens its acceptance page, any other its record. */
export function homeAgreementItems(items: ContactOffer[]) {
  return items.map((item) => ({
    reference: item.reference,
    title: item.title,
    account: `${item.accountName} (${item.accountNumber})`,
    state: item.state,
    href: agreementHref(item),
  }));
}

/** Where a signed-in contact opens one of their offers. */
export function agreementHref(item: { reference: string; state: AgreementOfferState }) {
  return item.state === "offered"
    ? `/agreements/acceptance/${item.reference}`
    : `/customer/agreement/${item.reference}`;
}
