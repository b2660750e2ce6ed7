import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmRemove } from "./components/ConfirmRemove";
import { useT } from "~/components/useT";
import { BRAND_LABELS } from "~/lib/card";
import {
  accountNotFound,
  findCard,
  removeCard,
  requirePaymentMethodsPage,
  requireSameOrigin,
} from "./payment-methods.server";
import { metaTranslator } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/** The confirm step before a card is removed: a page and a POST, so it works without JavaScript. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, actor } = await requirePaymentMethodsPage(request);
  const card = await findCard(actor, params.cardId);
  if (!card) throw accountNotFound();
  return { businessName: branding.businessName, card: { brand: BRAND_LABELS[card.brand], last4: card.last4 } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor } = await requirePaymentMethodsPage(request);
  if (!(await removeCard(actor, params.cardId))) throw accountNotFound();
  return redirect("/payment-methods?notice=card-removed");
}

/** No React (decision 084): a form that posts, with the Menu and the session across tabs from `enhance.js`. */
export const handle = ENHANCED_PAGE;

export default function RemoveCard() {
  const { card } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <ConfirmRemove
      title={t("pm.removeCard.title")}
      text={t("pm.removeCard.text", { card: t("pm.card.name", card) })}
      confirm={t("pm.removeCard.confirm")}
      cancelTo="/payment-methods"
    />
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("pm.removeCard.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.removeCard", data.businessName),
  ];
};
