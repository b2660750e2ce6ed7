import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { ConformCheckbox, ConformField, useConstraintForm, type ConstraintMessages } from "~/components/ConstraintForm";
import { FormMessage, formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { newCardSchema } from "~/lib/payment-method-schemas";
import { MAX_SAVED_PER_ACCOUNT } from "~/lib/payment-method-types";
import { readForm } from "~/services/platform/http.server";
import { newAuthorityReference, saveCard } from "~/services/payment-methods/payment-methods.server";
import { requirePaymentMethodsPage } from "~/services/payment-methods/payment-methods-page.server";
import { requireSameOrigin } from "~/services/platform/request-context.server";

/** Never sent back to the browser after a failed POST (PCI DSS 3.3.1: not echoed, not kept). */
const SECRET_FIELDS = ["cardNumber", "cvn"];

const MESSAGES: ConstraintMessages = {
  cardNumber: { required: "pm.error.cardNumber.required", invalid: "pm.error.cardNumber.invalid" },
  cardHolderName: { required: "pm.error.holder.required", invalid: "pm.error.holder.characters" },
  expiryMonth: { required: "pm.error.expiryMonth.required", invalid: "pm.error.expiryMonth.invalid" },
  expiryYear: { required: "pm.error.expiryYear.required", invalid: "pm.error.expiryYear.invalid" },
  cvn: { required: "pm.error.cvn.required", invalid: "pm.error.cvn.invalid" },
  authority: { required: "pm.error.consent.required" },
};

/** Add a card to the selected account: number and CVN to the gateway, the token kept. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await requirePaymentMethodsPage(request);
  return { businessName: branding.businessName, constraint: getZodConstraint(newCardSchema()) };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor, gateway } = await requirePaymentMethodsPage(request);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: newCardSchema() });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: SECRET_FIELDS }) }, { status: 400 });
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
      { result: submission.reply({ formErrors: [message], hideFields: SECRET_FIELDS }) },
      { status: result.refusal === "unavailable" ? 503 : 422 },
    );
  }
  return redirect("/payment-methods?notice=card-added");
}

export default function AddCard() {
  const { businessName, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT();
  const [form, fields] = useConstraintForm<
    "cardNumber" | "cardHolderName" | "expiryMonth" | "expiryYear" | "cvn" | "makeDefault" | "authority"
  >({
    id: "add-card",
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    constraint,
    messages: MESSAGES,
    secretFields: ["cardNumber", "cvn"],
  });
  const formError = form.errors?.[0];
  const fieldErrors = Object.values(form.allErrors).length > 0 && !formError;
  return (
    <>
      <h1>{t("pm.addCard.title")}</h1>
      <p>{t("pm.addCard.security")}</p>
      {formError ? (
        <FormMessage kind="error" id={form.errorId}>
          {formError === "pm.refusal.limit"
            ? t("pm.refusal.limit", { max: MAX_SAVED_PER_ACCOUNT })
            : t(formError as MessageKey)}
        </FormMessage>
      ) : fieldErrors && actionData ? (
        <FormMessage kind="error">{t("pm.error.form")}</FormMessage>
      ) : null}
      <Form method="post" {...getFormProps(form)} className={formStyles.form}>
        <ConformField
          meta={fields.cardNumber}
          label={t("pm.field.cardNumber")}
          hint={t("pm.field.cardNumber.hint")}
          inputMode="numeric"
          autoComplete="cc-number"
        />
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
          hint={t("pm.field.cvn.hint")}
          inputMode="numeric"
          autoComplete="cc-csc"
        />
        <ConformCheckbox meta={fields.makeDefault} label={t("pm.field.makeDefault")} />
        <ConformCheckbox meta={fields.authority} label={t("pm.field.cardConsent", { business: businessName })} />
        <div className={formStyles.actions}>
          <button type="submit" className={button} disabled={navigation.state === "submitting"}>
            {t("pm.addCard.submit")}
          </button>
          <Link to="/payment-methods">{t("pm.cancel")}</Link>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  return [{ title: data ? `${t("pm.addCard.title")} · ${data.businessName}` : t("errors.notFound.title") }];
};
