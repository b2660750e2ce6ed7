import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireSession } from "./agreement.server";

/**
 * `/customer/agreement` itself is not on the spec's customer-style list (`/customer/agreement/
 * [...slug]` needs a segment), so the list lives at `/customer/agreement/all` (decision 036, as
 * decision 033 put the home at `/payment/payment-request/all`); this address leads there for
 * anyone signed in.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request);
  return redirect("/customer/agreement/all");
}
