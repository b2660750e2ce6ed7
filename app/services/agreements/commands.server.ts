import { createHash } from "node:crypto";
import { sql } from "kysely";
import { z } from "zod";
import {
  AGREEMENT_KINDS,
  AGREEMENT_TEXT_MAX,
  agreementOfferState,
  agreementTextProblem,
  normaliseAgreementText,
  titleProblem,
} from "~/lib/agreements";
import { UUID } from "~/lib/ids";
import { rawTextMax } from "~/lib/input-bounds";
import { contactMayActFor } from "../accounts/accounts.server";
import { sendContactMail } from "../communication/contact-mail.server";
import { findBusinessBranding, publicLink } from "../host/host.server";
import {
  deliverLinkEmail,
  endRecord,
  insertSentRecord,
  resendToContact,
  type Delivery,
} from "../links/link-lifecycle.server";
import { audit } from "../platform/audit.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { clip, findAccount, findContactOf } from "../requests/lookups.server";
import { invalid, RequestProblem, zodFields } from "../platform/problems.server";
import { renderAgreementOfferEmail } from "./agreement-email.server";
import { KIND_LABELS, type AgreementDocumentDetail, type AgreementOfferView } from "./agreement-views.server";
import { getAgreementDocument, getAgreementOffer } from "./queries.server";

/**
 * Agreements (issue 15; decisions 034 and 036), the business's side: documents, published in
 * versions that never change; offers of a document to one contact of one account, each emailed
 * with a link; sending an offer again and withdrawing it. The back-office API and the CLI call
 * these. Reading is in `queries.server.ts`; the contact's decision — accept or decline, recorded
 * once and never changed — in `acceptance.server.ts`. Problems are `RequestProblem`s
 * (validation → 400, not-found → 404, conflict → 409), as for payment requests.
 */
export const DEFAULT_OFFER_EXPIRY_DAYS = 30;
export const MAX_OFFER_EXPIRY_DAYS = 90;
const DAY_MS = 86_400_000;

/** Runs inside the service's transaction, just before it commits (the API's idempotency record). */
type BeforeCommit = (tx: Db, resourceId: string) => Promise<void>;

/** SHA-256 (hex) of a text's UTF-8 bytes: what a version records and a download lets anyone check. */
export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

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
// ---------------------------------------------------------------------------------------------
// Offers: make, send again, withdraw

export type OfferDelivery = Delivery;
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
    const sent = await insertSentRecord(tx, "agreement_offers", "AG", values, "createAgreementOffer", {
      businessId,
      purpose: "agreement",
      contactId: contact.id,
      expiresAt,
      beforeCommit: options.beforeCommit,
    });
    return { offerId: sent.id, token: sent.token };
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
  const contact = (await findContactOf(await getDb(), businessId, found.contact.id))!;
  const record = {
    businessId,
    purpose: "agreement" as const,
    accountId: found.account.id,
    contactId: found.contact.id,
  };
  const token = await resendToContact("agreement_offers", record, {
    now,
    lock: (tx) => lockOffer(tx, businessId, found.id),
    refusal: (row) => {
      const state = agreementOfferState(row, now);
      return state !== "offered" ? `The offer is ${state}: it can no longer be sent.` : null;
    },
    mayNotAct: `${contact.email} may no longer act for account ${found.account.number}: withdraw this offer, or make a new one to someone who may.`,
    beforeCommit: options.beforeCommit,
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
  const changed = await endRecord(
    "agreement_offers",
    { businessId, purpose: "agreement" },
    {
      lock: (tx) => lockOffer(tx, businessId, found.id),
      check: (row) => {
        if (row.status === "accepted" || row.status === "declined") {
          throw new RequestProblem("conflict", `The offer was ${row.status}: a decision is never undone.`);
        }
        return row.status === "offered";
      },
      change: () => ({ set: { status: "withdrawn", withdrawn_at: now } }),
      beforeCommit: options.beforeCommit,
    },
  );
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
  return deliverLinkEmail(
    "agreement offer",
    offer.contact.email,
    { reference: offer.reference, to: offer.contact.email, resend: options.resend },
    () =>
      sendContactMail({
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
      }),
  );
}
