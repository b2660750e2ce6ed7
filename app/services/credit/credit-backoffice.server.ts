import { createHash } from "node:crypto";
import { sql } from "kysely";
import { z } from "zod";
import { formatFileSize, MAX_MONEY_CENTS } from "~/lib/format";
import { rawTextMax } from "~/lib/input-bounds";
import { tradeReferenceState } from "~/lib/trade-reference";
import { mintLinkSecret } from "../links/link-tokens.server";
import { beforeCursor, listPage, pageOf } from "../links/list-limits.server";
import { audit } from "../platform/audit.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import type { CreditApplicationStatus, CreditDocumentType } from "../platform/db-schema.server";
import { logger } from "../platform/logger.server";
import { UUID } from "~/lib/ids";
import { invalid, RequestProblem, zodFields } from "../platform/problems.server";
import { findBusinessBranding } from "../host/host.server";
import { sendThroughOutbox } from "../platform/mail-outbox.server";
import {
  LISTED_STATUSES,
  type CreditApplicationDetail,
  type CreditApplicationSummary,
  type CreditDecisionView,
  type ListedStatus,
  type TradeReferenceListItem,
  type TradeReferenceView,
} from "./credit-application-views.server";
import { renderCreditDecisionEmail } from "./credit-decision-email.server";
import type { CreditDocumentReader } from "./document-read.server";
import { sendTradeReferenceRequest, TRADE_REFERENCE_LINK_MS, type RefereeDelivery } from "./trade-references.server";

/**
 * The business's side of credit applications (issue 17; decisions 032 and 041), for the
 * back-office API: the submitted applications (drafts are the applicant's, never listed), one
 * application with everything it holds, its documents' bytes, the decision — accept with a
 * limit, or decline with a reason, made once and emailed to the applicant — and the trade
 * references, listed to chase and resent with a fresh link. Every query names the business; an
 * id of another business is the same "not found" as one that does not exist. Problems are
 * `RequestProblem`s (validation → 400, not-found → 404, conflict → 409).
 */
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../links/list-limits.server";
export const DECISION_TEXT_MAX = 2_000;

/** An application's reference: `CA-` and 6–10 capitals or digits (migration 0015's check). */
export const CREDIT_APPLICATION_REFERENCE = /^CA-[0-9A-Z]{6,10}$/;

/** Runs inside the service's transaction, just before it commits (the API's idempotency record). */
type BeforeCommit = (tx: Db, resourceId: string) => Promise<void>;

export type {
  CreditApplicationDetail,
  CreditApplicationSummary,
  CreditDecisionView,
  CreditDocumentView,
  TradeReferenceListItem,
  TradeReferenceView,
} from "./credit-application-views.server";

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

// ---------------------------------------------------------------------------------------------
// Reading

