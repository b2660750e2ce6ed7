/**
 * The front door to the services for the routes in app/routes/_public+/credit+/: each route imports
 * the server names it uses from here and from no other `.server` path, so the browser bundle keeps one empty
 * module per page for the services (decision 054; ESLint holds the routes to it, decision 065). Add a name here when
 * a route needs it.
 */
export {
  checkView,
  CREDIT_PAGE_HEADERS,
  documentsAction,
  type DocumentsReply,
  documentsView,
  startAction,
  startView,
  stepAction,
  stepView,
  submitAction,
  submittedView,
  termsAction,
  type TermsReply,
  termsView,
} from "~/services/credit/credit-pages.server";
export { requireSameOrigin } from "~/services/platform/request-context.server";
