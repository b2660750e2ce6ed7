import { z } from "zod";
import { findBusinessBranding, publicLink } from "../host/host.server";
import { reissueLink, payIdForEmail } from "../links/link-lifecycle.server";
import { revokeLinkTokens } from "../links/link-tokens.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { sendContactMail } from "../communication/contact-mail.server";
import { clip, findAccount, findContact, resolveRecipients } from "./lookups.server";
import { invalid, RequestProblem, zodFields } from "../platform/problems.server";
import { renderAdhocLinkEmail } from "./request-email.server";

/**
 * Ad-hoc payment links, the business's side (issue 14): email one contact of an account a link
 * (purpose `adhoc`, subject the account) to `/customer/adhoc/<token>`, where they pay any amount
 * between the business's minimum and maximum. The token exists only in that email. A contact
 * holds at most one live ad-hoc link per account: a new one revokes the earlier ones (as a
 * resend does for a request, decision 032), and `revokeAdhocLinks` withdraws them all.
 */
export const DEFAULT_ADHOC_EXPIRY_DAYS = 30;
export const MAX_ADHOC_EXPIRY_DAYS = 90;
const DAY_MS = 86_400_000;

const AdhocSchema = z
  .object({
    account: z
      .string({ required_error: "Give the account's id or number.", invalid_type_error: "Give the account as text." })
      .trim()
      .min(1, "Give the account's id or number.")
      .max(100, "That is not an account."),
    contact: z
      .string({ required_error: "Give the contact's id or email.", invalid_type_error: "Give the contact as text." })
      .trim()
      .min(1, "Give the contact's id or email.")
      .max(254, "That is not a contact."),
    expiresInDays: z
      .number({ invalid_type_error: "Give a whole number of days." })
      .int("Give a whole number of days.")
      .min(1, "At least 1 day.")
      .max(MAX_ADHOC_EXPIRY_DAYS, `At most ${MAX_ADHOC_EXPIRY_DAYS} days.`)
      .nullish(),
  })
  .strict();

export type AdhocLinkResult = {
  accountId: string;
  contact: { id: string; email: string };
  expiresAt: string;
  /** How many earlier live ad-hoc links of this contact for this account the new one replaced. */
  replaced: number;
  delivery: { email: string; sent: boolean; error?: string };
};

export async function sendAdhocLink(
  businessId: string,
  input: unknown,
  options: {
    now?: Date;
    beforeCommit?: (tx: Db, accountId: string) => Promise<void>;
    /** The CLI's --print-link (demos only): the link is otherwise in the email alone. */
    onLink?: (email: string, link: string) => void;
  } = {},
): Promise<AdhocLinkResult> {
  const parsed = AdhocSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const now = options.now ?? clockNow();
  const db = await getDb();
  const settings = await db
    .selectFrom("adhoc_settings")
    .select(["enabled", "min_cents as minCents", "max_cents as maxCents"])
    .where("business_id", "=", businessId)
    .executeTakeFirst();
  if (!settings?.enabled) {
    throw new RequestProblem(
      "conflict",
      "Ad-hoc payments are not switched on for this business (adhoc_settings), so no ad-hoc link can be sent.",
    );
  }
  const branding = await findBusinessBranding(db, businessId);
  if (!branding) throw new RequestProblem("conflict", "This business has no host name, so no link can be made.");
  const account = await findAccount(db, businessId, parsed.data.account);
  if (!account) throw invalid({ account: `No account "${parsed.data.account.slice(0, 60)}" at this business.` });
  const [contact] = await resolveRecipients(db, businessId, account, [parsed.data.contact], "contact");
  const expiresAt = new Date(now.getTime() + (parsed.data.expiresInDays ?? DEFAULT_ADHOC_EXPIRY_DAYS) * DAY_MS);
  const business = await db
    .selectFrom("businesses")
    .select(["support_email as supportEmail", "support_phone as supportPhone"])
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();

  const { token, replaced } = await db.transaction().execute(async (tx) => {
    // Only the newest email works: a forwarded or leaked older one stops here.
    const link = await reissueLink(tx, {
      businessId,
      purpose: "adhoc",
      subjectId: account.id,
      contactId: contact!.id,
      expiresAt,
    });
    await options.beforeCommit?.(tx, account.id);
    return { token: link.token, replaced: link.replaced };
  });

  // The transfer that adds no card surcharge, named beside it in the email (decision 075).
  const payId = await payIdForEmail({
    businessId,
    hostname: branding.hostname,
    accountId: account.id,
    accountNumber: account.number,
  });
  let delivery: AdhocLinkResult["delivery"] = { email: contact!.email, sent: true };
  const url = publicLink(branding, `/customer/adhoc/${token}`);
  options.onLink?.(contact!.email, url);
  try {
    await sendContactMail({
      branding,
      contact: { id: contact!.id, email: contact!.email },
      category: "payment-requests",
      replyTo: business.supportEmail,
      render: (preferences) =>
        renderAdhocLinkEmail({
          branding,
          support: business,
          recipientName: contact!.firstName,
          account,
          minCents: settings.minCents,
          maxCents: settings.maxCents,
          expiresAt,
          link: url,
          preferences,
          payId,
        }),
    });
    logger.info("ad-hoc link emailed", { account: account.number, to: contact!.email });
  } catch (error) {
    logger.warn("ad-hoc link email failed", { account: account.number, to: contact!.email, error });
    delivery = { email: contact!.email, sent: false, error: "The mail server did not take the message." };
  }
  return {
    accountId: account.id,
    contact: { id: contact!.id, email: contact!.email },
    expiresAt: expiresAt.toISOString(),
    replaced,
    delivery,
  };
}

const RevokeSchema = z.object({ account: AdhocSchema.shape.account, contact: AdhocSchema.shape.contact }).strict();

export type AdhocRevokeResult = { accountId: string; contact: { id: string; email: string }; revoked: number };

/**
 * Withdraws every live ad-hoc link of one contact for one account (the links answer "withdrawn"
 * from then on). The contact need not still be linked to the account or enabled — a contact who
 * has left is who this is for — but must be the business's. Idempotent: again, `revoked: 0`.
 * Works whether or not the business takes ad-hoc payments now.
 */
export async function revokeAdhocLinks(
  businessId: string,
  input: unknown,
  options: { beforeCommit?: (tx: Db, accountId: string) => Promise<void> } = {},
): Promise<AdhocRevokeResult> {
  const parsed = RevokeSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const db = await getDb();
  const account = await findAccount(db, businessId, parsed.data.account);
  const contact = await findContact(db, businessId, parsed.data.contact);
  const fields: Record<string, string> = {};
  if (!account) fields.account = `No account "${clip(parsed.data.account)}" at this business.`;
  if (!contact) fields.contact = `No contact "${clip(parsed.data.contact)}" at this business.`;
  if (!account || !contact) throw invalid(fields);
  const revoked = await db.transaction().execute(async (tx) => {
    const count = await revokeLinkTokens(tx, {
      businessId,
      purpose: "adhoc",
      subjectId: account.id,
      contactId: contact.id,
    });
    await options.beforeCommit?.(tx, account.id);
    return count;
  });
  logger.info("ad-hoc links revoked", { account: account.number, contact: contact.email, revoked });
  return { accountId: account.id, contact: { id: contact.id, email: contact.email }, revoked };
}
