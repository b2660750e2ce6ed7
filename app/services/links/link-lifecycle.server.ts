import { getAccountPayId, type PayIdAccount } from "../payments/payto/payids.server";
import { sql, type Insertable, type Kysely, type Updateable } from "kysely";
import { contactMayActFor } from "../accounts/accounts.server";
import { findBusinessBranding, type HostBranding } from "../host/host.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import type { DB } from "../platform/db-schema.server";
import { logger } from "../platform/logger.server";
import { RequestProblem } from "../platform/problems.server";
import { createLinkToken, revokeLinkTokens, type LinkPurpose } from "./link-tokens.server";
import { insertWithReference } from "./reference.server";

/**
 * The life of an emailed link, shared by payment requests, payment schedules, agreement offers,
 * response requests, ad-hoc and single-invoice links and trade references (decision 066): each
 * record is sent to a contact with a link token of its own (decision 031); sending again revokes
 * that contact's earlier links, so a forwarded or leaked old email stops working; withdrawing,
 * cancelling or ending the record revokes every link to it. The domains keep their own rules
 * (which states may be sent, who may receive); these are the steps they all take.
 */

/** One record that emailed links open. */
export type LinkSubject = { businessId: string; purpose: LinkPurpose; subjectId: string };

/** The records that are sent and withdrawn by these steps (each has `send_count`, `sent_at`, `status`). */
export type SentTable = "agreement_offers" | "response_requests" | "payment_schedules";
export type EndedTable = SentTable | "payment_requests";
/** The records made for one contact of one account and sent as they are made: offers and response requests. */
export type OneContactTable = "agreement_offers" | "response_requests";

/** Runs inside the domain's transaction, just before it commits (the API's idempotency record). */
export type BeforeCommit = (tx: Db, recordId: string) => Promise<void>;

/** What became of one email: sent, or why not. */
export type Delivery = { email: string; sent: boolean; error?: string };

export const MAIL_REFUSED = "The mail server did not take the message.";

/**
 * A new link to the record for one contact, their earlier live links to it revoked (only the newest
 * email works; `replaced` counts them). `db` may be the caller's transaction.
 */
export async function reissueLink(
  db: Db,
  subject: LinkSubject & { contactId: string; expiresAt: Date },
): Promise<{ id: string; token: string; replaced: number }> {
  const { businessId, purpose, subjectId, contactId } = subject;
  const replaced = await revokeLinkTokens(db, { businessId, purpose, subjectId, contactId });
  const link = await createLinkToken(db, subject);
  return { ...link, replaced };
}

/**
 * Sends (or sends again) a record to its contact inside the caller's transaction: a new link in place
 * of the contact's earlier ones, and one more send counted. `sent_at` is the latest send, or with
 * `keepFirstSent` the first.
 */
export async function sendLinkAgain(
  tx: Db,
  table: SentTable,
  subject: LinkSubject & { contactId: string; expiresAt: Date },
  at: Date,
  options: { keepFirstSent?: boolean } = {},
): Promise<string> {
  const link = await reissueLink(tx, subject);
  await tx
    .updateTable(table)
    .set({ send_count: sql`send_count + 1`, sent_at: options.keepFirstSent ? sql`coalesce(sent_at, ${at})` : at })
    .where("business_id", "=", subject.businessId)
    .where("id", "=", subject.subjectId)
    .execute();
  return link.token;
}

/**
 * Makes a record that is sent as it is made, inside the caller's transaction: its row under a fresh
 * reference (`insertWithReference`), the contact's first link to it, then `beforeCommit`. The domain
 * emails the token once the transaction has committed.
 */
export async function insertSentRecord<T extends OneContactTable>(
  tx: Db,
  table: T,
  prefix: string,
  values: Omit<Insertable<DB[T]>, "reference">,
  what: string,
  link: { businessId: string; purpose: LinkPurpose; contactId: string; expiresAt: Date; beforeCommit?: BeforeCommit },
): Promise<{ id: string; token: string }> {
  const inserted = await insertWithReference(tx, table, prefix, values, what);
  const { token } = await createLinkToken(tx, {
    businessId: link.businessId,
    purpose: link.purpose,
    subjectId: inserted.id,
    contactId: link.contactId,
    expiresAt: link.expiresAt,
  });
  await link.beforeCommit?.(tx, inserted.id);
  return { id: inserted.id, token };
}

/**
 * Sends a waiting record again to the one contact it was made for, in a transaction of its own: the
 * record locked (`lock`), refused while `refusal` names a reason (its state), refused when the contact
 * may no longer act for the account (`mayNotAct` says so), then a new link in place of the contact's
 * earlier ones and one more send counted, and `beforeCommit`. Returns the new link's token.
 */
