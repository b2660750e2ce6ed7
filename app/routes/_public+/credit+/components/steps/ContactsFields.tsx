import { useT } from "~/components/useT";
import * as styles from "../Credit.css";
import { CheckField, TextField, type StepMessages } from "../CreditForm";
import { field, Group, type StepBodyProps, text, TOO_LONG_100 } from "./shared";

/** The contacts step's fields: the applicant, and the accounts payable contact unless it is the applicant (hidden by CSS while ticked). */
export const CONTACTS_MESSAGES: StepMessages = {
  applicantName: text("credit.error.applicantName.required"),
  applicantPosition: text("credit.error.applicantPosition.required", TOO_LONG_100),
  applicantEmail: text("credit.error.applicantEmail.required", "credit.error.email.tooLong"),
  applicantPhone: text("credit.error.applicantPhone.required", "credit.error.phone.invalid"),
};

export function ContactsFields({ fields }: StepBodyProps) {
  const t = useT();
  return (
    <>
      <Group legend={t("credit.contacts.you")} hint={t("credit.contacts.you.hint")}>
        <TextField meta={field(fields, "applicantName")} label={t("credit.field.applicantName")} autoComplete="name" />
        <TextField
          meta={field(fields, "applicantPosition")}
          label={t("credit.field.applicantPosition")}
          hint={t("credit.field.applicantPosition.hint")}
          autoComplete="organization-title"
        />
        <TextField
          meta={field(fields, "applicantEmail")}
          label={t("credit.field.applicantEmail")}
          type="email"
          autoComplete="email"
          spellCheck={false}
        />
        <TextField
          meta={field(fields, "applicantPhone")}
          label={t("credit.field.applicantPhone")}
          type="tel"
          autoComplete="tel"
        />
      </Group>
      <CheckField meta={field(fields, "apIsApplicant")} label={t("credit.field.apIsApplicant")} />
      <Group legend={t("credit.contacts.ap")} className={styles.apFields} hint={t("credit.contacts.ap.hint")}>
        <TextField meta={field(fields, "apName")} label={t("credit.field.apName")} autoComplete="off" />
        <TextField
          meta={field(fields, "apEmail")}
          label={t("credit.field.apEmail")}
          type="email"
          autoComplete="off"
          spellCheck={false}
        />
        <TextField meta={field(fields, "apPhone")} label={t("credit.field.apPhone")} type="tel" autoComplete="off" />
      </Group>
    </>
  );
}
