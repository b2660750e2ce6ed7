import type { FieldMetadata } from "@conform-to/react";
import type { MessageKey } from "~/lib/i18n";
import { ConformField, type ConstraintMessages } from "~/components/ConstraintForm";
import { FieldGroup } from "./FieldGroup";
import { useT } from "~/components/useT";

type Meta = FieldMetadata<string | undefined>;

/** The card fields' messages (useConstraintForm): missing, and malformed. */
export const CARD_FIELD_MESSAGES: ConstraintMessages = {
  cardNumber: { required: "pm.error.cardNumber.required", invalid: "pm.error.cardNumber.invalid" },
  cardHolderName: { required: "pm.error.holder.required", invalid: "pm.error.holder.characters" },
  expiryMonth: { required: "pm.error.expiryMonth.required", invalid: "pm.error.expiryMonth.invalid" },
  expiryYear: { required: "pm.error.expiryYear.required", invalid: "pm.error.expiryYear.invalid" },
  cvn: { required: "pm.error.cvn.required", invalid: "pm.error.cvn.invalid" },
};

/** Card number and CVN: never sent back to the browser after a failed POST (PCI DSS 3.3.1). */
export const CARD_SECRET_FIELDS = ["cardNumber", "cvn"] as const;

/**
 * A card's details in the order they are printed on it: the number (a new card only), the
 * name, the expiry and the security code, with the autocomplete names browsers and password
 * managers fill from.
 */
export function CardFields({
  fields,
  cvnHint,
}: {
  fields: { cardNumber?: Meta; cardHolderName: Meta; expiryMonth: Meta; expiryYear: Meta; cvn: Meta };
  cvnHint: MessageKey;
}) {
  const t = useT();
  return (
    <>
      {fields.cardNumber ? (
        <ConformField
          meta={fields.cardNumber}
          label={t("pm.field.cardNumber")}
          hint={t("pm.field.cardNumber.hint")}
          inputMode="numeric"
          autoComplete="cc-number"
        />
      ) : null}
      <ConformField meta={fields.cardHolderName} label={t("pm.field.holder")} autoComplete="cc-name" />
      <ExpiryFields month={fields.expiryMonth} year={fields.expiryYear} />
      <ConformField
        meta={fields.cvn}
        label={t("pm.field.cvn")}
        hint={t(cvnHint)}
        inputMode="numeric"
        autoComplete="cc-csc"
      />
    </>
  );
}

/** "Expiry date": month and year, two labelled inputs side by side that fit at 360 px. */
export function ExpiryFields({ month, year }: { month: Meta; year: Meta }) {
  const t = useT();
  return (
    <FieldGroup legend={t("pm.field.expiry")}>
      <ConformField meta={month} label={t("pm.field.expiryMonth")} inputMode="numeric" autoComplete="cc-exp-month" />
      <ConformField meta={year} label={t("pm.field.expiryYear")} inputMode="numeric" autoComplete="cc-exp-year" />
    </FieldGroup>
  );
}
