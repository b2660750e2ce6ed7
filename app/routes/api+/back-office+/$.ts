import { apiProblem } from "./back-office.server";

/** Any other /api/back-office/… path: the back-office API's own 404, for every method. */
function notFound(request: Request) {
  const path = new URL(request.url).pathname.slice(0, 200);
  return apiProblem(404, "not_found", `There is no back-office call at ${path}.`);
}

export function loader({ request }: { request: Request }) {
  return notFound(request);
}

export function action({ request }: { request: Request }) {
  return notFound(request);
}
