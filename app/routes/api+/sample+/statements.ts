import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  listStatementLines,
  requireApiAccountAccess,
  STATEMENT_SORTS,
  STATEMENT_TYPES,
  parseFilter,
  parseIsoDate,
  parseSort,
  requireSkipTake,
  requireApiPortalAccess,
  apiError,
  apiJson,
  methodNotAllowed,
} from "./sample-api.server";

/**
 * GET /api/sample/statements?accountId=&skip=&take=&sort=&filter= (spec §5, §7). No account
 * → 400 'Missing account Id'; no skip/take → 400 'Bad request'. Sort fields: date, amount. Filter fields:
 * from, to (YYYY-MM-DD), type (invoice, payment, credit, adjustment, fee).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requireApiPortalAccess(request);
  const params = new URL(request.url).searchParams;
  const accountId = params.get("accountId");
  if (!accountId) return apiError(400, "Missing account Id");
  const { skip, take } = requireSkipTake(params);
  const sort = parseSort(params.get("sort"), STATEMENT_SORTS, "date", "desc");
  const filter = parseFilter(params.get("filter"), ["from", "to", "type"] as const);
  if (filter.type !== undefined && !(STATEMENT_TYPES as readonly string[]).includes(filter.type)) {
    return apiError(400, `Unknown statement type: use ${STATEMENT_TYPES.join(", ")}`);
  }
  const from = parseIsoDate(filter.from, "from");
  const to = parseIsoDate(filter.to, "to");
  const account = await requireApiAccountAccess(branding.businessId, session.contact.id, accountId);
  const page = await listStatementLines(branding.businessId, account.accountId, {
    skip,
    take,
    sort,
    from,
    to,
    type: filter.type as (typeof STATEMENT_TYPES)[number] | undefined,
  });
  return apiJson({ skip, take, ...page });
}

export function action() {
  return methodNotAllowed(["GET"]);
}
