import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmRemove } from "./components/ConfirmRemove";
import { FormMessage } from "~/components/Form";
import { useAgreementName } from "./components/PayToAgreements";
import { useT } from "~/components/useT";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { isLive } from "~/lib/payto-states";
import {
  accountNotFound,
  requirePaymentMethodsPage,
  cancelAgreement,
  getAgreement,
  agreementLabel,
  requireSameOrigin,
} from "./payment-methods.server";
import { metaDescription } from "~/lib/meta";

/**
 * The confirm step before a PayTo agreement is cancelled: a page and a POST, so it works
 * without JavaScript. The business cancels it at the provider, then records the provider's
 * answer; the list page says it is done.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, actor } = await requirePaymentMethodsPage(request);
  const agreement = await getAgreement(actor, params.agreementId);
  if (!agreement) throw accountNotFound();
  // An agreement that has already ended has nothing to cancel: its own page says so.
  if (!isLive(agreement.status)) throw redirect(`/payment-methods/payto/${agreement.id}`);
  return { businessName: branding.businessName, label: agreementLabel(agreement), id: agreement.id };
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor } = await requirePaymentMethodsPage(request);
  const outcome = await cancelAgreement(actor, params.agreementId);
  if (outcome.ok) return redirect("/payment-methods?notice=payto-cancelled");
  if (outcome.reason === "not_found") throw accountNotFound();
  if (outcome.reason === "ended") return redirect(`/payment-methods/payto/${String(params.agreementId)}`);
  const failed: MessageKey = "payto.cancel.failed";
  return data({ error: failed }, { status: 503 });
}

export default function CancelPayToAgreement() {
  const { businessName, label, id } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const nameOf = useAgreementName();
  return (
    <>
      {actionData?.error ? <FormMessage kind="error">{t(actionData.error)}</FormMessage> : null}
      <ConfirmRemove
        title={t("payto.cancel.title")}
        text={t("payto.cancel.text", { item: nameOf(label), business: businessName })}
        confirm={t("payto.cancel.confirm")}
        cancelTo={`/payment-methods/payto/${id}`}
      />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("payto.cancel.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.paytoCancel", data.businessName),
  ];
};
