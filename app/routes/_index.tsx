import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listContactAccounts, noAccounts } from "~/services/accounts.server";
import { requirePageAccess } from "~/services/auth.server";

/**
 * Home: the signed-in contact's start-up (spec §4 steps 3–5): their accounts, or the
 * 'Accounts not found' screen. Needs a session and portal access like every route that
 * is not on the public or customer-style lists.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, session } = await requirePageAccess(request);
  const contact = session!.contact;
  const accounts = await listContactAccounts(branding.businessId, contact.id);
  if (accounts.length === 0) throw noAccounts();
  return {
    businessName: branding.businessName,
    firstName: contact.firstName,
    accounts: accounts.map(({ number, name, parentAccountId }) => ({ number, name, isChild: parentAccountId !== null })),
  };
}

export default function Home() {
  const { businessName, firstName, accounts } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{firstName ? `Welcome, ${firstName}` : "Welcome"}</h1>
      <p>These are the {businessName} accounts joined to your login.</p>
      <h2>Your accounts</h2>
      <ul>
        {accounts.map((account) => (
          <li key={account.number}>
            {account.name} <span>({account.number}{account.isChild ? ", a branch account" : ""})</span>
          </li>
        ))}
      </ul>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.businessName ?? "Page not found" }];
