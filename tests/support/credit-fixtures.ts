import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { insertSubmittedApplication, type SeedApplication, type SeededApplication } from "../../db/seed/credit";
import { documentStorage, newDocumentKey } from "../../app/services/credit/document-storage.server";
import type { DB } from "../../app/services/platform/db-schema.server";

/**
 * Submitted credit applications for the tests of the referee's page and the back office (issue
 * 17; decision 041), written directly as the credit form leaves them at submission: a fresh
 * reference, the terms accepted, referees each with a minted link (the token is returned, as only
 * the referee's email would carry it), and documents whose bytes go through the document storage
 * (the filesystem adapter, under DATA_DIR) with their facts in the table.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function newApplicationReference() {
  let out = "";
  for (const byte of randomBytes(16)) {
    if (byte < 252) out += ALPHABET[byte % 36];
    if (out.length === 8) break;
  }
  return `CA-${out.padEnd(8, "0")}`;
}

/** The smallest PDF a reader opens: what an applicant's financial statements stand in for. */
export const SAMPLE_PDF = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** Puts bytes where the storage port's filesystem adapter keeps them. */
export async function storeCreditDocument(storageKey: string, bytes: Uint8Array) {
  await documentStorage().put(storageKey, bytes);
}

/** A key as the storage port makes them: `credit/<business id>/<32 hex characters>`. */
export const newStorageKey = (businessId: string) => newDocumentKey(businessId);

export type FixtureOptions = Partial<Omit<SeedApplication, "businessId" | "documents">> & {
  /** How many referees (default 2), each with a unique address. */
  refereeCount?: number;
  /** Documents to store and record (default none). */
  documents?: { fileName: string; contentType?: "application/pdf" | "image/png" | "image/jpeg"; bytes?: Uint8Array }[];
};

/** A submitted application of `businessId` with its referees' tokens and its documents' ids. */
export async function createCreditApplication(
  db: Kysely<DB>,
  businessId: string,
  options: FixtureOptions = {},
): Promise<SeededApplication & { legalName: string; applicantEmail: string }> {
  const tag = randomBytes(4).toString("hex");
  const legalName = options.legalName ?? `Fixture Traders ${tag} Pty Ltd`;
  const applicantEmail = options.applicantEmail ?? `applicant-${tag}@fixture.example`;
  const referees =
    options.referees ??
    Array.from({ length: options.refereeCount ?? 2 }, (_, index) => ({
      refereeBusiness: `Referee Supplies ${index + 1} ${tag}`,
      contactName: `Referee ${index + 1}`,
      email: `referee-${index + 1}-${tag}@fixture.example`,
    }));
  const documents = [];
  for (const document of options.documents ?? []) {
    const bytes = document.bytes ?? SAMPLE_PDF;
    const storageKey = newStorageKey(businessId);
    await storeCreditDocument(storageKey, bytes);
    documents.push({
      kind: "financial-statements" as const,
      fileName: document.fileName,
      contentType: document.contentType ?? ("application/pdf" as const),
      bytes,
      storageKey,
    });
  }
  const seeded = await insertSubmittedApplication(db, {
    ...options,
    businessId,
    reference: options.reference ?? newApplicationReference(),
    legalName,
    applicantEmail,
    referees,
    documents,
  });
  return { ...seeded, legalName, applicantEmail };
}

/** A complete, valid referee's form (what a referee types), with any field replaced. */
export function refereeForm(fields: Record<string, string> = {}): Record<string, string> {
  return {
    tradingLength: "1-to-3-years",
    terms: "eom-30",
    termsOther: "",
    creditLimit: "15,000",
    highestBalance: "12,400.50",
    paymentBehaviour: "usually-on-time",
    dishonours: "no",
    dishonourDetails: "",
    recommend: "yes",
    comments: "Orders weekly.",
    name: "Grace Liu",
    position: "Credit manager",
    ...fields,
  };
}
