import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AGREEMENT_API_BODY_BYTES } from "~/lib/agreements";
import {
  createAgreementDocument,
  listAgreementDocuments,
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
 * GET  /api/back-office/agreements?limit=&cursor= (agreements:read): the business's agreement
 *      documents, newest first, each with its latest version's number, hash and date.
 * POST /api/back-office/agreements (agreements:write): a new document and its version 1,
 *      `{ kind, title, body }`. Decisions 032 and 036; authenticated by the business's API key only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    if (!isRead(request)) return notAllowed(["GET", "POST"]);
    const caller = await requireCaller(request, "agreements:read");
    const params = new URL(request.url).searchParams;
    const limit = params.get("limit");
    if (limit !== null && !/^\d{1,3}$/.test(limit)) throw invalid({ limit: "Use a whole number from 1 to 100." });
    return json(
      await listAgreementDocuments(caller.businessId, {
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
    const body = await readJsonBody(request, { maxBytes: AGREEMENT_API_BODY_BYTES });
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const document = await createAgreementDocument(caller.businessId, body.value, { beforeCommit: onCommit });
      return { status: 201, body: { document } };
    });
  });
}
