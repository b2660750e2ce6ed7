import { createHash, createHmac, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { readTypedName, recordedUserAgent } from "~/lib/agreements";
import { refereeProblems } from "~/lib/credit-schemas";
import {
  CREDIT_STEPS,
  DRAFT_DAYS,
  MAX_DOCUMENTS,
  REFEREE_LINK_DAYS,
  type AnswerStep,
  type CreditAnswers,
  type CreditStep,
  type DocumentKind,
} from "~/lib/credit-steps";
import type { MessageKey } from "~/lib/i18n";
import { findBusinessBranding } from "../host/host.server";
import { mintLinkSecret } from "../links/link-tokens.server";
import { audit } from "../platform/audit.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { getEnv } from "../platform/env.server";
import { logger } from "../platform/logger.server";
import { sendThroughOutbox } from "../platform/mail-outbox.server";
import { consume, type Limit } from "../platform/rate-limit.server";
import { UUID } from "~/lib/ids";
import type { CheckedDocument } from "./document-checks.server";
import { renderApplicantEmail, renderBusinessEmail, type SubmittedApplication } from "./credit-email.server";
import { documentStorage, newDocumentKey } from "./document-storage.server";
import { sendTradeReferenceRequest } from "./trade-references.server";

/**
 * Trade-credit applications (issue 17; decision 038): a draft per applicant's browser, its
 * answers step by step, its documents, its acceptance of the business's terms, and submission.
 *
 * A draft has no account and no session: it is found by the SHA-256 of a random key that lives
 * only in the applicant's cookie, and only within the business of the host (another business's
 * key finds nothing). It is forgotten DRAFT_DAYS after its last change. Submitting freezes it
 * (migration 0015's trigger) and gives it a reference; the trade referees' links are minted in
 * the same transaction and emailed after it commits.
 *
 * Every function takes the business id and filters by it.
 */

const DAY_MS = 86_400_000;
const MINUTES_15 = 15 * 60_000;

/**
 * Per client address and business (decision 038): new drafts, document uploads and
 * submissions. A person applies once; an office behind one address might apply a few times
 * in a quarter hour. A robot gets a clear "try again later" long before it fills the table
 * or the disk.
 */
export const DRAFTS_PER_ADDRESS = { max: 20, windowMs: MINUTES_15 };
export const UPLOADS_PER_ADDRESS = { max: 40, windowMs: MINUTES_15 };
export const SUBMITS_PER_ADDRESS = { max: 10, windowMs: MINUTES_15 };

const limit = (kind: "draft" | "upload" | "submit", address: string): Limit => ({
  key: `credit:${kind}:ip:${address}`,
  ...(kind === "draft" ? DRAFTS_PER_ADDRESS : kind === "upload" ? UPLOADS_PER_ADDRESS : SUBMITS_PER_ADDRESS),
});

export const sha256Hex = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

/** A new draft key: 256 random bits, given to the browser once and kept here only as a hash. */
export function newDraftKey(): string {
  return randomBytes(32).toString("base64url");
}

export const DRAFT_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const REFERENCE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * The reference a draft will have once submitted: derived from its key (an HMAC under the
 * portal's secret), so a second submission of the same draft — a double click, a resent form —
 * finds the application the first one made, though the key's hash is gone from it. Eight
 * characters of 36 (a collision within one business is a one-in-trillions event, and the
 * database's unique reference refuses it rather than mixing two applications).
 */
export function referenceFor(key: string): string {
  let out = "";
  let block = createHmac("sha256", getEnv().SESSION_SECRET).update(`credit-application:${key}`).digest();
  for (;;) {
    for (const byte of block) {
      // 252 = 7 × 36: bytes above it would favour the first characters, so they are skipped.
      if (byte < 252) out += REFERENCE_ALPHABET[byte % 36];
      if (out.length === 8) return `CA-${out}`;
    }
    block = createHmac("sha256", getEnv().SESSION_SECRET).update(block).digest();
  }
}

// ---------------------------------------------------------------------------------------------
// Reading a draft

export type DraftDocument = {
  id: string;
  kind: DocumentKind;
  fileName: string;
  contentType: string;
  byteSize: number;
  createdAt: Date;
};

export type Draft = {
  id: string;
  businessId: string;
  country: "AU" | "NZ";
  answers: CreditAnswers;
  terms: { versionId: string; sha256: string; typedName: string; acceptedAt: Date } | null;
  expiresAt: Date;
  documents: DraftDocument[];
};

function draftFrom(
  row: {
    id: string;
    business_id: string;
    country: "AU" | "NZ";
    answers: Record<string, unknown>;
    terms_version_id: string | null;
    terms_sha256: string | null;
    terms_name_typed: string | null;
    terms_accepted_at: Date | string | null;
    expires_at: Date | string;
  },
  documents: DraftDocument[],
): Draft {
  return {
    id: row.id,
    businessId: row.business_id,
    country: row.country,
    answers: row.answers as CreditAnswers,
    terms:
      row.terms_version_id && row.terms_sha256 && row.terms_name_typed && row.terms_accepted_at
        ? {
            versionId: row.terms_version_id,
            sha256: row.terms_sha256,
            typedName: row.terms_name_typed,
            acceptedAt: new Date(row.terms_accepted_at),
          }
        : null,
    expiresAt: new Date(row.expires_at),
    documents,
  };
}

async function documentsOf(db: Db, businessId: string, applicationId: string): Promise<DraftDocument[]> {
  const rows = await db
    .selectFrom("credit_application_documents")
    .select(["id", "kind", "file_name", "content_type", "byte_size", "created_at"])
    .where("business_id", "=", businessId)
    .where("application_id", "=", applicationId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    fileName: row.file_name,
    contentType: row.content_type,
    byteSize: row.byte_size,
    createdAt: new Date(row.created_at),
  }));
}

/** The draft this key opens in this business, or null (no key, an expired, submitted or other business's draft). */
export async function findDraft(businessId: string, key: string | null): Promise<Draft | null> {
  if (!key || !DRAFT_KEY_PATTERN.test(key)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("credit_applications")
    .select([
      "id",
      "business_id",
      "country",
      "answers",
      "terms_version_id",
      "terms_sha256",
      "terms_name_typed",
      "terms_accepted_at",
      "expires_at",
    ])
    .where("business_id", "=", businessId)
    .where("draft_key_hash", "=", sha256Hex(key))
    .where("status", "=", "draft")
    .where("expires_at", ">", clockNow())
    .executeTakeFirst();
  if (!row) return null;
  return draftFrom(row, await documentsOf(db, businessId, row.id));
}

/** The steps a draft has answered, and the first it has not (null: every step is answered). */
export function draftProgress(draft: Pick<Draft, "answers" | "terms"> | null) {
  const done = (step: CreditStep) => (step === "terms" ? Boolean(draft?.terms) : Boolean(draft?.answers[step]));
  const answered = CREDIT_STEPS.filter(done);
  const firstMissing = CREDIT_STEPS.find((step) => !done(step)) ?? null;
  return { answered, firstMissing, done };
}

// ---------------------------------------------------------------------------------------------
// Writing a draft

export type DraftWrite = { ok: true } | { ok: false; problem: "gone" };

/**
 * Starts a draft with the first step's answers (a draft is made by a POST, never by opening a
 * page). Counted against the address's limit first; a few expired drafts are swept away on the
 * way (as sessions are when one starts).
 */
export async function createDraft(input: {
  businessId: string;
  country: "AU" | "NZ";
  clientAddress: string;
  business: NonNullable<CreditAnswers["business"]>;
}): Promise<{ ok: true; key: string; id: string } | { ok: false; problem: "rateLimited" }> {
  if (!(await consume(input.businessId, [limit("draft", input.clientAddress)]))) {
    return { ok: false, problem: "rateLimited" };
  }
  await sweepExpiredDrafts();
  const key = newDraftKey();
  const at = clockNow();
  const db = await getDb();
  const row = await db
    .insertInto("credit_applications")
    .values({
      business_id: input.businessId,
      country: input.country,
      draft_key_hash: sha256Hex(key),
      answers: JSON.stringify({ business: input.business } satisfies CreditAnswers),
      expires_at: new Date(at.getTime() + DRAFT_DAYS * DAY_MS),
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ok: true, key, id: row.id };
}

/** Saves one step's answers (replacing that step's earlier answers) and keeps the draft another DRAFT_DAYS. */
export async function saveDraftStep<S extends AnswerStep>(
  draft: Pick<Draft, "id" | "businessId">,
  step: S,
  value: NonNullable<CreditAnswers[S]>,
): Promise<DraftWrite> {
  const at = clockNow();
  const db = await getDb();
  const result = await db
    .updateTable("credit_applications")
    .set({
      answers: sql<string>`answers || jsonb_build_object(${step}::text, ${JSON.stringify(value)}::jsonb)`,
      updated_at: at,
      expires_at: new Date(at.getTime() + DRAFT_DAYS * DAY_MS),
    })
    .where("business_id", "=", draft.businessId)
    .where("id", "=", draft.id)
    .where("status", "=", "draft")
    .where("expires_at", ">", at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { ok: true } : { ok: false, problem: "gone" };
}

/** Forgets a draft now ("Start again"): its row, its documents' rows and their bytes. */
export async function discardDraft(draft: Pick<Draft, "id" | "businessId">): Promise<void> {
  const db = await getDb();
  const keys = await db.transaction().execute(async (tx) => {
    // Under the row's lock, so a submission cannot slip in between reading the keys and deleting.
    const row = await tx
      .selectFrom("credit_applications")
      .select("id")
      .where("business_id", "=", draft.businessId)
      .where("id", "=", draft.id)
      .where("status", "=", "draft")
      .forUpdate()
      .executeTakeFirst();
    if (!row) return [];
    const documents = await tx
      .selectFrom("credit_application_documents")
      .select("storage_key")
      .where("business_id", "=", draft.businessId)
      .where("application_id", "=", draft.id)
      .execute();
    await tx.deleteFrom("credit_applications").where("id", "=", row.id).execute();
    return documents.map((document) => document.storage_key);
  });
  await deleteStored(keys);
}

async function deleteStored(keys: string[]) {
  const storage = documentStorage();
  for (const key of keys) {
    try {
      await storage.delete(key);
    } catch (error) {
      // The row is gone, so nothing refers to the file any more; it is only disk space.
      logger.warn("credit document could not be deleted from storage", { error });
    }
  }
}

/** How many expired drafts one sweep removes at most (with their documents). */
const SWEEP_BATCH = 50;

/**
 * Removes drafts past their expiry, of any business, a bounded batch at a time (oldest first,
 * along credit_applications_drafts_idx), with their documents' bytes.
 */
export async function sweepExpiredDrafts(at = clockNow()): Promise<number> {
  const db = await getDb();
  const { count, keys } = await db.transaction().execute(async (tx) => {
    // Locked (skipping any a request holds), so none is submitted between this read and the delete.
    const expired = await tx
      .selectFrom("credit_applications")
      .select("id")
      .where("status", "=", "draft")
      .where("expires_at", "<=", at)
      .orderBy("expires_at")
      .limit(SWEEP_BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    if (expired.length === 0) return { count: 0, keys: [] as string[] };
    const ids = expired.map((row) => row.id);
    const documents = await tx
      .selectFrom("credit_application_documents")
      .select("storage_key")
      .where("application_id", "in", ids)
      .execute();
    await tx.deleteFrom("credit_applications").where("id", "in", ids).execute();
    return { count: ids.length, keys: documents.map((document) => document.storage_key) };
  });
  await deleteStored(keys);
  return count;
}

// ---------------------------------------------------------------------------------------------
// Documents

export type AddDocumentResult = { ok: true; document: DraftDocument } | { ok: false; problem: "gone" | "tooMany" };

/**
 * Counts one upload against the address's limit, before the file is judged (reading a PDF's
 * object streams and re-encoding an image is the costly part): false when the limit is reached.
 */
export async function allowUpload(businessId: string, clientAddress: string): Promise<boolean> {
  return consume(businessId, [limit("upload", clientAddress)]);
}

/**
 * Keeps a checked document with the draft: the bytes go to the storage port under a new random
 * key first, then the row is written under the draft's lock (so two uploads at once cannot pass
 * MAX_DOCUMENTS); if the row is refused, the bytes are deleted again.
 */
export async function addDraftDocument(input: {
  draft: Pick<Draft, "id" | "businessId">;
  kind: DocumentKind;
  document: CheckedDocument;
}): Promise<AddDocumentResult> {
  const { draft, document } = input;
  const storageKey = newDocumentKey(draft.businessId);
  const storage = documentStorage();
  await storage.put(storageKey, document.bytes);
  let result: AddDocumentResult;
  try {
    const db = await getDb();
    result = await db.transaction().execute(async (tx): Promise<AddDocumentResult> => {
      const at = clockNow();
      const application = await tx
        .selectFrom("credit_applications")
        .select("id")
        .where("business_id", "=", draft.businessId)
        .where("id", "=", draft.id)
        .where("status", "=", "draft")
        .where("expires_at", ">", at)
        .forUpdate()
        .executeTakeFirst();
      if (!application) return { ok: false, problem: "gone" };
      const count = await tx
        .selectFrom("credit_application_documents")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("business_id", "=", draft.businessId)
        .where("application_id", "=", draft.id)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_DOCUMENTS) return { ok: false, problem: "tooMany" };
      const row = await tx
        .insertInto("credit_application_documents")
        .values({
          business_id: draft.businessId,
          application_id: draft.id,
          kind: input.kind,
          file_name: document.fileName,
          content_type: document.contentType,
          byte_size: document.byteSize,
          sha256: document.sha256,
          storage_key: storageKey,
          created_at: at,
        })
        .returning(["id", "created_at"])
        .executeTakeFirstOrThrow();
      await tx
        .updateTable("credit_applications")
        .set({ updated_at: at, expires_at: new Date(at.getTime() + DRAFT_DAYS * DAY_MS) })
        .where("business_id", "=", draft.businessId)
        .where("id", "=", draft.id)
        .execute();
      return {
        ok: true,
        document: {
          id: row.id,
          kind: input.kind,
          fileName: document.fileName,
          contentType: document.contentType,
          byteSize: document.byteSize,
          createdAt: new Date(row.created_at),
        },
      };
    });
  } catch (error) {
    await deleteStored([storageKey]);
    throw error;
  }
  if (!result.ok) await deleteStored([storageKey]);
  return result;
}

/** Removes one of the draft's documents (its row, then its bytes). An id that is not the draft's removes nothing. */
export async function removeDraftDocument(draft: Pick<Draft, "id" | "businessId">, documentId: string) {
  if (!UUID.test(documentId)) return false;
  const db = await getDb();
  const removed = await db
    .deleteFrom("credit_application_documents")
    .where("business_id", "=", draft.businessId)
    .where("application_id", "=", draft.id)
    .where("id", "=", documentId.toLowerCase())
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("credit_applications")
          .select("id")
          .where("business_id", "=", draft.businessId)
          .where("id", "=", draft.id)
          .where("status", "=", "draft"),
      ),
    )
    .returning("storage_key")
    .executeTakeFirst();
  if (!removed) return false;
  await deleteStored([removed.storage_key]);
  return true;
}

// ---------------------------------------------------------------------------------------------
// The business's terms

export type CreditTerms = {
  documentId: string;
  title: string;
  versionId: string;
  version: number;
  body: string;
  bodySha256: string;
  publishedAt: Date;
};

/**
 * The terms an applicant accepts: the business's terms of trade (its first `terms-of-trade`
 * agreement document: a business keeps one, and should it keep several, the first is its
 * standing terms) at its latest published version. Null: the business has none, and takes no
 * applications until it publishes them.
 */
export async function creditTerms(businessId: string, db?: Db): Promise<CreditTerms | null> {
  const handle = db ?? (await getDb());
  const document = await handle
    .selectFrom("agreement_documents")
    .select(["id", "title"])
    .where("business_id", "=", businessId)
    .where("kind", "=", "terms-of-trade")
    .orderBy("created_at")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  if (!document) return null;
  const version = await handle
    .selectFrom("agreement_versions")
    .select(["id", "version", "body", "body_sha256", "published_at"])
    .where("business_id", "=", businessId)
    .where("document_id", "=", document.id)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!version) return null;
  return {
    documentId: document.id,
    title: document.title,
    versionId: version.id,
    version: version.version,
    body: version.body,
    bodySha256: version.body_sha256,
    publishedAt: new Date(version.published_at),
  };
}

export type TermsRefusal =
  | { problem: "gone" | "changed" | "stale" | "none" }
  | { problem: "fields"; errors: { typedName?: MessageKey; agreed?: MessageKey } };

/**
 * Records the applicant's acceptance of the terms on the draft: the version the page showed
 * (refused as `changed` when a newer one was published since, `stale` when it names no version
 * of the terms), the text's hash, the name typed, when, and from which address and browser.
 * Under the terms document's shared lock, as agreements decide (decision 036). Accepting again
 * replaces it (a draft may be changed until it is sent); submitting checks it is still the latest.
 */
export async function acceptDraftTerms(input: {
  draft: Pick<Draft, "id" | "businessId">;
  versionId: unknown;
  typedName: unknown;
  agreed: boolean;
  clientAddress: string;
  userAgent: string | null;
}): Promise<{ ok: true } | ({ ok: false } & TermsRefusal)> {
  const { draft } = input;
  const name = readTypedName(input.typedName);
  const errors: { typedName?: MessageKey; agreed?: MessageKey } = {};
  if (!name.ok) errors.typedName = name.error;
  if (!input.agreed) errors.agreed = "agreement.error.agreed.required";
  const versionId =
    typeof input.versionId === "string" && UUID.test(input.versionId) ? input.versionId.toLowerCase() : null;
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    const at = clockNow();
    const application = await tx
      .selectFrom("credit_applications")
      .select("id")
      .where("business_id", "=", draft.businessId)
      .where("id", "=", draft.id)
      .where("status", "=", "draft")
      .where("expires_at", ">", at)
      .forUpdate()
      .executeTakeFirst();
    if (!application) return { ok: false, problem: "gone" } as const;
    const terms = await lockedTerms(tx, draft.businessId);
    if (!terms) return { ok: false, problem: "none" } as const;
    if (versionId !== terms.versionId) {
      const older = versionId
        ? await tx
            .selectFrom("agreement_versions")
            .select("id")
            .where("business_id", "=", draft.businessId)
            .where("document_id", "=", terms.documentId)
            .where("id", "=", versionId)
            .executeTakeFirst()
        : undefined;
      return { ok: false, problem: older ? "changed" : "stale" } as const;
    }
    if (!name.ok || errors.agreed) return { ok: false, problem: "fields", errors } as const;
    await tx
      .updateTable("credit_applications")
      .set({
        terms_version_id: terms.versionId,
        terms_sha256: terms.bodySha256,
        terms_name_typed: name.value,
        terms_accepted_at: at,
        client_ip: input.clientAddress.slice(0, 64),
        user_agent: recordedUserAgent(input.userAgent),
        updated_at: at,
        expires_at: new Date(at.getTime() + DRAFT_DAYS * DAY_MS),
      })
      .where("business_id", "=", draft.businessId)
      .where("id", "=", draft.id)
      .execute();
    return { ok: true } as const;
  });
}

