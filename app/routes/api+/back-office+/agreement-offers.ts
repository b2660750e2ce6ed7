import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  createAgreementOffer,
  listAgreementOffers,
  answer,
  isRead,
  json,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  invalid,
} from "./back-office.server";

/**
 * GET  /api/back-office/agreement-offers?account=&contact=&state=&limit=&cursor= (agreements:read):
 *      the offers of one account (id or number) or to one contact (id or email), newest first.
 * POST /api/back-office/agreement-offers (agreements:write): offers a document to a contact of an
 *      account and emails them the link, `{ document, account, contact, expiresInDays? }`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "agreements:read");
    const params = new URL(request.url).searchParams;
    const limit = params.get("limit");
    if (limit !== null && !/^\d{1,3}$/.test(limit)) throw invalid({ limit: "Use a whole number from 1 to 100." });
    return json(
      await listAgreementOffers(caller.businessId, {
        account: params.get("account"),
        contact: params.get("contact"),
        state: params.get("state"),
        limit: limit === null ? null : Number(limit),
        cursor: params.get("cursor"),
      }),
    );
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "agreements:write");
    const body = await readJsonBody(request);
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const result = await createAgreementOffer(caller.businessId, body.value, {
        apiKeyId: caller.keyId,
        beforeCommit: onCommit,
      });
      return { status: 201, body: result };
    });
  });
}
