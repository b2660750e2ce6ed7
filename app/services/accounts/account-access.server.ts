import { data } from "@remix-run/node";
import { isUuid } from "~/lib/ids";
import { getDb } from "../platform/database.server";
import { problemBody } from "../platform/problems.server";
import { listContactAccounts, summaryColumns, visibleTo } from "./accounts.server";

/**
 * The account guards: the one place in accounts/ that answers HTTP (decision 070). A loader or an
 * API call asks for an account here and gets it, or a thrown 404 — the page's "no access" screen or
 * the API's JSON — whether the id is malformed, unknown or another contact's, so no answer tells
 * them apart.
 */
/** An account the contact may see, or a thrown 404 (never "forbidden": that would confirm it exists). */
export async function requireAccountAccess(businessId: string, contactId: string, accountId: unknown) {
  if (!isUuid(accountId)) throw accountNotFound();
  const db = await getDb();
  const row = await db
    .selectFrom("accounts")
    .select([
      ...summaryColumns,
      "accounts.address",
      "accounts.email",
      "accounts.phone",
      "accounts.payment_terms_days as paymentTermsDays",
      "accounts.credit_limit_cents as creditLimitCents",
      "accounts.created_at as createdAt",
    ])
    .where("accounts.id", "=", accountId)
    .where(visibleTo({ businessId, contactId }))
    .executeTakeFirst();
  if (!row) throw accountNotFound();
  return { ...row, isChild: row.parentAccountId !== null };
}

export type AccountDetails = Awaited<ReturnType<typeof requireAccountAccess>>;

export function accountNotFound() {
  return data({ reason: "no-access" }, { status: 404 });
}

/** For the JSON API: the account, or a 404 JSON answer (a bad id is "not found" too). */
export async function requireApiAccountAccess(businessId: string, contactId: string, accountId: string) {
  try {
    return await requireAccountAccess(businessId, contactId, accountId);
  } catch {
    throw Response.json(problemBody(404, "Account not found"), {
      status: 404,
      headers: { "Cache-Control": "no-store" },
    });
  }
}

/** Spec §4 step 4: no accounts → the 'Accounts not found' screen, through the error boundary. */
export function noAccounts() {
  return data({ reason: "no-accounts" }, { status: 404 });
}

/**
 * The account the pages show (spec §4 step 5): the session's selectedAccount when the contact
 * may still see it, else the first of their accounts (remembered). None → 'Accounts not found'.
 */
export async function resolveSelectedAccount(
  businessId: string,
  session: { contact: { id: string }; data: { selectedAccount?: string } },
  remember: (accountId: string) => Promise<void>,
): Promise<AccountDetails> {
  const selected = session.data.selectedAccount;
  if (isUuid(selected)) {
    const account = await requireAccountAccess(businessId, session.contact.id, selected).catch(() => null);
    if (account) return account;
  }
  const [first] = await listContactAccounts(businessId, session.contact.id, { limit: 1 });
  if (!first) throw noAccounts();
  await remember(first.accountId);
  return requireAccountAccess(businessId, session.contact.id, first.accountId);
}
