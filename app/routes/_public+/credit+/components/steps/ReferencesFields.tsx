import { MAX_REFERENCES, MIN_REFERENCES } from "~/lib/credit-steps";
import { useT } from "~/components/useT";
import { TextField, type StepMessages } from "../CreditForm";
import { list, ListFields, type StepBodyProps, text } from "./shared";

/** The trade references step's fields: two or three referees. */
export const REFERENCES_MESSAGES: StepMessages = {
  "referees[].business": text("credit.error.refereeBusiness.required"),
  "referees[].contactName": text("credit.error.refereeContact.required"),
  "referees[].email": text("credit.error.refereeEmail.required", "credit.error.email.tooLong"),
  "referees[].phone": text("credit.error.refereePhone.required", "credit.error.phone.invalid"),
};

export function ReferencesFields({ form, fields }: StepBodyProps) {
  const t = useT();
  return (
    <ListFields
      form={form}
      meta={list(fields, "referees")}
      min={MIN_REFERENCES}
      max={MAX_REFERENCES}
      legend={(n) => t("credit.references.referee", { n })}
      removeLabel={(n) => t("credit.references.remove", { n })}
      addLabel={t("credit.references.add")}
      render={(referee) => (
        <>
          <TextField meta={referee.business!} label={t("credit.field.refereeBusiness")} autoComplete="off" />
          <TextField meta={referee.contactName!} label={t("credit.field.refereeContact")} autoComplete="off" />
          <TextField
            meta={referee.email!}
            label={t("credit.field.refereeEmail")}
            type="email"
            autoComplete="off"
            spellCheck={false}
          />
          <TextField meta={referee.phone!} label={t("credit.field.refereePhone")} type="tel" autoComplete="off" />
        </>
      )}
    />
  );
}
