/**
 * The card and bank-account forms' rules (issue 5), as zod schemas whose messages are
 * message keys (translated where they are shown). Used on the server only: the browser
 * gets the HTML constraints conform derives from them (required, pattern, maxLength), so
 * zod itself is never shipped (STACK.md: it would cost ≈25 KB gzip).
 */
import { z } from "zod";
import { checkNzAccount, parseAuAccountNumber, parseBsb } from "./bank-account";
import {
  cardDigits,
  cvnLengthFor,
  detectBrand,
  isExpired,
  MAX_EXPIRY_YEARS_AHEAD,
  parseExpiryMonth,
  parseExpiryYear,
  passesLuhn,
} from "./card";
import type { MessageKey } from "./i18n";
import { rawTextMax } from "./input-bounds";

const key = (k: MessageKey) => k;

/** Names on cards and bank accounts: letters, digits and the punctuation names use. No markup. */
const NAME_PATTERN = /^[\p{L}\p{M}\p{N} .,'’&()\-]+$/u;

/**
 * Free text without control characters (U+0000–U+001F, U+007F–U+009F): none belongs in a
 * one-line field, and PostgreSQL refuses U+0000 in text outright, so a NUL that got past
 * here would fail the write after the gateway had already acted.
 */
const NO_CONTROL_CHARACTERS = /^\P{Cc}*$/u;
export const CONTROL = /\p{Cc}/u;

/**
 * A required string; a value of another type (JSON) gets the same message as a missing one.
 * Bounded raw (before trimming) at rawTextMax of the longest field it serves (200); each field's
 * own trimmed `.max` is the one a person meets, and the one getZodConstraint gives the browser.
 */
const text = (missing: MessageKey, tooLong: MessageKey) =>
  z.string({ required_error: missing, invalid_type_error: missing }).max(rawTextMax(200), tooLong);

/** One line of plain text, at most `max` characters after trimming. */
export const plainText = (missing: MessageKey, max: number, tooLong: MessageKey) =>
  text(missing, tooLong).trim().max(max, tooLong).regex(NO_CONTROL_CHARACTERS, key("pm.error.text.control"));

const cardNumber = z
  .string({ required_error: key("pm.error.cardNumber.required") })
  .max(30, key("pm.error.cardNumber.invalid"))
  .regex(/^[0-9 \-]{12,30}$/, key("pm.error.cardNumber.invalid"));

export const cardHolderName = text(key("pm.error.holder.required"), key("pm.error.holder.tooLong"))
  .trim()
  .min(1, key("pm.error.holder.required"))
  .max(100, key("pm.error.holder.tooLong"))
  .regex(NAME_PATTERN, key("pm.error.holder.characters"));

const expiryMonth = z
  .string({ required_error: key("pm.error.expiryMonth.required") })
  .max(2, key("pm.error.expiryMonth.invalid"))
  .regex(/^(0?[1-9]|1[0-2])$/, key("pm.error.expiryMonth.invalid"));

const expiryYear = z
  .string({ required_error: key("pm.error.expiryYear.required") })
  .max(4, key("pm.error.expiryYear.invalid"))
  .regex(/^(\d{2}|20\d{2})$/, key("pm.error.expiryYear.invalid"));

const cvn = z
  .string({ required_error: key("pm.error.cvn.required") })
  .max(4, key("pm.error.cvn.invalid"))
  .regex(/^\d{3,4}$/, key("pm.error.cvn.invalid"));

type ExpiryInput = { expiryMonth: string; expiryYear: string };

/** The expiry as a whole: not passed, and not implausibly far away. */
function checkExpiry(value: ExpiryInput, ctx: z.RefinementCtx, today: string) {
  const month = parseExpiryMonth(value.expiryMonth);
  const year = parseExpiryYear(value.expiryYear);
  if (month === null || year === null) return null;
  if (isExpired(month, year, today)) {
    ctx.addIssue({ code: "custom", path: ["expiryYear"], message: key("pm.error.expiry.past") });
    return null;
  }
  if (year > Number(today.slice(0, 4)) + MAX_EXPIRY_YEARS_AHEAD) {
    ctx.addIssue({ code: "custom", path: ["expiryYear"], message: key("pm.error.expiryYear.invalid") });
    return null;
  }
  return { month, year };
}

/** The number as a whole: a Luhn-valid number of a brand we take, with a CVN of that brand's length. */
function checkCard(value: { cardNumber: string; cvn?: string }, ctx: z.RefinementCtx) {
  const digits = cardDigits(value.cardNumber);
  const brand = digits ? detectBrand(digits) : null;
  if (!digits) {
    ctx.addIssue({ code: "custom", path: ["cardNumber"], message: key("pm.error.cardNumber.invalid") });
    return null;
  }
  if (!passesLuhn(digits)) {
    // The right length, a digit wrong: say so, not "12 to 19 digits".
    ctx.addIssue({ code: "custom", path: ["cardNumber"], message: key("pm.error.cardNumber.check") });
    return null;
  }
  if (!brand) {
    ctx.addIssue({ code: "custom", path: ["cardNumber"], message: key("pm.error.cardNumber.brand") });
    return null;
  }
  if (value.cvn !== undefined && /^\d{3,4}$/.test(value.cvn) && value.cvn.length !== cvnLengthFor(brand)) {
    ctx.addIssue({
      code: "custom",
      path: ["cvn"],
      message: key(brand === "amex" ? "pm.error.cvn.amex" : "pm.error.cvn.invalid"),
    });
    return null;
  }
  return { digits, brand };
}

/**
 * The card network's date, for card expiry only: the gateway and the card API judge a card's
 * expiry month on it (test-clock.server.ts). Never a record's date: those are the business's
 * (`businessToday`, decision 078).
 */
// date-rule: the card network's date for card expiry, not a record's date (decision 078)
export const todayIso = () => new Date().toISOString().slice(0, 10);

/** Add a card (the page form). `authority` is the customer's consent to store the card. */
export function newCardSchema(today = todayIso()) {
  return z
    .object({
      cardNumber,
      cardHolderName,
      expiryMonth,
      expiryYear,
      cvn,
      makeDefault: z.boolean().optional(),
      authority: z.boolean({ required_error: key("pm.error.consent.required") }),
    })
    .superRefine((value, ctx) => {
      checkCard(value, ctx);
      checkExpiry(value, ctx, today);
    })
    .transform((value) => {
      const digits = cardDigits(value.cardNumber)!;
      return {
        cardNumber: digits,
        brand: detectBrand(digits)!,
        cardHolderName: value.cardHolderName,
        expiryMonth: parseExpiryMonth(value.expiryMonth)!,
        expiryYear: parseExpiryYear(value.expiryYear)!,
        cvn: value.cvn,
        makeDefault: value.makeDefault === true,
      };
    });
}

/** Update a card (the page form): a new expiry and holder name; the CVN re-verifies it. */
export function updateCardSchema(today = todayIso()) {
  return z
    .object({ cardHolderName, expiryMonth, expiryYear, cvn: cvn.optional() })
    .superRefine((value, ctx) => {
      checkExpiry(value, ctx, today);
    })
    .transform((value) => ({
      cardHolderName: value.cardHolderName,
      expiryMonth: parseExpiryMonth(value.expiryMonth)!,
      expiryYear: parseExpiryYear(value.expiryYear)!,
      cvn: value.cvn,
    }));
}

export { checkCard, checkExpiry };

export const accountName = text(key("pm.error.accountName.required"), key("pm.error.accountName.tooLong"))
  .trim()
  .min(1, key("pm.error.accountName.required"))
  .max(100, key("pm.error.accountName.tooLong"))
  .regex(NAME_PATTERN, key("pm.error.accountName.characters"));

export const description = plainText(key("pm.error.text.type"), 100, key("pm.error.description.tooLong"))
  .regex(/^[^<>]*$/, key("pm.error.description.characters"))
  .optional();

/** The reference of the customer's consent (ours from the page, the caller's through the API). */
export const authorityReference = plainText(key("pm.error.consent.required"), 100, key("pm.error.text.tooLong")).min(
  1,
  key("pm.error.consent.required"),
);

const consent = z.boolean({ required_error: key("pm.error.consent.required") });

/** Add an Australian bank account: BSB and account number. */
export const auBankAccountSchema = z
  .object({
    accountName,
    bsb: z
      .string({ required_error: key("pm.error.bsb.required") })
      .max(7, key("pm.error.bsb.invalid"))
      .regex(/^\d{3}[ \-]?\d{3}$/, key("pm.error.bsb.invalid")),
    accountNumber: z
      .string({ required_error: key("pm.error.auAccountNumber.required") })
      .max(11, key("pm.error.auAccountNumber.invalid"))
      .regex(/^[0-9 \-]{4,11}$/, key("pm.error.auAccountNumber.invalid")),
    description,
    authority: consent,
  })
  .superRefine((value, ctx) => {
    if (!parseAuAccountNumber(value.accountNumber)) {
      ctx.addIssue({ code: "custom", path: ["accountNumber"], message: key("pm.error.auAccountNumber.invalid") });
    }
  })
  .transform((value) => ({
    country: "AU" as const,
    accountName: value.accountName,
    routing: parseBsb(value.bsb)!,
    accountNumber: parseAuAccountNumber(value.accountNumber)!,
    description: value.description ?? "",
  }));

/** Add a New Zealand bank account: bank, branch, account and suffix, checked by the NZ rules. */
export const nzBankAccountSchema = z
  .object({
    accountName,
    bank: z
      .string({ required_error: key("pm.error.nzBank.required") })
      .max(2, key("pm.error.nzBank.invalid"))
      .regex(/^\d{2}$/, key("pm.error.nzBank.invalid")),
    branch: z
      .string({ required_error: key("pm.error.nzBranch.required") })
      .max(4, key("pm.error.nzBranch.invalid"))
      .regex(/^\d{4}$/, key("pm.error.nzBranch.invalid")),
    account: z
      .string({ required_error: key("pm.error.nzAccount.required") })
      .max(7, key("pm.error.nzAccount.invalid"))
      .regex(/^\d{7}$/, key("pm.error.nzAccount.invalid")),
    suffix: z
      .string({ required_error: key("pm.error.nzSuffix.required") })
      .max(3, key("pm.error.nzSuffix.invalid"))
      .regex(/^\d{2,3}$/, key("pm.error.nzSuffix.invalid")),
    description,
    authority: consent,
  })
  .superRefine((value, ctx) => {
    const check = checkNzAccount(value);
    if (!check.ok && check.problem === "bank") {
      ctx.addIssue({ code: "custom", path: ["bank"], message: key("pm.error.nzBank.unknown") });
    } else if (!check.ok && check.problem === "checksum") {
      ctx.addIssue({ code: "custom", path: ["account"], message: key("pm.error.nzAccount.checksum") });
    }
  })
  .transform((value) => ({
    country: "NZ" as const,
    accountName: value.accountName,
    routing: `${value.bank}-${value.branch}`,
    accountNumber: `${value.account}-${value.suffix}`,
    description: value.description ?? "",
  }));

/** A new card on the pay page: the same rules, consent needed only when it is to be saved. */
export function payCardSchema(today = todayIso()) {
  return z
    .object({ cardNumber, cardHolderName, expiryMonth, expiryYear, cvn, saveCard: z.boolean().optional() })
    .superRefine((value, ctx) => {
      checkCard(value, ctx);
      checkExpiry(value, ctx, today);
    })
    .transform((value) => ({
      cardNumber: cardDigits(value.cardNumber)!,
      holderName: value.cardHolderName,
      expiryMonth: parseExpiryMonth(value.expiryMonth)!,
      expiryYear: parseExpiryYear(value.expiryYear)!,
      cvn: value.cvn,
      save: value.saveCard === true,
    }));
}
