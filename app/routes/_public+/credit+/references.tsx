import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ReferencesFields, REFERENCES_MESSAGES } from "./components/steps/ReferencesFields";
import { CreditStepPage, stepMeta } from "./components/StepPage";
import { CREDIT_PAGE_HEADERS, stepAction, stepView, requireSameOrigin } from "./credit.server";

/**
 * `/credit/references` (issue 17; decision 038). Two or three trade referees, each emailed a link of their own once the application is sent. A valid answer is saved and the next step
 * opens; a wrong one comes back with what was typed and its problems (credit-pages.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return stepView(request, "references");
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return stepAction(request, "references");
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

export default function CreditReferences() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <CreditStepPage view={view} reply={reply} messages={REFERENCES_MESSAGES} lead="credit.references.lead">
      {(props) => <ReferencesFields {...props} />}
    </CreditStepPage>
  );
}

export const meta = stepMeta;
