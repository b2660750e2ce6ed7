import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  ACCOUNT_SORTS,
  searchAccounts,
  parseFilter,
  parseFlag,
  parseSort,
  requireSkipTake,
  requireApiPortalAccess,
  apiJson,
  methodNotAllowed,
} from "./sample-api.server";

/**
 * GET /api/sample/accounts-search (spec §7): parent, children, sort and filter (JSON lists),
 * skip and take (required: 400 'Bad request'), myAccounts. Filter fields: text (name or
 * number), name, number. Sort fields: name, number.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiPortalAccess(request);
  const params = new URL(request.url).searchParams;
  const { skip, take } = requireSkipTake(params);
  const sort = parseSort(params.get("sort"), ACCOUNT_SORTS, "name");
  const filter = parseFilter(params.get("filter"), ["text", "name", "number"] as const);
  const result = await searchAccounts(branding.businessId, session.contact.id, {
    text: (filter.text ?? filter.name ?? filter.number ?? "").trim(),
    sort,
    skip,
    take,
    myAccounts: parseFlag(params, "myAccounts", false),
    parent: parseFlag(params, "parent", true),
    children: parseFlag(params, "children", true),
  });
  return apiJson({ skip, take, ...result });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
