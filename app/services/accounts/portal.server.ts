import { resolveSelectedAccount, type AccountDetails } from "./account-access.server";
import { requirePageAccess, requireSession, type PageContext } from "../auth/auth.server";
import { updateSessionData, type PortalSession } from "../auth/session.server";

/**
 * Every signed-in account page starts here: host, session, portal access, and the selected
 * account (spec §4 steps 3–5), all on the server.
 */
export async function requireAccountPage(
  request: Request,
): Promise<PageContext & { session: PortalSession; account: AccountDetails }> {
  const context = await requirePageAccess(request);
  const session = context.session!;
  const account = await resolveSelectedAccount(context.branding.businessId, session, (accountId) =>
    updateSessionData(session, { selectedAccount: accountId }),
  );
  return { ...context, session, account };
}

/**
 * For the customer-style pages (spec §2: invoices and payments, payment complete): a session
 * is needed, but not the accessCustomerPortal permission; the account is the selected one.
 */
export async function requireCustomerAccountPage(
  request: Request,
): Promise<PageContext & { session: PortalSession; account: AccountDetails }> {
  const context = await requireSession(request);
  const session = context.session;
  const account = await resolveSelectedAccount(context.branding.businessId, session, (accountId) =>
    updateSessionData(session, { selectedAccount: accountId }),
  );
  return { ...context, session, account };
}
