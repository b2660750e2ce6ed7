import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import * as styles from "~/components/Table.css";
import { formatMoney } from "~/lib/format";
import { listAccountContacts } from "~/services/accounts.server";
import { requireAccountPage } from "~/services/portal.server";

/** The selected account's details and the people on it (spec §7 `account`, `contacts`). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, account } = await requireAccountPage(request);
  const contacts = await listAccountContacts(branding.businessId, account.accountId);
  return {
    businessName: branding.businessName,
    account: {
      name: account.name,
      number: account.number,
      address: account.address,
      email: account.email,
      phone: account.phone,
      terms: account.paymentTermsDays,
      creditLimit: account.creditLimitCents === null ? null : formatMoney(account.creditLimitCents, { currency: branding.currency }),
      isChild: account.isChild,
    },
    contacts: contacts.map((c) => ({
      id: c.userId,
      name: `${c.firstName} ${c.lastName}`.trim() || c.email,
      position: c.position,
      email: c.email,
      role: c.role,
    })),
  };
}

export default function AccountDetails() {
  const { account, contacts } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{account.name}</h1>
      <dl className={styles.details}>
        <dt>Account number</dt>
        <dd>{account.number}</dd>
        <dt>Kind</dt>
        <dd>{account.isChild ? "Branch account (part of a parent account)" : "Account"}</dd>
        <dt>Address</dt>
        <dd>{account.address || "Not recorded"}</dd>
        <dt>Email</dt>
        <dd>{account.email || "Not recorded"}</dd>
        <dt>Phone</dt>
        <dd>{account.phone || "Not recorded"}</dd>
        <dt>Payment terms</dt>
        <dd>{account.terms === 0 ? "Due on receipt" : `${account.terms} days`}</dd>
        {account.creditLimit ? (
          <>
            <dt>Credit limit</dt>
            <dd>{account.creditLimit}</dd>
          </>
        ) : null}
      </dl>
      <h2>Contacts</h2>
      {contacts.length === 0 ? (
        <p>No contacts are recorded for this account.</p>
      ) : (
        <div className={styles.scroll} tabIndex={0} role="region" aria-label="Contacts">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Position</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
              </tr>
            </thead>
            <tbody>
              {contacts.map((contact) => (
                <tr key={contact.id}>
                  <td>{contact.name}</td>
                  <td>{contact.position}</td>
                  <td>{contact.email}</td>
                  <td>{contact.role === "owner" ? "Owner" : contact.role === "billing" ? "Billing" : "Contact"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.account.name} · ${data.businessName}` : "Page not found" },
];
