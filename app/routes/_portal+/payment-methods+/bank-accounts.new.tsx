import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConformCheckbox, ConformField, useConstraintForm, type ConstraintMessages } from "~/components/ConstraintForm";
import { FieldGroup } from "./components/FieldGroup";
import { PaymentMethodForm } from "./components/PaymentMethodForm";
import { useT } from "~/components/useT";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { auBankAccountSchema, nzBankAccountSchema } from "~/lib/payment-method-schemas";
import { MAX_SAVED_PER_ACCOUNT } from "~/lib/payment-method-types";
import {
  readForm,
  newAuthorityReference,
  saveBankAccount,
  requirePaymentMethodsPage,
  requireSameOrigin,
  parseSubmission,
} from "./payment-methods.server";
import { metaDescription } from "~/lib/meta";

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
    maxSaved: MAX_SAVED_PER_ACCOUNT,
    constraint: getZodConstraint(schemaFor(branding.country)),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, actor } = await requirePaymentMethodsPage(request);
  const form = await readForm(request);
  const submission = parseSubmission(form, { schema: schemaFor(branding.country) });
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
  const { businessName, country, maxSaved, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const [form, fields] = useConstraintForm<BankFields>({
    id: "add-bank-account",
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    constraint,
    messages: MESSAGES[country],
  });
  return (
    <PaymentMethodForm
      form={form}
      answered={Boolean(actionData)}
      title={t("pm.addBank.title")}
      submitLabel={t("pm.addBank.submit")}
      maxSaved={maxSaved}
    >
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
        <FieldGroup legend={t("pm.field.nzNumber")} hint={t("pm.field.nzNumber.hint")}>
          <ConformField meta={fields.bank} label={t("pm.field.nzBank")} inputMode="numeric" autoComplete="off" />
          <ConformField meta={fields.branch} label={t("pm.field.nzBranch")} inputMode="numeric" autoComplete="off" />
          <ConformField meta={fields.account} label={t("pm.field.nzAccount")} inputMode="numeric" autoComplete="off" />
          <ConformField meta={fields.suffix} label={t("pm.field.nzSuffix")} inputMode="numeric" autoComplete="off" />
        </FieldGroup>
      )}
      <ConformField meta={fields.description} label={t("pm.field.description")} hint={t("pm.field.description.hint")} />
      <ConformCheckbox meta={fields.authority} label={t("pm.field.bankConsent", { business: businessName })} />
    </PaymentMethodForm>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("pm.addBank.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.addBank", data.businessName),
  ];
};
