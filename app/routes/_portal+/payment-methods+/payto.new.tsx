import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConformCheckbox, ConformField, useConstraintForm, type ConstraintMessages } from "~/components/ConstraintForm";
import { formStyles } from "~/components/Form";
import * as payto from "./components/PayTo.css";
import { PaymentMethodForm } from "./components/PaymentMethodForm";
import { useT } from "~/components/useT";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { PAYID_TYPES } from "~/lib/payto-rules";
import {
  accountNotFound,
  hostnameFromRequest,
  requirePaymentMethodsPage,
  agreementFormSchema,
  createAgreement,
  payToConfigurationOf,
  payToLimitText,
  getEnv,
  readForm,
  requireSameOrigin,
  parseSubmission,
} from "./payment-methods.server";
import { metaDescription } from "~/lib/meta";

const MESSAGES: ConstraintMessages = {
  partyName: { required: "payto.error.partyName.required" },
  authority: { required: "payto.error.authority.required" },
  method: { required: "payto.error.method.invalid" },
};

type Fields =
  | "requestGuid"
  | "method"
  | "payIdType"
  | "payId"
  | "bsb"
  | "accountNumber"
  | "partyName"
  | "ultimatePartyName"
  | "authority";

/** PayTo is offered only where the business's configuration turns it on (AU); elsewhere this page does not exist. */
async function requirePayToPage(request: Request) {
  const context = await requirePaymentMethodsPage(request);
  const configuration = payToConfigurationOf(context.branding);
  if (!configuration.enabled) throw accountNotFound();
  return { ...context, configuration };
}

/**
 * Set up a PayTo agreement (issue 13): a PayID or a BSB and account number, the holder's
 * name, and the authority spelt out (who may debit, up to what per payment, ad hoc). Each
 * render carries a fresh requestGuid, so submitting the same form twice creates one agreement.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, configuration, returnTo } = await requirePayToPage(request);
  return {
    businessName: branding.businessName,
    // Cancel goes back where the contact came from (a schedule's page, the pay page), if it asked.
    cancelHref: returnTo ?? "/payment-methods",
    max: payToLimitText(configuration, branding.currency),
    requestGuid: randomUUID(),
    constraint: getZodConstraint(agreementFormSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor, returnTo } = await requirePayToPage(request);
  const form = await readForm(request);
  const submission = parseSubmission(form, { schema: agreementFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const hostname = hostnameFromRequest(request, { trustProxy: getEnv().TRUST_PROXY }) ?? new URL(request.url).hostname;
  const outcome = await createAgreement(actor, submission.value, { hostname });
  if (!outcome.ok) {
    if (outcome.reason === "disabled") throw accountNotFound();
    const conflict: MessageKey = "payto.error.conflict";
    return data({ result: submission.reply({ formErrors: [conflict] }) }, { status: 409 });
  }
  // Set up from a payment schedule's page or the pay page (`?returnTo=`, checked, kept in the form's
  // own action URL): the agreement's page offers the way back once the payer's bank has approved it.
  const query = returnTo ? `?${new URLSearchParams({ returnTo })}` : "";
  return redirect(`/payment-methods/payto/${outcome.agreement.id}${query}`);
}

export default function NewPayToAgreement() {
  const { businessName, max, requestGuid, constraint, cancelHref } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const [form, fields] = useConstraintForm<Fields>({
    id: "new-payto-agreement",
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    constraint,
    messages: MESSAGES,
    defaultValue: { method: "payid", payIdType: "EMAL" },
  });
  const method = fields.method.initialValue === "bban" ? "bban" : "payid";
  const payIdType = fields.payIdType.initialValue ?? "EMAL";
  const methodError = fields.method.errors?.[0];
  const typeError = fields.payIdType.errors?.[0];
  return (
    <PaymentMethodForm
      form={form}
      answered={Boolean(actionData)}
      title={t("payto.new.title")}
      intro={<p>{t("payto.new.intro")}</p>}
      submitLabel={t("payto.new.submit")}
      cancelHref={cancelHref}
    >
      <input type="hidden" name="requestGuid" value={requestGuid} />
      <fieldset className={formStyles.fieldset} aria-describedby={methodError ? "payto-method-error" : undefined}>
        <legend className={formStyles.legend}>{t("payto.field.method")}</legend>
        {(["payid", "bban"] as const).map((value) => (
          <div key={value} className={formStyles.checkboxField}>
            <input
              type="radio"
              id={`payto-method-${value}`}
              name="method"
              value={value}
              defaultChecked={method === value}
              className={formStyles.checkbox}
            />
            <label htmlFor={`payto-method-${value}`}>{t(`payto.field.method.${value}`)}</label>
          </div>
        ))}
        {methodError ? (
          <p id="payto-method-error" className={formStyles.error}>
            {t(methodError as MessageKey)}
          </p>
        ) : null}
      </fieldset>

      <div className={`${formStyles.form} ${payto.payIdGroup}`}>
        <div className={formStyles.field}>
          <label className={formStyles.label} htmlFor="payto-payid-type">
            {t("payto.field.payIdType")}
          </label>
          <select
            id="payto-payid-type"
            name="payIdType"
            defaultValue={payIdType}
            className={formStyles.input}
            aria-invalid={typeError ? true : undefined}
            aria-describedby={typeError ? "payto-payid-type-error" : undefined}
          >
            {PAYID_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`payto.payIdType.${type}`)}
              </option>
            ))}
          </select>
          {typeError ? (
            <p id="payto-payid-type-error" className={formStyles.error}>
              {t(typeError as MessageKey)}
            </p>
          ) : null}
        </div>
        <ConformField
          meta={fields.payId}
          label={t("payto.field.payId")}
          hint={t("payto.field.payId.hint")}
          autoComplete="off"
        />
      </div>

      <div className={`${formStyles.form} ${payto.bbanGroup}`}>
        <ConformField
          meta={fields.bsb}
          label={t("payto.field.bsb")}
          hint={t("payto.field.bsb.hint")}
          inputMode="numeric"
          autoComplete="off"
        />
        <ConformField
          meta={fields.accountNumber}
          label={t("payto.field.accountNumber")}
          hint={t("payto.field.accountNumber.hint")}
          inputMode="numeric"
          autoComplete="off"
        />
      </div>

      <ConformField
        meta={fields.partyName}
        label={t("payto.field.partyName")}
        hint={t("payto.field.partyName.hint")}
        autoComplete="name"
      />
      <ConformField meta={fields.ultimatePartyName} label={t("payto.field.ultimatePartyName")} autoComplete="off" />

      <h2>{t("payto.authority.title")}</h2>
      <p className={payto.authority}>{t("payto.authority.text", { business: businessName, max })}</p>
      <ConformCheckbox meta={fields.authority} label={t("payto.field.authority", { business: businessName })} />
    </PaymentMethodForm>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("payto.new.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.paytoNew", data.businessName),
  ];
};
