import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CreditFields, CREDIT_MESSAGES } from "./components/steps/CreditFields";
import { CreditStepPage, stepMeta } from "./components/StepPage";
import { CREDIT_PAGE_HEADERS, stepAction, stepView, requireSameOrigin } from "./credit.server";

/**
 * `/credit/credit` (issue 17; decision 038). The credit limit asked for and the expected monthly purchases, parsed exactly into cents. A valid answer is saved and the next step
 * opens; a wrong one comes back with what was typed and its problems (credit-pages.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return stepView(request, "credit");
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return stepAction(request, "credit");
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

export default function CreditCredit() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <CreditStepPage view={view} reply={reply} messages={CREDIT_MESSAGES} lead="credit.credit.lead">
      {(props) => <CreditFields {...props} />}
    </CreditStepPage>
  );
}

export const meta = stepMeta;
