import { z } from "zod";
import { apiText } from "~/lib/i18n/catalog";
import type { MessageKey } from "~/lib/i18n";
import { MAX_MONEY_CENTS } from "~/lib/format";
import { ISO_DATE_MAX, rawTextMax } from "~/lib/input-bounds";
import {
  ADDRESS_FIELDS,
  FIELD_MAX,
  isChoiceOf,
  LINE_MAX,
  MESSAGE_MAX,
  NAME_REQUIRED,
  NOTE_MAX,
  readAddress,
  readLine,
  readNote,
  RESPONSE_KINDS,
  sameAddress,
  TYPED_NAME_MAX,
  type Address,
  type AnswerDetails,
  type ResponseChoice,
  type ResponseKind,
} from "~/lib/responses";

/**
 * What a response request may hold, read from the two places it comes from (decision 040):
 * the business's back-office call (a JSON body: zod gives its shape, the shared rules in
 * `~/lib/responses` judge the text and the address) and the contact's answer form (plain form
 * fields: the kind's choices, the fields that choice needs, a typed name where the kind asks for
 * one). Both report a message per field; nothing here touches the database.
 */
export const DEFAULT_EXPIRY_DAYS = 14;
export const MAX_EXPIRY_DAYS = 90;
export const CREDIT_NOTE_MAX = 1000;

const line = (what: string, max: number) =>
  z
    .string({ required_error: `Give the ${what}.`, invalid_type_error: `Give the ${what} as text.` })
    .trim()
    .min(1, `Give the ${what}.`)
    .max(max, `That is too long for the ${what} (at most ${max} characters).`);

/** A multi-line text, bounded raw (rawTextMax) before noteFromApi counts its characters against `max`. */
const text = (what: string, max: number) =>
  z
    .string({ required_error: `Give the ${what}.`, invalid_type_error: `Give the ${what} as text.` })
    .max(rawTextMax(max), `That is too long for the ${what} (at most ${max} characters).`);

/** An address field, bounded raw before readAddress judges it against LINE_MAX or LOCALITY_MAX. */
const ADDRESS_RAW_MAX = rawTextMax(LINE_MAX);
const ADDRESS_TOO_LONG = `That is too long (at most ${LINE_MAX} characters).`;
const addressLine = z
  .string({ required_error: "Give it.", invalid_type_error: "Give it as text." })
  .max(ADDRESS_RAW_MAX, ADDRESS_TOO_LONG);
const optionalLine = z
  .string({ invalid_type_error: "Give it as text." })
  .max(ADDRESS_RAW_MAX, ADDRESS_TOO_LONG)
  .nullish();

const AddressShape = z
  .object({
    line1: addressLine,
    line2: optionalLine,
    locality: addressLine,
    state: optionalLine,
    postcode: addressLine,
    country: addressLine,
  })
  .strict();

const isoDay = (what: string) =>
  z
    .string({
      required_error: `Give the ${what} as YYYY-MM-DD.`,
      invalid_type_error: `Give the ${what} as YYYY-MM-DD.`,
    })
    .max(ISO_DATE_MAX, `Give the ${what} as a real date, YYYY-MM-DD.`)
    .refine(isCalendarDay, `Give the ${what} as a real date, YYYY-MM-DD.`);

const StatementShape = z
  .object({
    periodStart: isoDay("start of the period").nullish(),
    periodEnd: isoDay("statement date (the end of its period)"),
    closingBalanceCents: z
      .number({
        required_error: "Give the closing balance in cents.",
        invalid_type_error: "Give the closing balance in cents, as a whole number.",
      })
      .int("Give the closing balance in cents, as a whole number.")
      .min(-MAX_MONEY_CENTS, "That balance is out of range.")
      .max(MAX_MONEY_CENTS, "That balance is out of range."),
  })
  .strict();

const ResolutionShape = z.discriminatedUnion(
  "type",
  [
    z
      .object({
        type: z.literal("credit"),
        amountCents: z
          .number({
            required_error: "Give the credit in cents.",
            invalid_type_error: "Give the credit in cents, as a whole number.",
          })
          .int("Give the credit in cents, as a whole number.")
          .min(1, "A credit is at least 1 cent."),
        note: text("note", CREDIT_NOTE_MAX).nullish(),
      })
      .strict(),
    z.object({ type: z.literal("position"), text: text("business's written position", NOTE_MAX) }).strict(),
  ],
  { errorMap: () => ({ message: "Use credit (with amountCents) or position (with text)." }) },
);

const DisputeShape = z.object({ invoice: line("invoice's id or number", 100), resolution: ResolutionShape }).strict();

const common = {
  account: line("account's id or number", 100),
  contact: line("contact's id or email", 254),
  message: text("message", MESSAGE_MAX).nullish(),
  expiresInDays: z
    .number({ invalid_type_error: "Give a whole number of days." })
    .int("Give a whole number of days.")
    .min(1, "At least 1 day.")
    .max(MAX_EXPIRY_DAYS, `At most ${MAX_EXPIRY_DAYS} days.`)
    .nullish(),
};