function selectApplications(db: Db, businessId: string) {
  return db
    .selectFrom("credit_applications as a")
    .innerJoin("businesses as b", "b.id", "a.business_id")
    .select((eb) => [
      "a.id",
      "a.reference",
      "a.status",
      "a.country",
      "a.legal_name as legalName",
      "a.applicant_email as applicantEmail",
      "a.requested_limit_cents as requestedLimitCents",
      "b.currency",
      "a.submitted_at as submittedAt",
      "a.decided_at as decidedAt",
      "a.approved_limit_cents as approvedLimitCents",
      "a.decision_reason as decisionReason",
      "a.decided_by as decidedBy",
      sql<string>`to_char(a.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("cursorAt"),
      eb
        .selectFrom("credit_trade_references as r")
        .select((inner) => inner.fn.countAll<string>().as("n"))
        .where("r.business_id", "=", businessId)
        .whereRef("r.application_id", "=", "a.id")
        .as("referenceCount"),
      eb
        .selectFrom("credit_trade_references as r")
        .select((inner) => inner.fn.countAll<string>().as("n"))
        .where("r.business_id", "=", businessId)
        .whereRef("r.application_id", "=", "a.id")
        .where("r.answered_at", "is not", null)
        .as("answeredCount"),
      eb
        .selectFrom("credit_application_documents as d")
        .select((inner) => inner.fn.countAll<string>().as("n"))
        .where("d.business_id", "=", businessId)
        .whereRef("d.application_id", "=", "a.id")
        .as("documentCount"),
    ])
    .where("a.business_id", "=", businessId)
    .where("a.status", "<>", "draft");
}

type ApplicationRow = Awaited<ReturnType<ReturnType<typeof selectApplications>["executeTakeFirstOrThrow"]>>;

function toSummary(row: ApplicationRow): CreditApplicationSummary {
  return {
    id: row.id,
    reference: row.reference!,
    status: row.status as ListedStatus,
    country: row.country,
    legalName: row.legalName ?? "",
    applicantEmail: row.applicantEmail,
    requestedLimitCents: row.requestedLimitCents === null ? null : Number(row.requestedLimitCents),
    currency: row.currency,
    submittedAt: iso(row.submittedAt)!,
    decidedAt: iso(row.decidedAt),
    referenceCount: { total: Number(row.referenceCount ?? 0), answered: Number(row.answeredCount ?? 0) },
    documentCount: Number(row.documentCount ?? 0),
    decision: toDecision(row),
  };
}

function toDecision(row: ApplicationRow): CreditDecisionView | null {
  if ((row.status !== "accepted" && row.status !== "declined") || !row.decidedAt) return null;
  return {
    decision: row.status,
    decidedAt: iso(row.decidedAt)!,
    approvedLimitCents: row.approvedLimitCents === null ? null : Number(row.approvedLimitCents),
    note: row.status === "accepted" ? row.decisionReason : null,
    reason: row.status === "declined" ? row.decisionReason : null,
    decidedBy: row.decidedBy,
  };
}

/** An application of this business by id or reference (any case), never a draft; else undefined. */
async function findApplication(db: Db, businessId: string, idOrReference: unknown) {
  if (typeof idOrReference !== "string") return undefined;
  const byId = UUID.test(idOrReference);
  const reference = idOrReference.toUpperCase();
  if (!byId && !CREDIT_APPLICATION_REFERENCE.test(reference)) return undefined;
  return selectApplications(db, businessId)
    .where(byId ? "a.id" : "a.reference", "=", byId ? idOrReference.toLowerCase() : reference)
    .executeTakeFirst();
}

function selectReferences(db: Db, businessId: string) {
  return db
    .selectFrom("credit_trade_references as r")
    .innerJoin("credit_applications as a", (join) =>
      join.onRef("a.id", "=", "r.application_id").onRef("a.business_id", "=", "r.business_id"),
    )
    .select([
      "r.id",
      "r.position",
      "r.referee_business as refereeBusiness",
      "r.contact_name as contactName",
      "r.email",
      "r.phone",
      "r.link_expires_at as linkExpiresAt",
      "r.first_opened_at as firstOpenedAt",
      "r.open_count as openCount",
      "r.answered_at as answeredAt",
      "r.answered_by_name as answeredByName",
      "r.answer",
      "r.answer_ip as answerAddress",
      sql<string>`to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("cursorAt"),
      "a.id as applicationId",
      "a.reference as applicationReference",
      "a.legal_name as legalName",
      "a.status as applicationStatus",
    ])
    .where("r.business_id", "=", businessId)
    .where("a.status", "<>", "draft");
}

type ReferenceRow = Awaited<ReturnType<ReturnType<typeof selectReferences>["executeTakeFirstOrThrow"]>>;

function toReferenceView(row: ReferenceRow, now: Date): TradeReferenceView {
  return {
    id: row.id,
    position: row.position,
    refereeBusiness: row.refereeBusiness,
    contactName: row.contactName,
    email: row.email,
    phone: row.phone,
    state: tradeReferenceState(row, row.applicationStatus, now),
    linkExpiresAt: iso(row.linkExpiresAt)!,
    firstOpenedAt: iso(row.firstOpenedAt),
    openCount: row.openCount,
    answeredAt: iso(row.answeredAt),
    answeredByName: row.answeredByName,
    answer: row.answer ?? null,
    answerAddress: row.answerAddress,
  };
}

/**
 * One submitted application of the business by its id or reference (CA-…), with its answers as
 * stored, the terms accepted, the decision, its documents' facts and its references with their
 * answers; null for a draft, another business's, a malformed id or none at all. Four statements.
 */