/** The terms under the document's shared lock: publishing a version (FOR UPDATE) waits, or is waited for. */
async function lockedTerms(tx: Db, businessId: string) {
  const terms = await creditTerms(businessId, tx);
  if (!terms) return null;
  await tx
    .selectFrom("agreement_documents")
    .select("id")
    .where("business_id", "=", businessId)
    .where("id", "=", terms.documentId)
    .forShare()
    .executeTakeFirstOrThrow();
  // Read again under the lock: a version published while we waited is the latest now.
  return creditTerms(businessId, tx);
}

// ---------------------------------------------------------------------------------------------
// Submitting

export type SubmitRefusal =
  /** No draft for this key (none, expired, or another business's). */
  | { problem: "none" }
  /** A step is not answered, or its answers no longer hold (a referee's email is now the applicant's). */
  | { problem: "missing"; step: CreditStep }
  /** The terms accepted are no longer the latest version (or the business withdrew them). */
  | { problem: "termsChanged" }
  | { problem: "rateLimited" };

export type SubmitResult =
  { ok: true; reference: string; repeat: boolean; applicantEmail: string } | ({ ok: false } & SubmitRefusal);

/**
 * Submits the draft this key opens, once: in one transaction under the draft's row lock, every
 * step must be answered and the terms accepted still the latest; then the application gets its
 * reference, the copies the back office lists by, and no draft key; and each referee a row with
 * a link (selector and the verifier's hash) lasting REFEREE_LINK_DAYS. The emails go after the
 * commit. A second submission of the same key (a double click: it waited on the lock) finds the
 * application submitted under the reference this key derives, and does nothing again.
 */
