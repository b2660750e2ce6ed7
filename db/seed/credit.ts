import { createHash, randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";
import { now } from "../../app/services/platform/clock.server";

/**
 * Submitted credit applications written straight into the database (issue 17; decision 041), as
 * the credit form leaves them at submission: a reference, the terms accepted, the applicant's
 * answers, documents' facts and one row per trade referee with its link (a selector and the
 * SHA-256 of the verifier, decision 031's format). Used by the demo seed (one application on
 * acme, with a fixed referee link the README opens), the tests' fixtures and the bench.
 */
export const DEMO_TRADE_REFERENCE_TOKEN = "DemoAcmeReferee1DEMO-ONLY-open-this-trade-reference-locally";
export const DEMO_CREDIT_APPLICATION_REFERENCE = "CA-DEMO0001";

const DAY_MS = 86_400_000;
const sha256Hex = (text: string | Uint8Array) => createHash("sha256").update(text).digest("hex");
/** A time for the generated created_at / updated_at columns (their schema type nests a ColumnType). */
const at = (value: Date) => sql<never>`${value}::timestamptz`;

export type SeedReferee = {
  refereeBusiness: string;
  contactName: string;
  email: string;
  phone?: string | null;
  /** A chosen token (59 URL-safe characters) for a link a test or the README opens; else a random one. */
  token?: string;
  linkExpiresAt?: Date;
  /** An answer already given (stored as given). */
  answered?: { at: Date; name: string; answer: Record<string, unknown> };
};

export type SeedDocument = {
  kind: "financial-statements" | "identification" | "trust-deed" | "other";
  fileName: string;
  contentType: "application/pdf" | "image/png" | "image/jpeg";
  bytes: Uint8Array;
  storageKey: string;
};

export type SeedApplication = {
  businessId: string;
  reference: string;
  legalName: string;
  applicantEmail: string;
  country?: "AU" | "NZ";
  requestedLimitCents?: number;
  /** The form's answers, keyed by step (the credit form's shape, decision 038). */
  answers?: Record<string, unknown>;
  submittedAt?: Date;
  termsNameTyped?: string;
  referees?: SeedReferee[];
  documents?: SeedDocument[];
  /** A decision already made. */
  decided?: { status: "accepted" | "declined"; at: Date; approvedLimitCents?: number; reason?: string };
};

export type SeededApplication = {
  id: string;
  reference: string;
  referees: { id: string; position: number; email: string; token: string }[];
  documents: { id: string; storageKey: string }[];
};

/** A link token in decision 031's format: 16 + 43 URL-safe characters from the CSPRNG. */
export const newRefereeToken = () => randomBytes(12).toString("base64url") + randomBytes(32).toString("base64url");

export async function insertSubmittedApplication(db: Kysely<DB>, input: SeedApplication): Promise<SeededApplication> {
  const submittedAt = input.submittedAt ?? now();
  // The terms accepted: the business's latest terms of trade where it has them (acme does).
  const terms = await db
    .selectFrom("agreement_versions as v")
    .innerJoin("agreement_documents as d", "d.id", "v.document_id")
    .select(["v.id", "v.body_sha256 as sha256"])
    .where("v.business_id", "=", input.businessId)
    .where("d.kind", "=", "terms-of-trade")
    .orderBy("v.published_at", "desc")
    .orderBy("v.version", "desc")
    .limit(1)
    .executeTakeFirst();
  const application = await db
    .insertInto("credit_applications")
    .values({
      business_id: input.businessId,
      status: "submitted",
      draft_key_hash: null,
      country: input.country ?? "AU",
      answers: JSON.stringify(
        input.answers ?? {
          business: { legalName: input.legalName },
          contact: { email: input.applicantEmail },
        },
      ),
      reference: input.reference,
      legal_name: input.legalName,
      applicant_email: input.applicantEmail,
      requested_limit_cents: input.requestedLimitCents ?? 1_000_000,
      terms_version_id: terms?.id ?? null,
      terms_sha256: terms?.sha256 ?? sha256Hex("terms of trade"),
      terms_name_typed: input.termsNameTyped ?? "Jordan Applicant",
      terms_accepted_at: submittedAt,
      client_ip: "192.0.2.10",
      user_agent: "Mozilla/5.0 (seed)",
      submitted_at: submittedAt,
      expires_at: new Date(submittedAt.getTime() + 30 * DAY_MS),
      created_at: at(submittedAt),
      updated_at: at(submittedAt),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const referees: SeededApplication["referees"] = [];
  for (const [index, referee] of (input.referees ?? []).entries()) {
    const token = referee.token ?? newRefereeToken();
    const row = await db
      .insertInto("credit_trade_references")
      .values({
        business_id: input.businessId,
        application_id: application.id,
        position: index + 1,
        referee_business: referee.refereeBusiness,
        contact_name: referee.contactName,
        email: referee.email,
        phone: referee.phone ?? null,
        selector: token.slice(0, 16),
        verifier_hash: sha256Hex(token.slice(16)),
        link_expires_at: referee.linkExpiresAt ?? new Date(submittedAt.getTime() + 30 * DAY_MS),
        answered_at: referee.answered?.at ?? null,
        answer: referee.answered ? JSON.stringify(referee.answered.answer) : null,
        answered_by_name: referee.answered?.name ?? null,
        answer_ip: referee.answered ? "192.0.2.20" : null,
        answer_user_agent: referee.answered ? "Mozilla/5.0 (seed)" : null,
        created_at: at(submittedAt),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    referees.push({ id: row.id, position: index + 1, email: referee.email, token });
  }
  const documents: SeededApplication["documents"] = [];
  for (const document of input.documents ?? []) {
    const row = await db
      .insertInto("credit_application_documents")
      .values({
        business_id: input.businessId,
        application_id: application.id,
        kind: document.kind,
        file_name: document.fileName,
        content_type: document.contentType,
        byte_size: document.bytes.byteLength,
        sha256: sha256Hex(document.bytes),
        storage_key: document.storageKey,
        created_at: at(submittedAt),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    documents.push({ id: row.id, storageKey: document.storageKey });
  }
  if (input.decided) {
    await db
      .updateTable("credit_applications")
      .set({
        status: input.decided.status,
        decided_at: input.decided.at,
        approved_limit_cents: input.decided.approvedLimitCents ?? null,
        decision_reason: input.decided.reason ?? null,
        decided_by: "seed",
      })
      .where("id", "=", application.id)
      .execute();
  }
  return { id: application.id, reference: input.reference, referees, documents };
}

/**
 * The demo application, on acme only: Harbourside Fit-outs Pty Ltd asked for a $20,000 limit
 * three days ago and named two referees; Bayside Timber answered the next day, and Coastal
 * Fixings has not yet — its link is fixed so the README can open it:
 * http://acme.localhost:3000/credit-trade-reference/<DEMO_TRADE_REFERENCE_TOKEN>.
 */
export async function seedDemoCreditApplication(db: Kysely<DB>, businessId: string, hostname: string) {
  if (hostname !== "acme.localhost") return;
  const submittedAt = new Date(now().getTime() - 3 * DAY_MS);
  await insertSubmittedApplication(db, {
    businessId,
    reference: DEMO_CREDIT_APPLICATION_REFERENCE,
    legalName: "Harbourside Fit-outs Pty Ltd",
    applicantEmail: "accounts@harbourside-fitouts.example",
    requestedLimitCents: 2_000_000,
    submittedAt,
    termsNameTyped: "Priya Raman",
    referees: [
      {
        refereeBusiness: "Bayside Timber & Hardware",
        contactName: "Grace Liu",
        email: "grace@bayside-timber.example",
        phone: "02 9000 1100",
        answered: {
          at: new Date(submittedAt.getTime() + DAY_MS),
          name: "Grace Liu",
          answer: {
            version: 1,
            tradingLength: "3-to-5-years",
            terms: "eom-30",
            termsOther: null,
            creditLimitCents: 1_500_000,
            highestBalanceCents: 1_240_000,
            paymentBehaviour: "prompt",
            dishonours: false,
            dishonourDetails: null,
            recommend: true,
            comments: "A good customer: orders weekly and pays on the 20th.",
            position: "Credit manager",
          },
        },
      },
      {
        refereeBusiness: "Coastal Fixings",
        contactName: "Tom Baker",
        email: "tom@coastal-fixings.example",
        token: DEMO_TRADE_REFERENCE_TOKEN,
        linkExpiresAt: new Date(submittedAt.getTime() + 30 * DAY_MS),
      },
    ],
  });
}
