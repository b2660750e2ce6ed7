import * as formStyles from "~/components/Form.css";
import { useT } from "~/components/useT";
import * as styles from "../Credit.css";
import { RadioField, TextField, type StepMessages } from "../CreditForm";
import { field, Group, type StepBodyProps } from "./shared";

/** The direct debit step's fields: yes or no, and the account (BSB and number, or New Zealand's four parts) shown once yes is chosen. */
export const BANK_MESSAGES: StepMessages = {
  directDebit: { required: "credit.error.directDebit.required", invalid: "credit.error.directDebit.required" },
};

export function BankFields({ fields, country, businessName }: StepBodyProps) {
  const t = useT();
  return (
    <>
      <RadioField
        meta={field(fields, "directDebit")}
        legend={t("credit.field.directDebit")}
        options={[
          { value: "yes", label: t("credit.directDebit.yes") },
          { value: "no", label: t("credit.directDebit.no") },
        ]}
      />
      <Group
        legend={t("credit.bank.account")}
        className={styles.bankFields}
        hint={t("credit.bank.after", { business: businessName })}
      >
        <TextField
          meta={field(fields, "accountName")}
          label={t("pm.field.accountName")}
          hint={t("pm.field.accountName.hint")}
          autoComplete="off"
        />
        {country === "AU" ? (
          <>
            <TextField
              meta={field(fields, "bsb")}
              label={t("pm.field.bsb")}
              hint={t("pm.field.bsb.hint")}
              inputMode="numeric"
              autoComplete="off"
              className={styles.short}
            />
            <TextField
              meta={field(fields, "accountNumber")}
              label={t("pm.field.auAccountNumber")}
              hint={t("pm.field.auAccountNumber.hint")}
              inputMode="numeric"
              autoComplete="off"
              className={styles.short}
            />
          </>
        ) : (
          <>
            <p className={formStyles.hint}>{t("pm.field.nzNumber.hint")}</p>
            <TextField
              meta={field(fields, "bank")}
              label={t("pm.field.nzBank")}
              inputMode="numeric"
              autoComplete="off"
              className={styles.short}
            />
            <TextField
              meta={field(fields, "branch")}
              label={t("pm.field.nzBranch")}
              inputMode="numeric"
              autoComplete="off"
              className={styles.short}
            />
            <TextField
              meta={field(fields, "account")}
              label={t("pm.field.nzAccount")}
              inputMode="numeric"
              autoComplete="off"
              className={styles.short}
            />
            <TextField
              meta={field(fields, "suffix")}
              label={t("pm.field.nzSuffix")}
              inputMode="numeric"
              autoComplete="off"
              className={styles.short}
            />
          </>
        )}
      </Group>
    </>
  );
}
