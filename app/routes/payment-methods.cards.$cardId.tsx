import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { ConformField, useConstraintForm, type ConstraintMessages } from "~/components/ConstraintForm";
import { FormMessage, formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import { BRAND_LABELS } from "~/lib/card";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { updateCardSchema } from "~/lib/payment-method-schemas";
import { accountNotFound } from "~/services/accounts/accounts.server";
import { readForm } from "~/services/platform/http.server";
import { findCard, updateCard } from "~/services/payment-methods/payment-methods.server";
import { requirePaymentMethodsPage } from "~/services/payment-methods/payment-methods-page.server";
import { requireSameOrigin } from "~/services/platform/request-context.server";

const MESSAGES: ConstraintMessages = {
  cardHolderName: { required: "pm.error.holder.required", invalid: "pm.error.holder.characters" },
  expiryMonth: { required: "pm.error.expiryMonth.required", invalid: "pm.error.expiryMonth.invalid" },
  expiryYear: { required: "pm.error.expiryYear.required", invalid: "pm.error.expiryYear.invalid" },
  cvn: { invalid: "pm.error.cvn.invalid" },
};

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
  const submission = parseWithZod(form, { schema: updateCardSchema() });
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
  const navigation = useNavigation();
  const t = useT();
  const [form, fields] = useConstraintForm<"cardHolderName" | "expiryMonth" | "expiryYear" | "cvn">({
    id: "edit-card",
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    constraint,
    messages: MESSAGES,
    secretFields: ["cvn"],
    defaultValue: { cardHolderName: card.holder, expiryMonth: card.month, expiryYear: card.year },
  });
  const formError = form.errors?.[0];
  const name = t("pm.card.name", card.name);
  return (
    <>
      <h1>{t("pm.editCard.title")}</h1>
      <p>{t("pm.editCard.intro", { card: name })}</p>
      {formError ? (
        <FormMessage kind="error" id={form.errorId}>
          {t(formError as MessageKey)}
        </FormMessage>
      ) : actionData ? (
        <FormMessage kind="error">{t("pm.error.form")}</FormMessage>
      ) : null}
      <Form method="post" {...getFormProps(form)} className={formStyles.form}>
        <ConformField meta={fields.cardHolderName} label={t("pm.field.holder")} autoComplete="cc-name" />
        <fieldset className={formStyles.fieldset}>
          <legend className={formStyles.legend}>{t("pm.field.expiry")}</legend>
          <div className={formStyles.row}>
            <div className={formStyles.narrow}>
              <ConformField
                meta={fields.expiryMonth}
                label={t("pm.field.expiryMonth")}
                inputMode="numeric"
                autoComplete="cc-exp-month"
              />
            </div>
            <div className={formStyles.narrow}>
              <ConformField
                meta={fields.expiryYear}
                label={t("pm.field.expiryYear")}
                inputMode="numeric"
                autoComplete="cc-exp-year"
              />
            </div>
          </div>
        </fieldset>
        <ConformField
          meta={fields.cvn}
          label={t("pm.field.cvn")}
          hint={t("pm.field.cvn.updateHint")}
          inputMode="numeric"
          autoComplete="cc-csc"
        />
        <div className={formStyles.actions}>
          <button type="submit" className={button} disabled={navigation.state === "submitting"}>
            {t("pm.editCard.submit")}
          </button>
          <Link to="/payment-methods">{t("pm.cancel")}</Link>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  return [{ title: data ? `${t("pm.editCard.title")} · ${data.businessName}` : t("errors.notFound.title") }];
};
