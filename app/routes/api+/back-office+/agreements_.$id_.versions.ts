import type { ActionFunctionArgs } from "@remix-run/node";
import { AGREEMENT_API_BODY_BYTES } from "~/lib/agreements";
import {
  publishAgreementVersion,
  answer,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
} from "./back-office.server";

/**
 * POST /api/back-office/agreements/:id/versions (agreements:write): publishes the document's next
 * version, `{ body }`. Published text never changes; every offer not yet decided shows the new
 * version from now on, and a page still showing the old one is refused when it is submitted.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(["POST"]);
    const caller = await requireCaller(request, "agreements:write");
    const body = await readJsonBody(request, { maxBytes: AGREEMENT_API_BODY_BYTES });
    return withIdempotency(request, caller, body.raw, async (onCommit) => {
      const document = await publishAgreementVersion(caller.businessId, params.id, body.value, {
        beforeCommit: onCommit,
      });
      return { status: 201, body: { document } };
    });
  });
}

export async function loader() {
  return notAllowed(["POST"]);
}