export async function getCreditApplication(
  businessId: string,
  idOrReference: unknown,
): Promise<CreditApplicationDetail | null> {
  const db = await getDb();
  const row = await findApplication(db, businessId, idOrReference);
  if (!row) return null;
  const full = await db
    .selectFrom("credit_applications as a")
    .leftJoin("agreement_versions as v", (join) =>
      join.onRef("v.id", "=", "a.terms_version_id").onRef("v.business_id", "=", "a.business_id"),
    )
    .leftJoin("agreement_documents as d", "d.id", "v.document_id")
    .select([
      "a.answers",
      "a.terms_version_id as termsVersionId",
      "a.terms_sha256 as termsSha256",
      "a.terms_name_typed as termsNameTyped",
      "a.terms_accepted_at as termsAcceptedAt",
      "a.client_ip as clientAddress",
      "a.user_agent as userAgent",
      "v.version",
      "d.id as documentId",
      "d.title",
    ])
    .where("a.business_id", "=", businessId)
    .where("a.id", "=", row.id)
    .executeTakeFirstOrThrow();
  const documents = await db
    .selectFrom("credit_application_documents")
    .select(["id", "kind", "file_name", "content_type", "byte_size", "sha256", "created_at"])
    .where("business_id", "=", businessId)
    .where("application_id", "=", row.id)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const references = await selectReferences(db, businessId)
    .where("r.application_id", "=", row.id)
    .orderBy("r.position")
    .execute();
  const now = clockNow();
  return {
    ...toSummary(row),
    answers: full.answers,
    terms: {
      versionId: full.termsVersionId,
      documentId: full.documentId ?? null,
      title: full.title ?? null,
      version: full.version ?? null,
      sha256: full.termsSha256!,
      nameTyped: full.termsNameTyped,
      acceptedAt: iso(full.termsAcceptedAt),
      clientAddress: full.clientAddress,
      userAgent: full.userAgent,
    },
    documents: documents.map((d) => ({
      id: d.id,
      kind: d.kind,
      fileName: d.file_name,
      contentType: d.content_type,
      byteSize: d.byte_size,
      size: formatFileSize(d.byte_size),
      sha256: d.sha256,
      // Generated<Timestamp> reads back as the Date it holds (the schema's type nests a ColumnType).
      createdAt: iso(d.created_at as unknown as Date)!,
      href: `/api/back-office/credit-applications/${row.id}/documents/${d.id}`,
    })),
    references: references.map((r) => toReferenceView(r, now)),
  };
}

/**
 * The business's submitted applications, newest submitted first, a page at a time (keyset on
 * submitted_at and id, along credit_applications_business_idx when a status is named). Drafts
 * are the applicant's unfinished forms and are never listed.
 */
export async function listCreditApplications(
  businessId: string,
  query: { status?: string | null; limit?: number | null; cursor?: string | null } = {},
): Promise<{ items: CreditApplicationSummary[]; nextCursor: string | null }> {
  const fields: Record<string, string> = {};
  const status = query.status || null;
  if (status === "draft") {
    fields.status = `Drafts are the applicant's unfinished forms and are never listed: use ${LISTED_STATUSES.join(", ")}.`;
  } else if (status !== null && !(LISTED_STATUSES as readonly string[]).includes(status)) {
    fields.status = `Use one of ${LISTED_STATUSES.join(", ")}.`;
  }
  const { limit, cursor } = listPage(query, fields);
  if (Object.keys(fields).length) throw invalid(fields);
  const db = await getDb();
  let select = selectApplications(db, businessId);
  if (status) select = select.where("a.status", "=", status as ListedStatus);
  if (cursor) {
    select = select.where(beforeCursor("a.submitted_at", "a.id", cursor));
  }
  const rows = await select
    .orderBy("a.submitted_at", "desc")
    .orderBy("a.id", "desc")
    .limit(limit + 1)
    .execute();
  const { page, nextCursor } = pageOf(rows, limit);
  return {
    items: page.map(toSummary),
    nextCursor,
  };
}

const REFERENCE_FILTERS = ["answered", "unanswered"] as const;

/**
 * The trade references of the business's submitted applications, newest first (keyset on the
 * reference's created_at and id), optionally only answered or unanswered ones, or one
 * application's: so the business can see who opened their link and who still has to be chased.
 */
