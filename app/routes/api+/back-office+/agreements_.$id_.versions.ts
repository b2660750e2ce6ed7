import { AGREEMENT_API_BODY_BYTES } from "~/lib/agreements";
import { collectionRoute, publishAgreementVersion, type CollectionRoute, type RouteArgs } from "./back-office.server";

/**
 * POST /api/back-office/agreements/:id/versions (agreements:write): publishes the document's next
 * version, `{ body }`. Published text never changes; every offer not yet decided shows the new
 * version from now on, and a page still showing the old one is refused when it is submitted.
 */
const route = {
  post: {
    scope: "agreements:write",
    maxBytes: AGREEMENT_API_BODY_BYTES,
    run: async ({ caller, params, body, onCommit }) => ({
      status: 201,
      body: {
        document: await publishAgreementVersion(caller.businessId, params.id, body, { beforeCommit: onCommit }),
      },
    }),
  },
} satisfies CollectionRoute;

export const loader = () => collectionRoute.loader(route);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
