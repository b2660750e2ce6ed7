import { sql } from "kysely";
import {
  AGREEMENT_OFFER_STATES,
  AGREEMENT_REFERENCE,
  agreementOfferState,
  type AgreementKind,
  type AgreementOfferState,
  type StoredOfferStatus,
} from "~/lib/agreements";
import { UUID } from "~/lib/ids";
import { visibleAccounts } from "../accounts/accounts.server";
import { now as clockNow } from "../platform/clock.server";
import { beforeCursor, listPage, pageOf } from "../links/list-limits.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { clip, findAccount, findContactOf } from "../requests/lookups.server";
import { invalid } from "../platform/problems.server";
import type {
  AgreementDocumentDetail,
  AgreementDocumentView,
  AgreementOfferView,
  AgreementVersionView,
} from "./agreement-views.server";

/**
 * Reading agreements (issue 15; decisions 034 and 036): a business's documents and their
 * versions, its offers by account or contact (the back-office API and the CLI), one offer as its
 * page shows it (`loadAgreementOffer`), and the signed-in contact's lists. Nothing here writes.
 * Problems are `RequestProblem`s (validation → 400), as for payment requests.
 */
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../links/list-limits.server";

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

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
  const fields: Record<string, string> = {};
  const { limit, cursor } = listPage(query, fields);
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
    select = select.where(beforeCursor("d.created_at", "d.id", cursor));
  }
  const rows = await select
    .orderBy("d.created_at", "desc")
    .orderBy("d.id", "desc")
    .limit(limit + 1)
    .execute();
  const { page, nextCursor } = pageOf(rows, limit);
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
    nextCursor,
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
  const { limit, cursor } = listPage(query, fields);
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
    select = select.where(beforeCursor("o.created_at", "o.id", cursor));
  }
  const rows = await select
    .orderBy("o.created_at", "desc")
    .orderBy("o.id", "desc")
    .limit(limit + 1)
    .execute();
  const { page, nextCursor } = pageOf(rows, limit);
  return {
    items: page.map((row) => toOfferView(row, now)),
    nextCursor,
  };
}

// ---------------------------------------------------------------------------------------------
// The contact's side: the page, the lists

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

/**
 * The offer a brand preview shows (decision 082): the newest still offered, else the newest of any
 * state; null when the business has none. Reads only.
 */
export async function previewOffer(businessId: string): Promise<AgreementPageOffer | null> {
  const db = await getDb();
  const latest = await db
    .selectFrom("agreement_offers")
    .select("id")
    .where("business_id", "=", businessId)
    .orderBy(sql`status <> 'offered'`)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return latest ? loadAgreementOffer(businessId, { id: latest.id }) : null;
}
