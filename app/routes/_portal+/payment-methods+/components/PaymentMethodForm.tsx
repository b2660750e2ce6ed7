import { getFormProps, type FormMetadata } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { MessageKey } from "~/lib/i18n";
import { button } from "~/components/Button.css";
import { FormMessage, formStyles } from "~/components/Form";
import { useT } from "~/components/useT";

/**
 * The frame of the add-card, update-card and add-bank-account pages: the heading and
 * introduction, the form's own problem (a refusal, the account's limit) or a summary when
 * fields are marked, the fields, then Save and Cancel. A plain POST form, so it works
 * without JavaScript.
 */
export function PaymentMethodForm<Names extends string>({
  form,
  answered,
  title,
  intro,
  submitLabel,
  maxSaved,
  cancelHref = "/payment-methods",
  children,
}: {
  form: FormMetadata<Record<Names, string | undefined>, string[]>;
  /** The server has answered this form (it only answers when something is wrong). */
  answered: boolean;
  title: string;
  intro?: ReactNode;
  submitLabel: string;
  /** How many cards or bank accounts an account may keep, for the limit's message. */
  maxSaved?: number;
  /** Where Cancel leads: the page that sent the contact here, when it asked to be returned to. */
  cancelHref?: string;
  children: ReactNode;
}) {
  const t = useT();
  const navigation = useNavigation();
  const formError = form.errors?.[0];
  const fieldErrors = Object.keys(form.allErrors).length > 0;
  return (
    <>
      <h1>{title}</h1>
      {intro}
      {formError ? (
        <FormMessage kind="error" id={form.errorId}>
          {t(formError as MessageKey, { max: maxSaved ?? "" })}
        </FormMessage>
      ) : answered && fieldErrors ? (
        <FormMessage kind="error">{t("pm.error.form")}</FormMessage>
      ) : null}
      <Form method="post" {...getFormProps(form)} className={formStyles.form}>
        {children}
        <div className={formStyles.actions}>
          <button type="submit" className={button} disabled={navigation.state === "submitting"}>
            {submitLabel}
          </button>
          <Link to={cancelHref}>{t("pm.cancel")}</Link>
        </div>
      </Form>
    </>
  );
}
