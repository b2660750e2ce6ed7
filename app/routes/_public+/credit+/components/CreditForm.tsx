import {
  getFormProps,
  parse,
  useForm,
  type FieldMetadata,
  type FormMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { HONEYPOT_FIELD } from "~/lib/credit-steps";
import type { MessageKey } from "~/lib/i18n";
import * as buttons from "~/components/Button.css";
import * as formStyles from "~/components/Form.css";
import { useT } from "~/components/useT";
import * as styles from "./Credit.css";
import { Honeypot } from "./CreditPage";

/**
 * The form of a credit application step with plain fields (decision 038): conform's form state,
 * the step's form (fields, honeypot, button) and the fields bound to conform. The page's other
 * parts are in CreditPage.tsx.
 *
 * conform runs without zod in the browser (STACK.md): the server sends the HTML constraints it
 * derives from the step's zod schema, the browser's own constraint validation checks them at
 * submit and then as the user types, and our messages (per field, by name, with list indexes
 * folded: `people[].name`) are shown at each field and in the summary. Without JavaScript the
 * form posts as it is and the server answers with the same messages. The server always
 * validates again with zod.
 */
export type StepMessages = Record<string, { required?: MessageKey; invalid?: MessageKey }>;

/** A field's id from its name (`referees[1].email` → `credit-referees-1-email`): the summary links to it. */
export const fieldId = (name: string) => `credit-${name.replace(/[^A-Za-z0-9]+/g, "-").replace(/-$/, "")}`;

const folded = (name: string) => name.replace(/\[\d+\]/g, "[]");

export function useCreditForm({
  id,
  lastResult,
  constraint,
  messages,
  defaultValue,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  constraint: Record<string, Record<string, unknown>>;
  messages: StepMessages;
  defaultValue: Record<string, unknown>;
}) {
  return useForm<Record<string, unknown>>({
    id,
    lastResult: lastResult ?? undefined,
    constraint,
    // conform's DefaultValue type is a deep-partial of the schema; the loader's values are that.
    defaultValue: defaultValue as never,
    // As the portal's other forms (ConstraintForm.tsx): errors at the first submit, then as the user types.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate({ form, formData }) {
      return parse<Record<string, unknown>, string[]>(formData, {
        resolve() {
          const error: Record<string, string[]> = {};
          for (const element of Array.from(form.elements)) {
            if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement)) continue;
            if (!element.name || element.validity.valid || element.name === HONEYPOT_FIELD) continue;
            const rule = messages[folded(element.name)];
            const key = element.validity.valueMissing ? rule?.required : rule?.invalid;
            error[element.name] = [key ?? rule?.invalid ?? rule?.required ?? element.validationMessage];
          }
          return Object.keys(error).length > 0 ? { error } : { value: Object.fromEntries(formData) };
        },
      });
    },
  });
}

/** The errors of the form, in order, as the summary lists them: the field's id and its message. */
export function errorsOf(form: FormMetadata<Record<string, unknown>, string[]>): [string, MessageKey][] {
  return Object.entries(form.allErrors)
    .filter(([, messages]) => messages.length > 0)
    .map(([name, messages]) => [fieldId(name), messages[0] as MessageKey]);
}

/** A step's form: the fields, the honeypot, where to go back to, and the one button. */
export function StepForm({
  form,
  change,
  children,
  encType,
}: {
  form: FormMetadata<Record<string, unknown>, string[]>;
  change: boolean;
  children: ReactNode;
  encType?: "multipart/form-data";
}) {
  const t = useT();
  const navigation = useNavigation();
  return (
    <Form method="post" {...getFormProps(form)} encType={encType} className={styles.form}>
      {children}
      {change ? <input type="hidden" name="returnTo" value="check" /> : null}
      <Honeypot />
      <div className={formStyles.actions}>
        <button type="submit" className={buttons.button} disabled={navigation.state === "submitting"}>
          {t(change ? "credit.saveAndReturn" : "credit.continue")}
        </button>
      </div>
    </Form>
  );
}

