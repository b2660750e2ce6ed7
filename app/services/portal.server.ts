import { resolveSelectedAccount, type AccountDetails } from "./accounts.server";
import { requirePageAccess, type PageContext } from "./auth.server";
import { updateSessionData, type PortalSession } from "./session.server";

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