export async function submitApplication(input: {
  businessId: string;
  key: string | null;
  clientAddress: string;
}): Promise<SubmitResult> {
  const { businessId, key } = input;
  if (!key || !DRAFT_KEY_PATTERN.test(key)) return { ok: false, problem: "none" };
  const reference = referenceFor(key);
  const db = await getDb();
  const already = async (handle: Db) =>
    handle
      .selectFrom("credit_applications")
      .select(["applicant_email"])
      .where("business_id", "=", businessId)
      .where("reference", "=", reference)
      .where("status", "<>", "draft")
      .executeTakeFirst();
  // A repeat after the first has committed: answered at once, counting nothing.
  const earlier = await already(db);
  if (earlier) return { ok: true, reference, repeat: true, applicantEmail: earlier.applicant_email ?? "" };
  if (!(await consume(businessId, [limit("submit", input.clientAddress)]))) {
    return { ok: false, problem: "rateLimited" };
  }
  type Minted = { token: string; email: string; business: string; contactName: string };
  const outcome = await db
    .transaction()
    .execute(
      async (
        tx,
      ): Promise<
        | { ok: true; repeat: true; applicantEmail: string }
        | { ok: true; repeat: false; application: SubmittedApplication; referees: Minted[]; linkExpiresAt: Date }
        | ({ ok: false } & SubmitRefusal)
      > => {
        const at = clockNow();
        const row = await tx
          .selectFrom("credit_applications")
          .select([
            "id",
            "answers",
            "terms_version_id",
            "terms_sha256",
            "terms_name_typed",
            "terms_accepted_at",
            "expires_at",
          ])
          .where("business_id", "=", businessId)
          .where("draft_key_hash", "=", sha256Hex(key))
          .where("status", "=", "draft")
          .forUpdate()
          .executeTakeFirst();
        if (!row) {
          // It may have been submitted while this request waited for the row.
          const submitted = await already(tx);
          return submitted
            ? { ok: true, repeat: true, applicantEmail: submitted.applicant_email ?? "" }
            : { ok: false, problem: "none" };
        }
        if (new Date(row.expires_at).getTime() <= at.getTime()) return { ok: false, problem: "none" };
        const answers = row.answers as CreditAnswers;
        const { firstMissing } = draftProgress({
          answers,
          terms: row.terms_version_id
            ? { versionId: row.terms_version_id, sha256: "", typedName: "", acceptedAt: at }
            : null,
        });
        if (firstMissing) return { ok: false, problem: "missing", step: firstMissing };
        if (refereeProblems(answers)) return { ok: false, problem: "missing", step: "references" };
        const terms = await lockedTerms(tx, businessId);
        if (!terms || terms.versionId !== row.terms_version_id || terms.bodySha256 !== row.terms_sha256) {
          return { ok: false, problem: "termsChanged" };
        }
        const applicantEmail = answers.contacts!.applicant.email;
        await tx
          .updateTable("credit_applications")
          .set({
            status: "submitted",
            reference,
            legal_name: answers.business!.legalName,
            applicant_email: applicantEmail,
            requested_limit_cents: answers.credit!.limitCents,
            draft_key_hash: null,
            submitted_at: at,
            updated_at: at,
          })
          .where("business_id", "=", businessId)
          .where("id", "=", row.id)
          .execute();
        const linkExpiresAt = new Date(at.getTime() + REFEREE_LINK_DAYS * DAY_MS);
        const referees: Minted[] = [];
        for (const [index, referee] of answers.references!.referees.entries()) {
          const secret = mintLinkSecret();
          await tx
            .insertInto("credit_trade_references")
            .values({
              business_id: businessId,
              application_id: row.id,
              position: index + 1,
              referee_business: referee.business,
              contact_name: referee.contactName,
              email: referee.email,
              phone: referee.phone,
              selector: secret.selector,
              verifier_hash: secret.verifierHash,
              link_expires_at: linkExpiresAt,
              created_at: at,
            })
            .execute();
          referees.push({
            token: secret.token,
            email: referee.email,
            business: referee.business,
            contactName: referee.contactName,
          });
        }
        const documents = await tx
          .selectFrom("credit_application_documents")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("business_id", "=", businessId)
          .where("application_id", "=", row.id)
          .executeTakeFirstOrThrow();
        return {
          ok: true,
          repeat: false,
          application: { reference, submittedAt: at, answers, documentCount: Number(documents.n) },
          referees,
          linkExpiresAt,
        };
      },
    );
  if (!outcome.ok) return outcome;
  if (outcome.repeat) return { ok: true, reference, repeat: true, applicantEmail: outcome.applicantEmail };
  await audit({
    businessId,
    action: "credit.submitted",
    clientIp: input.clientAddress,
    details: { reference, referees: outcome.referees.length },
  });
  await sendSubmissionEmails(businessId, outcome.application, outcome.referees, outcome.linkExpiresAt);
  return {
    ok: true,
    reference,
    repeat: false,
    applicantEmail: outcome.application.answers.contacts!.applicant.email,
  };
}