export async function resendToContact<Row extends { id: string; contactId: string; expiresAt: Date | string }>(
  table: OneContactTable,
  record: { businessId: string; purpose: LinkPurpose; accountId: string; contactId: string },
  steps: {
    now: Date;
    lock: (tx: Db) => Promise<Row>;
    refusal: (row: Row) => string | null;
    mayNotAct: string;
    beforeCommit?: BeforeCommit;
  },
): Promise<string> {
  const { businessId, purpose } = record;
  const db = await getDb();
  // Read before the transaction: the embedded database has one connection, which the
  // transaction holds until it ends.
  const mayAct = await contactMayActFor(businessId, record.contactId, record.accountId);
  return db.transaction().execute(async (tx) => {
    const row = await steps.lock(tx);
    const refusal = steps.refusal(row);
    if (refusal) throw new RequestProblem("conflict", refusal);
    if (!mayAct) throw new RequestProblem("conflict", steps.mayNotAct);
    const token = await sendLinkAgain(
      tx,
      table,
      { businessId, purpose, subjectId: row.id, contactId: row.contactId, expiresAt: new Date(row.expiresAt) },
      steps.now,
    );
    await steps.beforeCommit?.(tx, row.id);
    return token;
  });
}

/**
 * Withdraws or cancels a record in a transaction of its own: the record locked (`lock`); `check`
 * throws the domain's problem when it may not end and says whether it changes (false: it has ended
 * already); then `endLinkedRecord` with `change` when it does, and `beforeCommit`. Returns whether
 * it changed, for the domain's audit.
 */
export async function endRecord<T extends EndedTable, Row extends { id: string }>(
  table: T,
  subject: { businessId: string; purpose: LinkPurpose },
  steps: {
    lock: (tx: Db) => Promise<Row>;
    check: (row: Row) => boolean;
    change: (tx: Db, row: Row) => { set: Updateable<DB[T]>; alsoChange?: () => Promise<unknown> };
    beforeCommit?: BeforeCommit;
  },
): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    const row = await steps.lock(tx);
    const changed = steps.check(row);
    await endLinkedRecord(tx, table, { ...subject, subjectId: row.id }, changed ? steps.change(tx, row) : null);
    await steps.beforeCommit?.(tx, row.id);
    return changed;
  });
}

/**
 * Ends a record inside the caller's transaction: with `set` (its new status and when), the record's
 * row changes and then `alsoChange` runs (a schedule's instalments); whether or not it changed, every
 * link to it is revoked, so ending it again is no change but leaves no live link behind.
 */
export async function endLinkedRecord<T extends EndedTable>(
  tx: Db,
  table: T,
  subject: LinkSubject,
  change: { set: Updateable<DB[T]>; alsoChange?: () => Promise<unknown> } | null,
): Promise<void> {
  if (change) {
    // Kysely cannot follow a table chosen by a type parameter; `set` is checked against it above.
    await (tx as unknown as Kysely<Record<EndedTable, Record<string, unknown>>>)
      .updateTable(table as EndedTable)
      .set(change.set)
      .where("business_id", "=", subject.businessId)
      .where("id", "=", subject.subjectId)
      .execute();
    await change.alsoChange?.();
  }
  await revokeLinkTokens(tx, subject);
}

/**
 * Who sends a business's links: its host (a link needs a host name; `noHost` is thrown without one)
 * and the support address and phone its emails give.
 */
export async function linkSender(
  db: Db,
  businessId: string,
  noHost: () => Error,
): Promise<{ branding: HostBranding; support: { supportEmail: string | null; supportPhone: string | null } }> {
  const branding = await findBusinessBranding(db, businessId);
  if (!branding) throw noHost();
  const support = await db
    .selectFrom("businesses")
    .select(["support_email as supportEmail", "support_phone as supportPhone"])
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
  return { branding, support };
}

/**
 * Sends one link email and says what became of it. `what` names the email in the logs ("payment
 * request", "agreement offer"); `logged` is what they say of it — a reference and a recipient, never
 * the link — and a failure logs the same without `resend`. A mail failure is reported, never thrown.
 */
export async function deliverLinkEmail(
  what: string,
  to: string,
  logged: Record<string, unknown>,
  send: () => Promise<unknown>,
): Promise<Delivery> {
  try {
    await send();
    logger.info(`${what} emailed`, logged);
    return { email: to, sent: true };
  } catch (error) {
    const { resend: _resend, ...facts } = logged;
    logger.warn(`${what} email failed`, { ...facts, error });
    return { email: to, sent: false, error: MAIL_REFUSED };
  }
}

/**
 * The account's PayID for a link email that names the card surcharge (decision 075), or null when
 * the business offers none or the provider could not register it now (the email then names only
 * the surcharge). The same read, and first-time registration, as the pages'.
 */
export async function payIdForEmail(actor: PayIdAccount): Promise<string | null> {
  const payId = await getAccountPayId(actor);
  return payId.status === "ready" ? payId.payId : null;
}
