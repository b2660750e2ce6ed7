import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { formatMoney } from "~/lib/format";
import { listAccountContacts, requireAccountPage } from "./portal.server";
import { metaTranslator } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";
import { StackedTable } from "~/components/StackedTable";

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
      creditLimit:
        account.creditLimitCents === null
          ? null
          : formatMoney(account.creditLimitCents, { currency: branding.currency }),
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

/** Read-only: the account's facts and contacts (decision 049). */
export const handle = STATIC_PAGE;

export default function AccountDetails() {
  const { account, contacts } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{account.name}</h1>
      <dl className={styles.details}>
        <dt>{t("account.number")}</dt>
        <dd>{account.number}</dd>
        <dt>{t("account.kind")}</dt>
        <dd>{account.isChild ? t("account.kind.branch") : t("account.kind.account")}</dd>
        <dt>{t("account.address")}</dt>
        <dd>{account.address || t("account.notRecorded")}</dd>
        <dt>{t("account.email")}</dt>
        <dd>{account.email || t("account.notRecorded")}</dd>
        <dt>{t("account.phone")}</dt>
        <dd>{account.phone || t("account.notRecorded")}</dd>
        <dt>{t("account.terms")}</dt>
        <dd>{account.terms === 0 ? t("account.terms.receipt") : t("account.terms.days", { days: account.terms })}</dd>
        {account.creditLimit ? (
          <>
            <dt>{t("account.creditLimit")}</dt>
            <dd>{account.creditLimit}</dd>
          </>
        ) : null}
      </dl>
      <h2>{t("account.contacts")}</h2>
      {contacts.length === 0 ? (
        <p>{t("account.contacts.none")}</p>
      ) : (
        <div className={styles.scroll} tabIndex={0} role="region" aria-label={t("account.contacts")}>
          <StackedTable
            rows={contacts}
            rowKey={(contact) => contact.id}
            columns={[
              { label: t("account.contact.name"), kind: "title", cell: (contact) => contact.name },
              { label: t("account.contact.position"), cell: (contact) => contact.position },
              { label: t("account.contact.email"), cell: (contact) => contact.email },
              {
                label: t("account.contact.role"),
                cell: (contact) =>
                  t(
                    contact.role === "owner"
                      ? "account.role.owner"
                      : contact.role === "billing"
                        ? "account.role.billing"
                        : "account.role.contact",
                  ),
              },
            ]}
          />
        </div>
      )}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data)
    return [{ title: metaTranslator(matches)("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${data.account.name} · ${data.businessName}` },
    metaDescription(matches, "meta.account", data.businessName),
  ];
};
