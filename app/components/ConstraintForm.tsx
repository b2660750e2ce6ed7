import { getInputProps, parse, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode } from "react";
import type { MessageKey } from "~/lib/i18n";
import { Field } from "./Form";
import * as styles from "./Form.css";
import { useT } from "./useT";

/** For each field: the message key shown when it is missing, and when it is malformed. */
export type ConstraintMessages = Record<string, { required?: MessageKey; invalid?: MessageKey }>;

/**
 * conform without zod in the browser (STACK.md): the server derives HTML constraints from
 * the form's zod schema (`getZodConstraint`) and sends them with the page; here the
 * browser's own constraint validation checks them at submit and then as the user types, and conform shows
 * our messages beside each field. Without JavaScript the same form posts as it is and the
 * server answers with the same messages. The server always validates again with zod.
 */
export function useConstraintForm<Names extends string>({
  id,
  lastResult,
  constraint,
  messages,
  defaultValue,
  secretFields = [],
}: {
  id: string;
  /** Emptied in the browser after every answer from the server (card number, CVN). */
  secretFields?: Names[];
  defaultValue?: Partial<Record<Names, string>>;
  lastResult: SubmissionResult<string[]> | null | undefined;
  constraint: Record<string, Record<string, unknown>>;
  messages: ConstraintMessages;
}) {
  // The answer the form was first rendered with (a document's, server-rendered with these fields
  // empty): what they hold when the form hydrates was typed since, on a slow phone before its script
  // had run (decision 087), and stays.
  const rendered = useRef(lastResult);
  useEffect(() => {
    if (!lastResult || lastResult === rendered.current) return;
    rendered.current = null;
    const form = document.forms.namedItem(id);
    for (const name of secretFields) {
      const input = form?.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
    // Only a new answer from the server clears them, never a re-render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lastResult]);
  return useForm<Record<Names, string | undefined>>({
    id,
    lastResult: lastResult ?? undefined,
    constraint,
    // conform's DefaultValue type is a deep-partial of the schema; plain strings are what it takes.
    defaultValue: defaultValue as never,
    // Not on blur: a message appearing under the field being left moves the page, and the
    // tap that caused the blur lands somewhere else (a checkbox would not tick). Errors show
    // at the first submit, then follow every keystroke.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate({ form, formData }) {
      return parse<Record<Names, string | undefined>, string[]>(formData, {
        resolve() {
          const error: Record<string, string[]> = {};
          for (const element of Array.from(form.elements)) {
            if (!(element instanceof HTMLInputElement) || !element.name || element.validity.valid) continue;
            const rule = messages[element.name];
            const key = element.validity.valueMissing ? rule?.required : rule?.invalid;
            error[element.name] = [key ?? rule?.invalid ?? rule?.required ?? element.validationMessage];
          }
          return Object.keys(error).length > 0
            ? { error }
            : { value: Object.fromEntries(formData) as Record<Names, string | undefined> };
        },
      });
    },
  });
}

/** A text input bound to a conform field: label, hint, translated error, constraints. */
export function ConformField({
  meta,
  label,
  hint,
  type = "text",
  ...input
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
  type?: "text" | "password";
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "defaultValue">) {
  const t = useT();
  const error = meta.errors?.[0];
  const { key, ...props } = getInputProps(meta, { type, ariaAttributes: false });
  return (
    <Field key={key} {...props} {...input} label={label} hint={hint} error={error ? t(error as MessageKey) : null} />
  );
}

/** A consent or option checkbox with its error tied to it. */
export function ConformCheckbox({ meta, label }: { meta: FieldMetadata<string | undefined>; label: string }) {
  const t = useT();
  const error = meta.errors?.[0];
  const errorId = `${meta.id}-error`;
  // No remounting key: a tick must survive the re-render that validating another field causes.
  const { key: _key, ...props } = getInputProps(meta, { type: "checkbox", ariaAttributes: false });
  return (
    <div className={styles.checkboxField}>
      <input
        {...props}
        className={styles.checkbox}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      <label htmlFor={meta.id}>{label}</label>
      {error ? (
        <p id={errorId} className={styles.checkboxError}>
          {t(error as MessageKey)}
        </p>
      ) : null}
    </div>
  );
}
