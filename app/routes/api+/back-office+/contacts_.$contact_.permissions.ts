import type { LoaderFunctionArgs } from "@remix-run/node";
import { answer, isRead, json, notAllowed, requireCaller, getContactPermissions } from "./back-office.server";

/**
 * GET /api/back-office/contacts/:contact/permissions (contacts:read): a contact of the key's
 * business, named by id or email address, with its permissions (accessCustomerPortal, hostAdmin).
 * Another business's contact is a 404, exactly like one that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET"]);
    const caller = await requireCaller(request, "contacts:read");
    return json({ contact: await getContactPermissions(caller.businessId, params.contact) });
  });
}

export async function action() {
  return notAllowed(["GET"]);
}
