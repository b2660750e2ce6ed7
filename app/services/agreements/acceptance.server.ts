import { agreementOfferState, readTypedName, recordedUserAgent } from "~/lib/agreements";
import type { MessageKey } from "~/lib/i18n";
import { UUID } from "~/lib/ids";
import { audit } from "../platform/audit.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";

/**
 * The contact's decision on an agreement offer (issue 15; decisions 034 and 036): accept or
 * decline, recorded once and never changed, with the exact text's hash. The pages call it (by
 * the emailed link, or signed in); what they show comes from `loadAgreementOffer` in
 * `queries.server.ts`. A refusal writes nothing and says why.
 */
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