type Field = FieldMetadata<unknown, Record<string, unknown>, string[]>;

function described(id: string, hint: ReactNode, error: string | null) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

function Hint({ id, hint }: { id: string; hint: ReactNode }) {
  return hint ? (
    <p id={`${id}-hint`} className={formStyles.hint}>
      {hint}
    </p>
  ) : null;
}

function FieldError({ id, error }: { id: string; error: string | null }) {
  return error ? (
    <p id={`${id}-error`} className={formStyles.error}>
      {error}
    </p>
  ) : null;
}

function useFieldError(meta: Field, params?: Record<string, string | number>) {
  const t = useT();
  const message = meta.errors?.[0];
  return message ? t(message as MessageKey, params) : null;
}

/** A text input bound to a conform field, with its label, hint and error tied to it. */
export function TextField({
  meta,
  label,
  hint,
  errorParams,
  className,
  ...input
}: {
  meta: Field;
  label: string;
  hint?: ReactNode;
  errorParams?: Record<string, string | number>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id" | "defaultValue">) {
  const id = fieldId(meta.name);
  const error = useFieldError(meta, errorParams);
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {label}
      </label>
      <Hint id={id} hint={hint} />
      <input
        key={meta.key}
        id={id}
        name={meta.name}
        type="text"
        defaultValue={meta.defaultValue ?? ""}
        required={meta.required}
        maxLength={meta.maxLength}
        className={[formStyles.input, className].filter(Boolean).join(" ")}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, hint, error)}
        {...input}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A select with a "Choose…" first option, bound to a conform field. */
export function SelectField({
  meta,
  label,
  hint,
  options,
  autoComplete,
}: {
  meta: Field;
  label: string;
  hint?: ReactNode;
  options: { value: string; label: string }[];
  autoComplete?: string;
}) {
  const t = useT();
  const id = fieldId(meta.name);
  const error = useFieldError(meta);
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {label}
      </label>
      <Hint id={id} hint={hint} />
      <select
        key={meta.key}
        id={id}
        name={meta.name}
        defaultValue={meta.defaultValue ?? ""}
        required={meta.required}
        autoComplete={autoComplete}
        className={styles.select}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, hint, error)}
      >
        <option value="">{t("credit.choose")}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

/** Radios in a fieldset: the legend is the question; the error is tied to each radio. */
export function RadioField({
  meta,
  legend,
  hint,
  options,
}: {
  meta: Field;
  legend: string;
  hint?: ReactNode;
  options: { value: string; label: string }[];
}) {
  const id = fieldId(meta.name);
  const error = useFieldError(meta);
  return (
    <fieldset className={formStyles.fieldset} aria-describedby={described(id, hint, error)}>
      <legend className={formStyles.legend}>{legend}</legend>
      <Hint id={id} hint={hint} />
      <FieldError id={id} error={error} />
      <div className={styles.radios}>
        {options.map((option, index) => (
          <div key={option.value} className={styles.radio}>
            <input
              // The summary links to the first radio.
              id={index === 0 ? id : `${id}-${option.value}`}
              type="radio"
              name={meta.name}
              value={option.value}
              defaultChecked={meta.defaultValue === option.value}
              required={meta.required}
              className={styles.radioInput}
            />
            <label htmlFor={index === 0 ? id : `${id}-${option.value}`}>{option.label}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** A checkbox bound to a conform field. */
export function CheckField({ meta, label }: { meta: Field; label: string }) {
  const id = fieldId(meta.name);
  const error = useFieldError(meta);
  return (
    <div className={formStyles.checkboxField}>
      <input
        id={id}
        type="checkbox"
        name={meta.name}
        defaultChecked={meta.defaultChecked ?? meta.defaultValue === "on"}
        className={formStyles.checkbox}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {error ? (
        <p id={`${id}-error`} className={formStyles.checkboxError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
