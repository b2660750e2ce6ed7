/**
 * The front door to the services for the routes in app/routes/api+/back-office+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export {
  createAgreementDocument,
  createAgreementOffer,
  publishAgreementVersion,
  resendAgreementOffer,
  withdrawAgreementOffer,
} from "~/services/agreements/commands.server";
export {
  getAgreementDocument,
  getAgreementOffer,
  listAgreementDocuments,
  listAgreementOffers,
} from "~/services/agreements/queries.server";
export { answer, apiProblem, isRead, notAllowed, requireCaller } from "~/services/backoffice/api.server";
export {
  checkSendFlag,
  collectionRoute,
  itemRoute,
  verbRoute,
  type CollectionRoute,
  type ItemRoute,
  type RouteArgs,
  type VerbRoute,
} from "~/services/backoffice/route-factories.server";
export { changeContactPermission, getContactPermissions } from "~/services/backoffice/contact-permissions.server";
export { getContactCommunication, recordContactCommunication } from "~/services/communication/preferences-api.server";
export {
  decideCreditApplication,
  getCreditApplication,
  listCreditApplications,
  listTradeReferences,
  readCreditDocument,
  resendTradeReference,
} from "~/services/credit/credit-backoffice.server";
export { creditDocumentReader } from "~/services/credit/document-read.server";
export { attachmentDisposition } from "~/services/platform/http.server";
export { revokeAdhocLinks, sendAdhocLink } from "~/services/requests/adhoc-links.server";
export { listInvoiceLinks, revokeInvoiceLinks, sendInvoiceLinks } from "~/services/requests/invoice-links.server";
export { cancelPaymentRequest, createPaymentRequest } from "~/services/requests/commands.server";
export { getPaymentRequest, listPaymentRequests } from "~/services/requests/queries.server";
export { remindPaymentRequest, sendPaymentRequest } from "~/services/requests/sending.server";
export {
  createResponseRequest,
  getResponseRequest,
  listResponseRequests,
  resendResponseRequest,
  withdrawResponseRequest,
} from "~/services/responses/responses.server";
export { cancelSchedule, proposeSchedule, sendSchedule, withdrawSchedule } from "~/services/schedules/commands.server";
export { getSchedule, listSchedules } from "~/services/schedules/queries.server";
