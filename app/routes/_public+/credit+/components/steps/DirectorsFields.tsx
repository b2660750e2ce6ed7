import { DIRECTOR_ROLES, MAX_DIRECTORS, MIN_DIRECTORS } from "~/lib/credit-steps";
import { useT } from "~/components/useT";
import { SelectField, TextField, type StepMessages } from "../CreditForm";
import { list, ListFields, type StepBodyProps, text } from "./shared";

/** The directors step's fields: one to six people, each a name and a role. */
export const DIRECTORS_MESSAGES: StepMessages = {
  "people[].name": text("credit.error.personName.required"),
  "people[].role": { required: "credit.error.personRole.required", invalid: "credit.error.personRole.required" },
};

export function DirectorsFields({ form, fields }: StepBodyProps) {
  const t = useT();
  return (
    <ListFields
      form={form}
      meta={list(fields, "people")}
      min={MIN_DIRECTORS}
      max={MAX_DIRECTORS}
      legend={(n) => t("credit.directors.person", { n })}
      removeLabel={(n) => t("credit.directors.remove", { n })}
      addLabel={t("credit.directors.add")}
      render={(person) => (
        <>
          <TextField meta={person.name!} label={t("credit.field.personName")} autoComplete="off" />
          <SelectField
            meta={person.role!}
            label={t("credit.field.personRole")}
            options={DIRECTOR_ROLES.map((value) => ({ value, label: t(`credit.role.${value}`) }))}
          />
        </>
      )}
    />
  );
}
