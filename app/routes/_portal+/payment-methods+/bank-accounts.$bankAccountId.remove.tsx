import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmRemove } from "./components/ConfirmRemove";
import { useT } from "~/components/useT";
import { maskAccountNumber } from "~/lib/bank-account";
import {
  accountNotFound,
  findBankAccount,
  removeBankAccount,
  requirePaymentMethodsPage,
  requireSameOrigin,
} from "./payment-methods.server";
import { metaTranslator } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/** The confirm step before a bank account is removed: a page and a POST, no JavaScript needed. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, actor } = await requirePaymentMethodsPage(request);
  const bank = await findBankAccount(actor, params.bankAccountId);
  if (!bank) throw accountNotFound();
  return {
    businessName: branding.businessName,
    bank: { name: bank.accountName, number: maskAccountNumber(bank.accountNumber) },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor } = await requirePaymentMethodsPage(request);
  if (!(await removeBankAccount(actor, params.bankAccountId))) throw accountNotFound();
  return redirect("/payment-methods?notice=bank-removed");
}

/** No React (decision 084): a form that posts, with the Menu and the session across tabs from `enhance.js`. */
export const handle = ENHANCED_PAGE;

export default function RemoveBankAccount() {
  const { bank } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <ConfirmRemove
      title={t("pm.removeBank.title")}
      text={t("pm.removeBank.text", { bank: t("pm.bank.name", bank) })}
      confirm={t("pm.removeBank.confirm")}
      cancelTo="/payment-methods"
    />
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("pm.removeBank.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.removeBank", data.businessName),
  ];
};
