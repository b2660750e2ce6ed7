import { useT } from "~/components/useT";
import * as styles from "../Credit.css";
import { TextField, type StepMessages } from "../CreditForm";
import { field, type StepBodyProps, text } from "./shared";

/** The credit step's fields: the limit asked for and the expected monthly purchases. */
export const CREDIT_MESSAGES: StepMessages = {
  limit: text("credit.error.limit.required", "credit.error.money.format"),
  monthly: text("credit.error.monthly.required", "credit.error.money.format"),
};

export function CreditFields({ fields, currency }: StepBodyProps) {
  const t = useT();
  return (
    <>
      <TextField
        meta={field(fields, "limit")}
        label={t("credit.field.limit")}
        hint={t("credit.field.limit.hint", { currency })}
        inputMode="decimal"
        autoComplete="off"
        className={styles.short}
      />
      <TextField
        meta={field(fields, "monthly")}
        label={t("credit.field.monthly")}
        hint={t("credit.field.monthly.hint", { currency })}
        inputMode="decimal"
        autoComplete="off"
        className={styles.short}
      />
    </>
  );
}
