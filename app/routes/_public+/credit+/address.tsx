import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AddressFields, ADDRESS_MESSAGES } from "./components/steps/AddressFields";
import { CreditStepPage, stepMeta } from "./components/StepPage";
import { CREDIT_PAGE_HEADERS, stepAction, stepView, requireSameOrigin } from "./credit.server";

/**
 * `/credit/address` (issue 17; decision 038). The business's trading address, and its postal address unless it is the same. A valid answer is saved and the next step
 * opens; a wrong one comes back with what was typed and its problems (credit-pages.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return stepView(request, "address");
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return stepAction(request, "address");
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

export default function CreditAddress() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <CreditStepPage view={view} reply={reply} messages={ADDRESS_MESSAGES}>
      {(props) => <AddressFields {...props} />}
    </CreditStepPage>
  );
}

export const meta = stepMeta;