export async function listTradeReferences(
  businessId: string,
  query: { state?: string | null; application?: string | null; limit?: number | null; cursor?: string | null } = {},
): Promise<{ items: TradeReferenceListItem[]; nextCursor: string | null }> {
  const fields: Record<string, string> = {};
  const state = query.state || null;
  if (state !== null && !(REFERENCE_FILTERS as readonly string[]).includes(state)) {
    fields.state = `Use one of ${REFERENCE_FILTERS.join(", ")}.`;
  }
  const { limit, cursor } = listPage(query, fields);
  if (Object.keys(fields).length) throw invalid(fields);
  const db = await getDb();
  let select = selectReferences(db, businessId);
  if (query.application) {
    const application = await findApplication(db, businessId, query.application);
    if (!application) {
      throw invalid({ application: `No submitted application "${query.application.slice(0, 60)}" at this business.` });
    }
    select = select.where("r.application_id", "=", application.id);
  }
  if (state === "answered") select = select.where("r.answered_at", "is not", null);
  if (state === "unanswered") select = select.where("r.answered_at", "is", null);
  if (cursor) {
    select = select.where(beforeCursor("r.created_at", "r.id", cursor));
  }
  const rows = await select
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(limit + 1)
    .execute();
  const { page, nextCursor } = pageOf(rows, limit);
  const now = clockNow();
  return {
    items: page.map((row) => ({
      ...toReferenceView(row, now),
      application: {
        id: row.applicationId,
        reference: row.applicationReference!,
        legalName: row.legalName ?? "",
        status: row.applicationStatus as ListedStatus,
      },
    })),
    nextCursor,
  };
}

// ---------------------------------------------------------------------------------------------
// Documents

export type CreditDocumentFile = { fileName: string; contentType: CreditDocumentType; bytes: Uint8Array };

const EXTENSIONS: Record<CreditDocumentType, string[]> = {
  "application/pdf": [".pdf"],
  "image/png": [".png"],
  "image/jpeg": [".jpg", ".jpeg"],
};

/**
 * What a file name may not hold to be saved: control characters and line breaks (header
 * injection), the bidirectional controls that make "invoice\u202Efdp.exe" read as "invoiceexe.pdf",
 * and what Windows, macOS or Linux refuse in a name (path separators among them).
 */
const UNSAVEABLE = /[\p{Cc}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069/\\:*?"<>|]+/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The name a download is saved under: the applicant's file name as typed in any script (Cyrillic,
 * Chinese, emoji), with what no file system or header may hold replaced by "_", at most 100
 * characters, ending in its stored type's extension whatever the applicant called it — a PDF named
 * "invoice.exe" is saved as "invoice.exe.pdf" and opens as the PDF it is. The route sends it with
 * an ASCII fallback (`attachmentDisposition`).
 */
export function downloadFileName(fileName: string, contentType: CreditDocumentType) {
  const extensions = EXTENSIONS[contentType];
  const cleaned = fileName
    .replace(LONE_SURROGATE, "")
    .normalize("NFC")
    .replace(UNSAVEABLE, "_")
    .replace(/_+/g, "_")
    .replace(/^[\s._-]+/u, "");
  // Cut by code points, so an emoji is never split in half, then tidy the new end.
  let base = [...cleaned]
    .slice(0, 100)
    .join("")
    .replace(/[\s._-]+$/u, "");
  if (base === "") base = "document";
  return extensions.some((ext) => base.toLowerCase().endsWith(ext)) ? base : `${base}${extensions[0]}`;
}

/**
 * A document's bytes through the storage port, checked against the SHA-256 recorded when it was
 * uploaded; null for a document (or application) this business does not have. Bytes that are
 * missing or no longer match are a fault of ours: logged and thrown (the API answers 503).
 */
export async function readCreditDocument(
  businessId: string,
  idOrReference: unknown,
  documentId: unknown,
  reader: CreditDocumentReader,
): Promise<CreditDocumentFile | null> {
  if (typeof documentId !== "string" || !UUID.test(documentId)) return null;
  const db = await getDb();
  const application = await findApplication(db, businessId, idOrReference);
  if (!application) return null;
  const document = await db
    .selectFrom("credit_application_documents")
    .select(["file_name", "content_type", "sha256", "storage_key", "byte_size"])
    .where("business_id", "=", businessId)
    .where("application_id", "=", application.id)
    .where("id", "=", documentId.toLowerCase())
    .executeTakeFirst();
  if (!document) return null;
  const bytes = await reader.read(document.storage_key);
  const hash = bytes ? createHash("sha256").update(bytes).digest("hex") : null;
  if (!bytes || hash !== document.sha256) {
    logger.error("credit document missing or changed in storage", {
      application: application.reference,
      documentId,
      found: bytes !== null,
    });
    throw new Error("credit document missing or changed in storage");
  }
  return {
    fileName: downloadFileName(document.file_name, document.content_type),
    contentType: document.content_type,
    bytes,
  };
}

// ---------------------------------------------------------------------------------------------
// The decision

