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
import { auBankAccountSchema, nzBankAccountSchema } from "~/lib/payment-method-schemas";
import { MAX_SAVED_PER_ACCOUNT } from "~/lib/payment-method-types";
import { readForm } from "~/services/platform/http.server";
import { newAuthorityReference, saveBankAccount } from "~/services/payment-methods/payment-methods.server";
import { requirePaymentMethodsPage } from "~/services/payment-methods/payment-methods-page.server";
import { requireSameOrigin } from "~/services/platform/request-context.server";

const COMMON: ConstraintMessages = {
  accountName: { required: "pm.error.accountName.required", invalid: "pm.error.accountName.characters" },
  description: { invalid: "pm.error.description.characters" },
  authority: { required: "pm.error.consent.required" },
};

const MESSAGES: Record<"AU" | "NZ", ConstraintMessages> = {
  AU: {
    ...COMMON,
    bsb: { required: "pm.error.bsb.required", invalid: "pm.error.bsb.invalid" },
    accountNumber: { required: "pm.error.auAccountNumber.required", invalid: "pm.error.auAccountNumber.invalid" },
  },
  NZ: {
    ...COMMON,
    bank: { required: "pm.error.nzBank.required", invalid: "pm.error.nzBank.invalid" },
    branch: { required: "pm.error.nzBranch.required", invalid: "pm.error.nzBranch.invalid" },
    account: { required: "pm.error.nzAccount.required", invalid: "pm.error.nzAccount.invalid" },
    suffix: { required: "pm.error.nzSuffix.required", invalid: "pm.error.nzSuffix.invalid" },
  },
};

const schemaFor = (country: "AU" | "NZ") => (country === "NZ" ? nzBankAccountSchema : auBankAccountSchema);

/**
 * Add a bank account to the selected account. The form follows the business's country
 * (spec §3): a BSB and account number in Australia; bank, branch, account and suffix in
 * New Zealand, checked with the NZ check-digit rules.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await requirePaymentMethodsPage(request);
  return {
    businessName: branding.businessName,
    country: branding.country,
    constraint: getZodConstraint(schemaFor(branding.country)),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, actor } = await requirePaymentMethodsPage(request);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: schemaFor(branding.country) });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const result = await saveBankAccount(actor, { ...submission.value, authorityReference: newAuthorityReference() });
  if (!result.ok) {
    const limit: MessageKey = "pm.refusal.limit";
    return data({ result: submission.reply({ formErrors: [limit] }) }, { status: 422 });
  }
  return redirect("/payment-methods?notice=bank-added");
}

type BankFields =
  "accountName" | "bsb" | "accountNumber" | "bank" | "branch" | "account" | "suffix" | "description" | "authority";

export default function AddBankAccount() {
  const { businessName, country, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT();
  const [form, fields] = useConstraintForm<BankFields>({
    id: "add-bank-account",
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    constraint,
    messages: MESSAGES[country],
  });
  const formError = form.errors?.[0];
  return (
    <>
      <h1>{t("pm.addBank.title")}</h1>
      {formError ? (
        <FormMessage kind="error" id={form.errorId}>
          {t("pm.refusal.limit", { max: MAX_SAVED_PER_ACCOUNT })}
        </FormMessage>
      ) : actionData ? (
        <FormMessage kind="error">{t("pm.error.form")}</FormMessage>
      ) : null}
      <Form method="post" {...getFormProps(form)} className={formStyles.form}>
        <ConformField
          meta={fields.accountName}
          label={t("pm.field.accountName")}
          hint={t("pm.field.accountName.hint")}
          autoComplete="off"
        />
        {country === "AU" ? (
          <>
            <ConformField
              meta={fields.bsb}
              label={t("pm.field.bsb")}
              hint={t("pm.field.bsb.hint")}
              inputMode="numeric"
              autoComplete="off"
            />
            <ConformField
              meta={fields.accountNumber}
              label={t("pm.field.auAccountNumber")}
              hint={t("pm.field.auAccountNumber.hint")}
              inputMode="numeric"
              autoComplete="off"
            />
          </>
        ) : (
          <fieldset className={formStyles.fieldset}>
            <legend className={formStyles.legend}>{t("pm.field.nzNumber")}</legend>
            <p className={formStyles.hint}>{t("pm.field.nzNumber.hint")}</p>
            <div className={formStyles.row}>
              <div className={formStyles.narrow}>
                <ConformField meta={fields.bank} label={t("pm.field.nzBank")} inputMode="numeric" autoComplete="off" />
              </div>
              <div className={formStyles.narrow}>
                <ConformField
                  meta={fields.branch}
                  label={t("pm.field.nzBranch")}
                  inputMode="numeric"
                  autoComplete="off"
                />
              </div>
              <div className={formStyles.narrow}>
                <ConformField
                  meta={fields.account}
                  label={t("pm.field.nzAccount")}
                  inputMode="numeric"
                  autoComplete="off"
                />
              </div>
              <div className={formStyles.narrow}>
                <ConformField
                  meta={fields.suffix}
                  label={t("pm.field.nzSuffix")}
                  inputMode="numeric"
                  autoComplete="off"
                />
              </div>
            </div>
          </fieldset>
        )}
        <ConformField
          meta={fields.description}
          label={t("pm.field.description")}
          hint={t("pm.field.description.hint")}
        />
        <ConformCheckbox meta={fields.authority} label={t("pm.field.bankConsent", { business: businessName })} />
        <div className={formStyles.actions}>
          <button type="submit" className={button} disabled={navigation.state === "submitting"}>
            {t("pm.addBank.submit")}
          </button>
          <Link to="/payment-methods">{t("pm.cancel")}</Link>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  return [{ title: data ? `${t("pm.addBank.title")} · ${data.businessName}` : t("errors.notFound.title") }];
};
