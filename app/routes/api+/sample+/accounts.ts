import type { LoaderFunctionArgs } from "@remix-run/node";
import { listContactAccounts, parseFlag, requireApiPortalAccess, apiJson, methodNotAllowed } from "./sample-api.server";

/** GET /api/sample/accounts?parent=&children= (spec §7): the signed-in contact's accounts. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiPortalAccess(request);
  const params = new URL(request.url).searchParams;
  const accounts = await listContactAccounts(branding.businessId, session.contact.id, {
    parent: parseFlag(params, "parent", true),
    children: parseFlag(params, "children", true),
  });
  return apiJson(
    accounts.map(({ accountId, number, name, parentAccountId, isChild }) => ({
      accountId,
      number,
      name,
      parentAccountId,
      isChild,
    })),
  );
}

export function action() {
  return methodNotAllowed(["GET"]);
}