/** A note or a reason: text of several lines (no other control characters), 1 to 2,000 characters. */
const decisionText = (what: string) =>
  z
    .string({ invalid_type_error: `Give the ${what} as text.`, required_error: `Give the ${what}.` })
    .max(rawTextMax(DECISION_TEXT_MAX), `That is too long for the ${what} (at most ${DECISION_TEXT_MAX} characters).`)
    .transform((value) => value.replace(/\r\n?/g, "\n").normalize("NFC").trim())
    .refine((value) => value.length > 0, `Give the ${what}.`)
    .refine(
      (value) => [...value].length <= DECISION_TEXT_MAX,
      `That is too long for the ${what} (at most ${DECISION_TEXT_MAX} characters).`,
    )
    .refine(
      (value) => !/[\u202a-\u202e\u2066-\u2069]/.test(value),
      `The ${what} may not hold bidirectional overrides.`,
    );

const AcceptSchema = z
  .object({
    approvedLimitCents: z
      .number({
        required_error: "Give the approved credit limit in cents, e.g. 500000 for $5,000.00.",
        invalid_type_error: "Give the approved credit limit as a whole number of cents, e.g. 500000 for $5,000.00.",
      })
      .int("Give the approved credit limit as a whole number of cents, e.g. 500000 for $5,000.00.")
      .min(1, "The approved credit limit must be at least 1 cent: to refuse credit, decline the application.")
      .max(MAX_MONEY_CENTS, `The approved credit limit may be at most ${MAX_MONEY_CENTS} cents ($99,999,999.99).`),
    note: decisionText("note").nullish(),
  })
  .strict();

const DeclineSchema = z.object({ reason: decisionText("reason") }).strict();

export type DecisionResult = { application: CreditApplicationDetail; delivery: DecisionDelivery };

/**
 * Accepts (with an approved limit and an optional note) or declines (with a reason) a submitted
 * application, once: under the application's row lock, a decided application is a conflict,
 * whatever the second call asks (the database's trigger refuses a change of a decision as well).
 * The decision is committed before the applicant is emailed; a mail failure is reported in
 * `delivery`, never thrown — the decision stands.
 */
export async function decideCreditApplication(
  businessId: string,
  idOrReference: unknown,
  decision: "accepted" | "declined",
  input: unknown,
  options: { decidedBy?: string | null; beforeCommit?: BeforeCommit } = {},
): Promise<DecisionResult> {
  const parsed = decision === "accepted" ? AcceptSchema.safeParse(input) : DeclineSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const text =
    "reason" in parsed.data ? parsed.data.reason : ((parsed.data as z.infer<typeof AcceptSchema>).note ?? null);
  const approvedLimitCents =
    "approvedLimitCents" in parsed.data ? (parsed.data as z.infer<typeof AcceptSchema>).approvedLimitCents : null;
  const db = await getDb();
  const found = await findApplication(db, businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such credit application.");
  const at = clockNow();
  await db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom("credit_applications")
      .select(["id", "status", "decided_at as decidedAt"])
      .where("business_id", "=", businessId)
      .where("id", "=", found.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.status !== "submitted") {
      throw new RequestProblem(
        "conflict",
        `${found.reference} was already ${row.status} at ${iso(row.decidedAt)}: a credit decision is made once.`,
      );
    }
    await tx
      .updateTable("credit_applications")
      .set({
        status: decision,
        decided_at: at,
        approved_limit_cents: approvedLimitCents,
        decision_reason: text,
        decided_by: options.decidedBy?.slice(0, 200) ?? null,
        updated_at: sql`${at}`,
      })
      .where("business_id", "=", businessId)
      .where("id", "=", row.id)
      .where("status", "=", "submitted" satisfies CreditApplicationStatus)
      .execute();
    await options.beforeCommit?.(tx, row.id);
  });
  await audit({
    businessId,
    action: `credit.${decision}`,
    details: { reference: found.reference, approvedLimitCents },
  });
  const application = (await getCreditApplication(businessId, found.id))!;
  const delivery = await emailDecision(businessId, application);
  return { application, delivery };
}

export type DecisionDelivery = { email: string | null; sent: boolean; error?: string };

