import { computeCreditPayment, type FeeRules } from "~/lib/payment-calc";
import type { CardBrand } from "~/lib/payment-method-types";
import { requireAccountAccess, type AccountDetails } from "../accounts/accounts.server";
import { getAdhocSettings, type AdhocSettings } from "../accounts/customer-home.server";
import { checkLinkToken, type LinkToken } from "../links/link-tokens.server";

/**
 * Ad-hoc payments (issue 14; decision 033): any amount the business allows, with a reference
 * the payer types, paid into one account as credit. Two doors, one rule each:
 *
 * - `/payment/adhoc/<account id>`, signed in: the slug is the account's id, and the contact must
 *   be allowed to see that account (`requireAccountAccess`: joined to it, or its parent when
 *   the business shows child accounts). Anything else — another account's or business's id,
 *   a malformed id — is "Page not found", in the loader and in the action.
 * - `/customer/adhoc/<token>`, by an emailed link (decision 031): purpose `adhoc`, subject the
 *   account, payer the link's contact, who must still be allowed to see that account.
 *
 * The engine (`submitPayment` with `paymentFor: { kind: "adhoc" }`) checks the business's
 * settings and limits again under its transaction: what the page says is never the last word.
 */
export type { AdhocSettings };
export { getAdhocSettings };

/** The account of the signed-in page, or a thrown 404. */
export function requireAdhocAccount(businessId: string, contactId: string, slug: unknown): Promise<AccountDetails> {
  return requireAccountAccess(businessId, contactId, slug);
}

/**
 * What an ad-hoc link opens. `unknown` is one answer for every token that is not this business's
 * real ad-hoc link (no hint whether it ever existed). The holder of the real link is told when
 * it expired or was revoked — or no longer opens anything because its contact may no longer
 * see the account, which reads as revoked.
 */
export type AdhocLinkCheck =
  | { status: "valid"; link: LinkToken; account: AccountDetails }
  | { status: "expired" | "revoked"; link: LinkToken }
  | { status: "unknown" };

export async function checkAdhocLink(businessId: string, token: unknown, now = new Date()): Promise<AdhocLinkCheck> {
  const check = await checkLinkToken(businessId, "adhoc", token, now);
  if (check.status === "unknown") return check;
  if (check.status !== "valid") return { status: check.status, link: check.link };
  const account = await requireAccountAccess(businessId, check.link.contactId, check.link.subjectId).catch(() => null);
  if (!account) return { status: "revoked", link: check.link };
  return { status: "valid", link: check.link, account };
}

/** The breakdown of an ad-hoc amount paid by a card of `brand` (its surcharge) or by PayTo (none). */
export function previewAdhoc(
  amountCents: number,
  method: { kind: "card"; brand: CardBrand } | { kind: "payto" } | { kind: "promise" },
  rules: FeeRules,
) {
  return computeCreditPayment(amountCents, method.kind === "card" ? method : { kind: "payto" }, rules);
}
