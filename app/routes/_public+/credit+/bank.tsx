import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BankFields, BANK_MESSAGES } from "./components/steps/BankFields";
import { CreditStepPage, stepMeta } from "./components/StepPage";
import { CREDIT_PAGE_HEADERS, stepAction, stepView, requireSameOrigin } from "./credit.server";

/**
 * `/credit/bank` (issue 17; decision 038). Direct debit (optional): yes with an account, or no. A valid answer is saved and the next step
 * opens; a wrong one comes back with what was typed and its problems (credit-pages.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return stepView(request, "bank");
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return stepAction(request, "bank");
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

export default function CreditBank() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <CreditStepPage view={view} reply={reply} messages={BANK_MESSAGES} lead="credit.bank.lead">
      {(props) => <BankFields {...props} />}
    </CreditStepPage>
  );
}

export const meta = stepMeta;
