import { data } from "@remix-run/node";
import { getDb } from "./database.server";

export type AccountSummary = { accountId: string; number: string; name: string; parentAccountId: string | null };

/**
 * The accounts a contact may see (spec §4 step 3): those joined to the contact, plus their
 * child accounts when the business's ChildAccountTicked setting is on. One query.
 */
export async function listContactAccounts(businessId: string, contactId: string): Promise<AccountSummary[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("accounts")
    .select(["accounts.id as accountId", "accounts.number", "accounts.name", "accounts.parent_account_id as parentAccountId"])
    .where("accounts.business_id", "=", businessId)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom("account_contacts as ac")
            .select("ac.account_id")
            .whereRef("ac.account_id", "=", "accounts.id")
            .where("ac.contact_id", "=", contactId)
            .where("ac.business_id", "=", businessId),
        ),
        eb.and([
          eb.exists(
            eb
              .selectFrom("ui_settings as ui")
              .select("ui.item_name")
              .where("ui.business_id", "=", businessId)
              .where("ui.item_name", "=", "ChildAccountTicked")
              .where("ui.is_visible", "=", true),
          ),
          eb.exists(
            eb
              .selectFrom("account_contacts as pc")
              .select("pc.account_id")
              .whereRef("pc.account_id", "=", "accounts.parent_account_id")
              .where("pc.contact_id", "=", contactId)
              .where("pc.business_id", "=", businessId),
          ),
        ]),
      ]),
    )
    .orderBy("accounts.name")
    .orderBy("accounts.id")
    .limit(500)
    .execute();
  return rows;
}

/** Spec §4 step 4: no accounts → the 'Accounts not found' screen, through the error boundary. */
export function noAccounts() {
  return data({ reason: "no-accounts" }, { status: 404 });
}
