import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CARD_FIELD_MESSAGES, CARD_SECRET_FIELDS, CardFields } from "./components/CardFields";
import { ConformCheckbox, useConstraintForm } from "~/components/ConstraintForm";
import { PaymentMethodForm } from "./components/PaymentMethodForm";
import { useT } from "~/components/useT";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { newCardSchema } from "~/lib/payment-method-schemas";
import { MAX_SAVED_PER_ACCOUNT } from "~/lib/payment-method-types";
import {
  readForm,
  newAuthorityReference,
  saveCard,
  requirePaymentMethodsPage,
  requireSameOrigin,
  parseSubmission,
} from "./payment-methods.server";
import { metaDescription } from "~/lib/meta";

const MESSAGES = { ...CARD_FIELD_MESSAGES, authority: { required: "pm.error.consent.required" as MessageKey } };

/**
 * Add a card to the selected account: number and CVN to the gateway, the token kept. A payment
 * schedule's page links here with `?returnTo=<its path>` and gets the contact back once it is saved.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await requirePaymentMethodsPage(request);
  return {
    businessName: branding.businessName,
    maxSaved: MAX_SAVED_PER_ACCOUNT,
    constraint: getZodConstraint(newCardSchema()),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor, gateway, returnTo } = await requirePaymentMethodsPage(request);
  const form = await readForm(request);
  // Every field is checked before the card goes to the gateway (saveCard tokenises last).
  const submission = parseSubmission(form, { schema: newCardSchema() });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: [...CARD_SECRET_FIELDS] }) }, { status: 400 });
  }
  const card = submission.value;
  const result = await saveCard(
    actor,
    {
      cardNumber: card.cardNumber,
      cvn: card.cvn,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      holderName: card.cardHolderName,
      makeDefault: card.makeDefault,
      authorityReference: newAuthorityReference(),
    },
    gateway,
  );
  if (!result.ok) {
    const message: MessageKey = `pm.refusal.${result.refusal}`;
    return data(
      { result: submission.reply({ formErrors: [message], hideFields: [...CARD_SECRET_FIELDS] }) },
      { status: result.refusal === "unavailable" ? 503 : 422 },
    );
  }
  // Added from a payment schedule's page (`?returnTo=`, kept in the form's own action URL): back there.
  return redirect(returnTo ?? "/payment-methods?notice=card-added");
}

export default function AddCard() {
  const { businessName, maxSaved, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const [form, fields] = useConstraintForm<
    "cardNumber" | "cardHolderName" | "expiryMonth" | "expiryYear" | "cvn" | "makeDefault" | "authority"
  >({
    id: "add-card",
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    constraint,
    messages: MESSAGES,
    secretFields: [...CARD_SECRET_FIELDS],
  });
  return (
    <PaymentMethodForm
      form={form}
      answered={Boolean(actionData)}
      title={t("pm.addCard.title")}
      intro={<p>{t("pm.addCard.security")}</p>}
      submitLabel={t("pm.addCard.submit")}
      maxSaved={maxSaved}
    >
      <CardFields fields={fields} cvnHint="pm.field.cvn.hint" />
      <ConformCheckbox meta={fields.makeDefault} label={t("pm.field.makeDefault")} />
      <ConformCheckbox meta={fields.authority} label={t("pm.field.cardConsent", { business: businessName })} />
    </PaymentMethodForm>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("pm.addCard.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.addCard", data.businessName),
  ];
};
