import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeSameOriginPath } from "~/lib/safe-redirect";
import {
  requireAccountAccess,
  requirePageAccess,
  readForm,
  requestOrigin,
  requireSameOrigin,
  updateSessionData,
} from "./portal.server";

/**
 * Switch the selected account (spec §3 selectedAccount) from anywhere in the shell: a plain
 * form POST, so it works without JavaScript. Another contact's or business's account is a
 * 404 and changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, session } = await requirePageAccess(request);
  const form = await readForm(request);
  const account = await requireAccountAccess(branding.businessId, session!.contact.id, form.get("accountId"));
  await updateSessionData(session!, { selectedAccount: account.accountId, invoicePagination: undefined });
  const back = safeSameOriginPath(String(form.get("redirectTo") ?? "/"), requestOrigin(request), "/");
  return redirect(back);
}

export function loader() {
  return redirect("/");
}