/** The applicant's email of the decision, after it committed. Logs name the reference, never the note. */
async function emailDecision(businessId: string, application: CreditApplicationDetail): Promise<DecisionDelivery> {
  const to = application.applicantEmail;
  if (!to) return { email: null, sent: false, error: "The application has no email address." };
  try {
    const db = await getDb();
    const branding = await findBusinessBranding(db, businessId);
    if (!branding) throw new Error("the business has no host name");
    const support = await db
      .selectFrom("businesses")
      .select(["support_email as supportEmail", "support_phone as supportPhone"])
      .where("id", "=", businessId)
      .executeTakeFirstOrThrow();
    const mail = await renderCreditDecisionEmail({ branding, support, application });
    // A decision is made once: one message for it (decision 044).
    await sendThroughOutbox(
      {
        // An applicant or a referee is not a contact: no preferences apply (decision 039).
        category: "non-contact",
        to,
        fromName: branding.businessName,
        replyTo: support.supportEmail ?? undefined,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      },
      { key: `credit-decision:${businessId}:${application.reference}:${application.status}`, businessId },
    );
    logger.info("credit decision emailed", { reference: application.reference, decision: application.status });
    return { email: to, sent: true };
  } catch (error) {
    logger.warn("credit decision email failed", { reference: application.reference, error });
    return { email: to, sent: false, error: "The mail server did not take the message." };
  }
}

// ---------------------------------------------------------------------------------------------
// Resending a referee's link

export type ResendResult = { reference: TradeReferenceView; delivery: RefereeDelivery };

/**
 * Emails a referee who has not answered a new link, on the same row: a new selector and verifier
 * (so the earlier link is unknown from now on, decision 031) and a new expiry. Refused while the
 * reference is answered (an answer never changes) or the application is decided (no reference is
 * needed any more). The link is committed before the mail leaves; a mail failure is reported in
 * `delivery`, and another resend fixes it.
 */
export async function resendTradeReference(
  businessId: string,
  idOrReference: unknown,
  position: unknown,
  options: { beforeCommit?: BeforeCommit; onLink?: (email: string, link: string) => void } = {},
): Promise<ResendResult> {
  const db = await getDb();
  const found = await findApplication(db, businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such credit application.");
  const slot = typeof position === "string" && /^[1-5]$/.test(position) ? Number(position) : null;
  if (slot === null)
    throw new RequestProblem("not-found", `${found.reference} has no trade reference there: use 1 to 5.`);
  const at = clockNow();
  const expiresAt = new Date(at.getTime() + TRADE_REFERENCE_LINK_MS);
  const secret = mintLinkSecret();
  const referee = await db.transaction().execute(async (tx) => {
    // The application first, then the reference: the order an answer and a decision take them in.
    const application = await tx
      .selectFrom("credit_applications")
      .select(["status"])
      .where("business_id", "=", businessId)
      .where("id", "=", found.id)
      .forShare()
      .executeTakeFirstOrThrow();
    const row = await tx
      .selectFrom("credit_trade_references")
      .select([
        "id",
        "email",
        "contact_name as contactName",
        "referee_business as refereeBusiness",
        "answered_at as answeredAt",
      ])
      .where("business_id", "=", businessId)
      .where("application_id", "=", found.id)
      .where("position", "=", slot)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new RequestProblem("not-found", `${found.reference} has no trade reference ${slot}.`);
    if (row.answeredAt) {
      throw new RequestProblem(
        "conflict",
        `Trade reference ${slot} of ${found.reference} was answered at ${iso(row.answeredAt)}: an answer never changes, so no new link is needed.`,
      );
    }
    if (application.status !== "submitted") {
      throw new RequestProblem(
        "conflict",
        `${found.reference} was ${application.status}: its trade references are no longer needed.`,
      );
    }
    await tx
      .updateTable("credit_trade_references")
      .set({ selector: secret.selector, verifier_hash: secret.verifierHash, link_expires_at: expiresAt })
      .where("business_id", "=", businessId)
      .where("id", "=", row.id)
      .where("answered_at", "is", null)
      .execute();
    await options.beforeCommit?.(tx, found.id);
    return row;
  });
  await audit({
    businessId,
    action: "credit.reference.resent",
    details: { reference: found.reference, position: slot },
  });
  const delivery = await sendTradeReferenceRequest(businessId, {
    token: secret.token,
    email: referee.email,
    refereeName: referee.contactName,
    refereeBusiness: referee.refereeBusiness,
    applicantName: found.legalName ?? "",
    applicationReference: found.reference!,
    position: slot,
    expiresAt,
    resend: true,
    onLink: options.onLink,
  });
  const view = await selectReferences(db, businessId).where("r.id", "=", referee.id).executeTakeFirstOrThrow();
  return { reference: toReferenceView(view, clockNow()), delivery };
}
