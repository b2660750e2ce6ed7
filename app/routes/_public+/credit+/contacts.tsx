import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ContactsFields, CONTACTS_MESSAGES } from "./components/steps/ContactsFields";
import { CreditStepPage, stepMeta } from "./components/StepPage";
import { CREDIT_PAGE_HEADERS, stepAction, stepView, requireSameOrigin } from "./credit.server";

/**
 * `/credit/contacts` (issue 17; decision 038). The applicant (the confirmation goes to them) and the accounts payable contact. A valid answer is saved and the next step
 * opens; a wrong one comes back with what was typed and its problems (credit-pages.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return stepView(request, "contacts");
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return stepAction(request, "contacts");
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

export default function CreditContacts() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <CreditStepPage view={view} reply={reply} messages={CONTACTS_MESSAGES}>
      {(props) => <ContactsFields {...props} />}
    </CreditStepPage>
  );
}

export const meta = stepMeta;
