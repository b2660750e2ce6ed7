import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DirectorsFields, DIRECTORS_MESSAGES } from "./components/steps/DirectorsFields";
import { CreditStepPage, stepMeta } from "./components/StepPage";
import { CREDIT_PAGE_HEADERS, stepAction, stepView, requireSameOrigin } from "./credit.server";

/**
 * `/credit/directors` (issue 17; decision 038). The directors, owners, partners or trustees: one to six, each a name and a role. A valid answer is saved and the next step
 * opens; a wrong one comes back with what was typed and its problems (credit-pages.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return stepView(request, "directors");
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return stepAction(request, "directors");
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

export default function CreditDirectors() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <CreditStepPage view={view} reply={reply} messages={DIRECTORS_MESSAGES} lead="credit.directors.lead">
      {(props) => <DirectorsFields {...props} />}
    </CreditStepPage>
  );
}

export const meta = stepMeta;