export const CreateSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("delivery-address"), ...common, address: AddressShape }).strict(),
    z.object({ kind: z.literal("statement"), ...common, statement: StatementShape }).strict(),
    z.object({ kind: z.literal("dispute"), ...common, dispute: DisputeShape }).strict(),
  ],
  {
    errorMap: (issue, ctx) =>
      issue.code === "invalid_union_discriminator"
        ? { message: `Use one of ${RESPONSE_KINDS.join(", ")}.` }
        : { message: ctx.defaultError },
  },
);
export type CreateInput = z.infer<typeof CreateSchema>;

export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  // date-rule: checks that a typed calendar date exists (UTC midnight round trip), no clock (decision 078)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && value >= "1900-01-01";
}

/** A message key in the API's English, with the field's limit where it has one. */
const english = (key: MessageKey, field?: string) =>
  apiText(key, { max: (field && FIELD_MAX[field as keyof typeof FIELD_MAX]) || 0 });

/** The business's stated address, as stored, or a message per field (`address.line1` …). */
export function addressFromApi(input: Record<string, string | null | undefined>, prefix = "address") {
  const result = readAddress(input);
  if (result.ok) return { ok: true as const, value: result.value };
  return {
    ok: false as const,
    fields: Object.fromEntries(
      Object.entries(result.errors).map(([field, key]) => [`${prefix}.${field}`, english(key, field)]),
    ),
  };
}

/** A multi-line text of the API (message, note, position): "" when absent and optional. */
export function noteFromApi(
  raw: string | null | undefined,
  field: string,
  max: number,
  required: boolean,
): { ok: true; value: string } | { ok: false; fields: Record<string, string> } {
  const result = readNote(raw ?? "", max, { required });
  if (result.ok) return result;
  return { ok: false, fields: { [field]: apiText(result.error, { max }) } };
}

export { MESSAGE_MAX, NOTE_MAX };

// ---------------------------------------------------------------------------------------------
// The contact's answer form

/** The answer form's field names: the choice, a corrected address, a note or reason, a name. */
export const ANSWER_FIELDS = ["choice", ...ADDRESS_FIELDS, "note", "reason", "typedName"] as const;
export type AnswerField = (typeof ANSWER_FIELDS)[number];
export type AnswerErrors = Partial<Record<AnswerField, MessageKey>>;
export type AnswerValues = Partial<Record<AnswerField, string>>;

export type ReadAnswer =
  | { ok: true; choice: ResponseChoice; details: AnswerDetails; typedName: string | null }
  | { ok: false; errors: AnswerErrors };

/**
 * The contact's answer from the form, for a request of `kind` (the request's own kind, never
 * the form's say). The choice must be one of the kind's two: anything else — missing, another
 * kind's answer, invented — is an error at the choice. Then only what that choice needs: a
 * corrected address (which must differ from the one stated), a note saying what is wrong with a
 * statement, a reason for rejecting a resolution; and the typed name where the kind is signed.
 */
export function readAnswer(kind: ResponseKind, values: AnswerValues, stated: Address | null): ReadAnswer {
  const errors: AnswerErrors = {};
  const choice = values.choice;
  if (!choice) errors.choice = "response.error.choice.required";
  else if (!isChoiceOf(kind, choice)) errors.choice = "response.error.choice.other";
  const details: AnswerDetails = {};
  const chosen = isChoiceOf(kind, choice) ? choice : null;
  if (chosen === "corrected") {
    const address = readAddress(values);
    if (!address.ok) Object.assign(errors, address.errors);
    else if (stated && sameAddress(address.value, stated)) errors.line1 = "response.error.address.same";
    else details.address = address.value;
  }
  if (chosen === "disputed") {
    const note = readNote(values.note, NOTE_MAX, { required: true });
    if (!note.ok) errors.note = note.error === "response.error.required" ? "response.error.note.required" : note.error;
    else details.note = note.value;
  }
  if (chosen === "rejected") {
    const reason = readNote(values.reason, NOTE_MAX, { required: true });
    if (!reason.ok) {
      errors.reason = reason.error === "response.error.required" ? "response.error.reason.required" : reason.error;
    } else details.reason = reason.value;
  }
  let typedName: string | null = null;
  if (NAME_REQUIRED[kind]) {
    const name = readLine(values.typedName, TYPED_NAME_MAX, { required: true });
    if (!name.ok)
      errors.typedName = name.error === "response.error.required" ? "response.error.name.required" : name.error;
    else typedName = name.value;
  }
  if (Object.keys(errors).length || !chosen) return { ok: false, errors };
  return { ok: true, choice: chosen, details, typedName };
}
