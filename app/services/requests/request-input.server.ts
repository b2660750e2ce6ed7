import { z } from "zod";
import { ISO_DATE_MAX, ISO_INSTANT_MAX } from "~/lib/input-bounds";
import { MAX_MONEY_CENTS } from "~/lib/format";

/**
 * What a new payment request may say (issue 14; decision 032): the limits and the schema
 * `createPaymentRequest` parses its input with, each problem worded for the field it is about.
 */
export const MAX_INVOICES_PER_REQUEST = 50;
export const MAX_RECIPIENTS_PER_REQUEST = 10;
export const DEFAULT_EXPIRY_DAYS = 14;
export const MAX_EXPIRY_DAYS = 90;

const text = (what: string, max: number) =>
  z
    .string({ required_error: `Give the ${what}.`, invalid_type_error: `Give the ${what} as text.` })
    .trim()
    .min(1, `Give the ${what}.`)
    .max(max, `That is too long for the ${what} (at most ${max} characters).`);

const cents = (what: string) =>
  z
    .number({ invalid_type_error: `Give ${what} as a whole number of cents, e.g. 12050 for 120.50.` })
    .int(`Give ${what} as a whole number of cents, e.g. 12050 for 120.50.`)
    .positive(`${what[0]!.toUpperCase()}${what.slice(1)} must be more than zero.`)
    .max(MAX_MONEY_CENTS, `${what[0]!.toUpperCase()}${what.slice(1)} is too large.`);

/** A real calendar date, "YYYY-MM-DD" (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 2000 &&
    year <= 2100 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

const calendarDate = z
  .string({ invalid_type_error: "Give the date as text, e.g. 2026-12-15." })
  .max(ISO_DATE_MAX, "Give a real date as YYYY-MM-DD, e.g. 2026-12-15.")
  .refine(isCalendarDate, "Give a real date as YYYY-MM-DD, e.g. 2026-12-15.");

export const CreateSchema = z
  .object({
    account: text("account's id or number", 100),
    invoices: z
      .array(text("invoice's id or number", 100), { invalid_type_error: "Give a list of invoice ids or numbers." })
      .min(1, "Name at least one invoice.")
      .max(MAX_INVOICES_PER_REQUEST, `At most ${MAX_INVOICES_PER_REQUEST} invoices in one request.`)
      .nullish(),
    amountCents: cents("the amount").nullish(),
    description: z
      .string({ invalid_type_error: "Give the description as text." })
      .trim()
      .max(500, "At most 500 characters.")
      .nullish(),
    dueDate: calendarDate.nullish(),
    expiresAt: z
      .string({ invalid_type_error: "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00." })
      .max(ISO_INSTANT_MAX, "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00.")
      .datetime({ offset: true, message: "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00." })
      .nullish(),
    expiresInDays: z
      .number({ invalid_type_error: "Give a whole number of days." })
      .int("Give a whole number of days.")
      .min(1, "At least 1 day.")
      .max(MAX_EXPIRY_DAYS, `At most ${MAX_EXPIRY_DAYS} days.`)
      .nullish(),
    allowPartPayment: z.boolean({ invalid_type_error: "Give true or false." }).nullish(),
    minPartPaymentCents: cents("the smallest part-payment").nullish(),
    recipients: z
      .array(text("recipient's contact id or email", 254), {
        required_error: "Name at least one contact of the account to send the request to.",
        invalid_type_error: "Give a list of contact ids or emails.",
      })
      .min(1, "Name at least one contact of the account to send the request to.")
      .max(MAX_RECIPIENTS_PER_REQUEST, `At most ${MAX_RECIPIENTS_PER_REQUEST} recipients.`),
  })
  .strict();

export type CreatePaymentRequestInput = z.input<typeof CreateSchema>;
