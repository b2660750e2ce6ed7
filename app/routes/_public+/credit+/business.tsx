import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BusinessFields, BUSINESS_MESSAGES } from "./components/steps/BusinessFields";
import { CreditStepPage, stepMeta } from "./components/StepPage";
import { CREDIT_PAGE_HEADERS, stepAction, stepView, requireSameOrigin } from "./credit.server";

/**
 * `/credit/business` (issue 17; decision 038). Your business: legal and trading name, kind of business, ABN and ACN or NZBN. The first step: its valid POST makes the draft. A valid answer is saved and the next step
 * opens; a wrong one comes back with what was typed and its problems (credit-pages.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return stepView(request, "business");
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return stepAction(request, "business");
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

export default function CreditBusiness() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <CreditStepPage view={view} reply={reply} messages={BUSINESS_MESSAGES}>
      {(props) => <BusinessFields {...props} />}
    </CreditStepPage>
  );
}

export const meta = stepMeta;
