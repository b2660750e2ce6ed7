import { ENTITY_TYPES } from "~/lib/credit-steps";
import { useT } from "~/components/useT";
import * as styles from "../Credit.css";
import { RadioField, TextField, type StepMessages } from "../CreditForm";
import { field, type StepBodyProps, text, TOO_LONG_200 } from "./shared";

/** The business step's fields: legal and trading name, kind of business, and its ABN and ACN (Australia) or NZBN (New Zealand). */
export const BUSINESS_MESSAGES: StepMessages = {
  legalName: text("credit.error.legalName.required"),
  tradingName: { invalid: TOO_LONG_200 },
  entityType: { required: "credit.error.entityType.required", invalid: "credit.error.entityType.required" },
};

export function BusinessFields({ fields, country }: StepBodyProps) {
  const t = useT();
  return (
    <>
      <TextField
        meta={field(fields, "legalName")}
        label={t("credit.field.legalName")}
        hint={t("credit.field.legalName.hint")}
        autoComplete="organization"
      />
      <TextField
        meta={field(fields, "tradingName")}
        label={t("credit.field.tradingName")}
        hint={t("credit.field.tradingName.hint")}
        autoComplete="off"
      />
      <RadioField
        meta={field(fields, "entityType")}
        legend={t("credit.field.entityType")}
        options={ENTITY_TYPES.map((value) => ({ value, label: t(`credit.entity.${value}`) }))}
      />
      {country === "AU" ? (
        <>
          <TextField
            meta={field(fields, "abn")}
            label={t("credit.field.abn")}
            hint={t("credit.field.abn.hint")}
            inputMode="numeric"
            autoComplete="off"
            className={styles.short}
          />
          <TextField
            meta={field(fields, "acn")}
            label={t("credit.field.acn")}
            hint={t("credit.field.acn.hint")}
            inputMode="numeric"
            autoComplete="off"
            className={styles.short}
          />
        </>
      ) : (
        <TextField
          meta={field(fields, "nzbn")}
          label={t("credit.field.nzbn")}
          hint={t("credit.field.nzbn.hint")}
          inputMode="numeric"
          autoComplete="off"
          className={styles.short}
        />
      )}
    </>
  );
}
