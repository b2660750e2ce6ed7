import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import type { MessageKey } from "~/lib/i18n";
import * as buttons from "~/components/Button.css";
import * as formStyles from "~/components/Form.css";
import { useT } from "~/components/useT";
import * as styles from "../Credit.css";
import { fieldId } from "../CreditForm";

/**
 * What the credit application's step bodies share (decision 038): the props a step's fields get,
 * accessors for conform's fields, a group (fieldset) and a list of repeated groups with "Add" and
 * "Remove" (conform's list intents: plain submit buttons, so they work without JavaScript). Each
 * step's fields are a module of their own under this folder, with the messages the browser shows
 * for its HTML constraints (the server's are the schemas' in app/lib/credit-schemas.ts, the same
 * keys): a step's page loads only its own.
 */
type Form = FormMetadata<Record<string, unknown>, string[]>;
type Fields = ReturnType<Form["getFieldset"]>;
export type Field = FieldMetadata<unknown, Record<string, unknown>, string[]>;
type ListField = FieldMetadata<Record<string, unknown>[], Record<string, unknown>, string[]>;

export type StepBodyProps = {
  form: Form;
  fields: Fields;
  country: "AU" | "NZ";
  currency: string;
  businessName: string;
};

export const TOO_LONG_200: MessageKey = "credit.error.tooLong.200";
export const TOO_LONG_100: MessageKey = "credit.error.tooLong.100";

/** A text field's messages: when it is empty, and when it breaks a constraint (too long, by default). */
export const text = (required: MessageKey, invalid: MessageKey = TOO_LONG_200) => ({ required, invalid });

export const field = (fields: Fields, name: string) => (fields as Record<string, Field>)[name]!;
export const list = (fields: Fields, name: string) => (fields as Record<string, ListField>)[name]!;

export function Group({
  legend,
  children,
  className,
  hint,
}: {
  legend: string;
  children: ReactNode;
  className?: string;
  hint?: ReactNode;
}) {
  return (
    <fieldset className={[styles.group, className].filter(Boolean).join(" ")}>
      <legend className={styles.legend}>{legend}</legend>
      {hint ? <p className={formStyles.hint}>{hint}</p> : null}
      {children}
    </fieldset>
  );
}

/** A list of people or referees: each a group with its fields, "Remove" past the minimum, and "Add". */
export function ListFields({
  form,
  meta,
  min,
  max,
  legend,
  removeLabel,
  addLabel,
  render,
}: {
  form: Form;
  meta: ListField;
  min: number;
  max: number;
  legend: (n: number) => string;
  removeLabel: (n: number) => string;
  addLabel: string;
  render: (item: Record<string, Field>) => ReactNode;
}) {
  const items = meta.getFieldList();
  const listError = meta.errors?.[0];
  const t = useT();
  return (
    <div id={fieldId(meta.name)} tabIndex={-1} className={styles.form}>
      {listError ? <p className={formStyles.error}>{t(listError as MessageKey)}</p> : null}
      {items.map((item, index) => (
        <Group key={item.key} legend={legend(index + 1)}>
          {render(item.getFieldset() as Record<string, Field>)}
          {items.length > min ? (
            <div className={styles.listActions}>
              <button
                {...form.remove.getButtonProps({ name: meta.name, index })}
                className={buttons.secondaryButton}
                formNoValidate
              >
                {removeLabel(index + 1)}
              </button>
            </div>
          ) : null}
        </Group>
      ))}
      {items.length < max ? (
        <div className={styles.listActions}>
          <button
            {...form.insert.getButtonProps({ name: meta.name })}
            className={buttons.secondaryButton}
            formNoValidate
          >
            {addLabel}
          </button>
        </div>
      ) : null}
    </div>
  );
}
