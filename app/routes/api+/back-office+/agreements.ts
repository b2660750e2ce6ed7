import { AGREEMENT_API_BODY_BYTES } from "~/lib/agreements";
import {
  collectionRoute,
  createAgreementDocument,
  listAgreementDocuments,
  type CollectionRoute,
  type RouteArgs,
} from "./back-office.server";

/**
 * GET  /api/back-office/agreements?limit=&cursor= (agreements:read): the business's agreement
 *      documents, newest first, each with its latest version's number, hash and date.
 * POST /api/back-office/agreements (agreements:write): a new document and its version 1,
 *      `{ kind, title, body }`. Decisions 032 and 036; authenticated by the business's API key only.
 */
const route = {
  list: { scope: "agreements:read", filters: [], run: listAgreementDocuments },
  post: {
    scope: "agreements:write",
    maxBytes: AGREEMENT_API_BODY_BYTES,
    run: async ({ caller, body, onCommit }) => ({
      status: 201,
      body: { document: await createAgreementDocument(caller.businessId, body, { beforeCommit: onCommit }) },
    }),
  },
} satisfies CollectionRoute;

export const loader = (args: RouteArgs) => collectionRoute.loader(route, args);
export const action = (args: RouteArgs) => collectionRoute.action(route, args);
