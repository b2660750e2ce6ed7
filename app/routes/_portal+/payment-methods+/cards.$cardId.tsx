import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CARD_FIELD_MESSAGES, CardFields } from "./components/CardFields";
import { useConstraintForm } from "~/components/ConstraintForm";
import { PaymentMethodForm } from "./components/PaymentMethodForm";
import { useT } from "~/components/useT";
import { BRAND_LABELS } from "~/lib/card";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { updateCardSchema } from "~/lib/payment-method-schemas";
import {
  accountNotFound,
  readForm,
  findCard,
  updateCard,
  requirePaymentMethodsPage,
  requireSameOrigin,
  parseSubmission,
} from "./payment-methods.server";
import { metaDescription } from "~/lib/meta";

/** Update a saved card's expiry and holder name (spec §3 update payload). Another account's card → 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, actor } = await requirePaymentMethodsPage(request);
  const card = await findCard(actor, params.cardId);
  if (!card) throw accountNotFound();
  return {
    businessName: branding.businessName,
    card: {
      name: { brand: BRAND_LABELS[card.brand], last4: card.last4 },
      holder: card.holderName,
      month: String(card.expiryMonth).padStart(2, "0"),
      year: String(card.expiryYear),
    },
    constraint: getZodConstraint(updateCardSchema()),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor, gateway } = await requirePaymentMethodsPage(request);
  if (!(await findCard(actor, params.cardId))) throw accountNotFound();
  const form = await readForm(request);
  const submission = parseSubmission(form, { schema: updateCardSchema() });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["cvn"] }) }, { status: 400 });
  }
  const value = submission.value;
  const result = await updateCard(
    actor,
    params.cardId!,
    { expiryMonth: value.expiryMonth, expiryYear: value.expiryYear, holderName: value.cardHolderName, cvn: value.cvn },
    gateway,
  );
  if (!result) throw accountNotFound();
  if (!result.ok) {
    const message: MessageKey = `pm.refusal.${result.refusal}`;
    return data({ result: submission.reply({ formErrors: [message], hideFields: ["cvn"] }) }, { status: 422 });
  }
  return redirect("/payment-methods?notice=card-updated");
}

export default function EditCard() {
  const { card, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const [form, fields] = useConstraintForm<"cardHolderName" | "expiryMonth" | "expiryYear" | "cvn">({
    id: "edit-card",
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    constraint,
    messages: CARD_FIELD_MESSAGES,
    secretFields: ["cvn"],
    defaultValue: { cardHolderName: card.holder, expiryMonth: card.month, expiryYear: card.year },
  });
  return (
    <PaymentMethodForm
      form={form}
      answered={Boolean(actionData)}
      title={t("pm.editCard.title")}
      intro={<p>{t("pm.editCard.intro", { card: t("pm.card.name", card.name) })}</p>}
      submitLabel={t("pm.editCard.submit")}
    >
      {/* Conform's `fields` answers any name, so the card number is left out by name: an update keeps the number. */}
      <CardFields
        fields={{
          cardHolderName: fields.cardHolderName,
          expiryMonth: fields.expiryMonth,
          expiryYear: fields.expiryYear,
          cvn: fields.cvn,
        }}
        cvnHint="pm.field.cvn.updateHint"
      />
    </PaymentMethodForm>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("pm.editCard.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.editCard", data.businessName),
  ];
};