/**
 * The applicant's confirmation, the business's notification (its notification address, else
 * its support address) and each referee's request with their link. A mail that fails is logged
 * (the recipient and the reference, never a link) and does not undo the application.
 */
async function sendSubmissionEmails(
  businessId: string,
  application: SubmittedApplication,
  referees: { token: string; email: string; business: string; contactName: string }[],
  linkExpiresAt: Date,
) {
  const db = await getDb();
  const branding = await findBusinessBranding(db, businessId);
  if (!branding) {
    logger.warn("credit application emails not sent: the business has no host", { reference: application.reference });
    return;
  }
  const business = await db
    .selectFrom("businesses")
    .select([
      "support_email as supportEmail",
      "support_phone as supportPhone",
      "notification_email as notificationEmail",
    ])
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
  const support = { supportEmail: business.supportEmail, supportPhone: business.supportPhone };
  const send = async (
    to: string,
    what: "applicant" | "business",
    mail: { subject: string; html: string; text: string },
  ) => {
    try {
      // Through the outbox (decision 044): one per application and recipient, however often this runs.
      await sendThroughOutbox(
        {
          // An applicant is not (yet) a contact, so no preferences apply; the business's own mail is its own (decision 039).
          category: what === "business" ? "business" : "non-contact",
          to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          fromName: branding.businessName,
          replyTo: business.supportEmail ?? undefined,
        },
        { key: `credit-application:${businessId}:${application.reference}:${what}`, businessId },
      );
      logger.info("credit application email sent", { reference: application.reference, what, to });
    } catch (error) {
      logger.warn("credit application email failed", { reference: application.reference, what, to, error });
    }
  };
  await send(
    application.answers.contacts!.applicant.email,
    "applicant",
    await renderApplicantEmail({ branding, support, application }),
  );
  const notify = business.notificationEmail ?? business.supportEmail;
  if (notify) {
    await send(notify, "business", await renderBusinessEmail({ branding, support, application }));
  } else {
    logger.warn("credit application: the business has no notification or support address", {
      reference: application.reference,
    });
  }
  // The referee's request is the one the back office's resend sends too (trade-references.server.ts).
  for (const [index, referee] of referees.entries()) {
    const delivery = await sendTradeReferenceRequest(businessId, {
      token: referee.token,
      email: referee.email,
      refereeName: referee.contactName,
      refereeBusiness: referee.business,
      applicantName: application.answers.business?.legalName ?? "",
      applicationReference: application.reference,
      position: index + 1,
      expiresAt: linkExpiresAt,
      resend: false,
    });
    if (delivery.sent)
      logger.info("credit application email sent", {
        reference: application.reference,
        what: "referee",
        to: referee.email,
      });
  }
}

/** A submitted application's facts for its confirmation page (by the reference its browser was given). */
export async function submittedApplication(businessId: string, reference: string) {
  if (!/^CA-[0-9A-Z]{6,10}$/.test(reference)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("credit_applications")
    .select(["reference", "legal_name", "applicant_email", "submitted_at"])
    .where("business_id", "=", businessId)
    .where("reference", "=", reference)
    .where("status", "<>", "draft")
    .executeTakeFirst();
  if (!row?.reference || !row.submitted_at) return null;
  return {
    reference: row.reference,
    legalName: row.legal_name ?? "",
    applicantEmail: row.applicant_email ?? "",
    submittedAt: new Date(row.submitted_at),
  };
}
