import type { ShouldRevalidateFunction } from "@remix-run/react";
import { formatMoney, MONEY_ERRORS } from "./format";
import type { MessageKey } from "./i18n";
import type { PaymentBreakdown } from "./payment-calc";

/**
 * What every pay page shares, on both sides of the wire (issue 3's pay page, issue 14's link,
 * request and ad-hoc pages): how a method is named in the form, the server's breakdown as the
 * page shows it, and the shape of an action's answer. The form is `~/components/PayForm`; the
 * action's steps are `~/services/payments/pay-form.server.ts`.
 */

/** A way to pay as the form's `method` radio names it. */
export type PayMethodChoice =
  | { kind: "card"; cardId: string }
  | { kind: "new" }
  | { kind: "promise" }
  | { kind: "payto"; agreementId: string }
  /** A new card the confirm step holds, tokenised (decision 071): the held card's id. */
  | { kind: "held"; heldCardId: string };

/** The radio's value for a method (the page's `:has()` rules look at its prefix). */
export const methodValueOf = (method: PayMethodChoice) =>
  method.kind === "card"
    ? `card:${method.cardId}`
    : method.kind === "payto"
      ? `payto:${method.agreementId}`
      : method.kind === "held"
        ? `held:${method.heldCardId}`
        : method.kind;

/** The method a posted `method` value names (unchecked: the server looks each id up). */
export function parseMethodValue(value: string): PayMethodChoice {
  if (value === "new") return { kind: "new" };
  if (value === "promise") return { kind: "promise" };
  if (value.startsWith("payto:")) return { kind: "payto", agreementId: value.slice("payto:".length) };
  if (value.startsWith("held:")) return { kind: "held", heldCardId: value.slice("held:".length) };
  return { kind: "card", cardId: value.replace(/^card:/, "") };
}

/** The server's breakdown, in the business's currency, as the form and its summary show it. */
export type BreakdownView = {
  subTotal: string;
  lateFee: string | null;
  discount: string | null;
  surcharge: string | null;
  total: string;
  totalCents: number;
};

export function breakdownView(b: PaymentBreakdown, currency: string): BreakdownView {
  const money = (cents: number) => formatMoney(cents, { currency });
  return {
    subTotal: money(b.subTotal),
    lateFee: b.totalLateFee > 0 ? money(b.totalLateFee) : null,
    discount: b.totalDiscount > 0 ? money(b.totalDiscount) : null,
    surcharge: b.merchantFeeComponent > 0 ? money(b.merchantFeeComponent) : null,
    total: money(b.amount),
    totalCents: b.amount,
  };
}

/** Cents as the text an amount field starts with ("1234.50"): no currency sign, no separators. */
export const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/**
 * A pay action's answer when it does not redirect: what was typed (to show again; never the
 * card number or CVN), errors per field, a message for the whole form, the breakdown of what
 * was typed, and a new requestGuid for the next try.
 */
export type PayFormReply = {
  requestGuid: string;
  /** Typed amounts by field name (`amount-<invoice id>`, `amount`). */
  amounts: Record<string, string>;
  method: PayMethodChoice;
  note: string;
  promiseDate: string;
  holder: string;
  /** A new card's expiry as typed (kept like the holder's name; never the number or CVN). */
  expiryMonth: string;
  expiryYear: string;
  /** Anything else a page keeps between tries (an ad-hoc payment's reference). */
  extra: Record<string, string>;
  errors: Record<string, MessageKey>;
  message: MessageKey | null;
  messageParams?: Record<string, string>;
  /** A PayTo rejection's reason, translated into the message's {reason}. */
  reasonKey?: MessageKey;
  breakdown: BreakdownView | null;
  /**
   * The confirm step (decision 071): what the payment will be, when it differs from what the
   * button showed. The page shows it with one "Confirm" button instead of refusing the tap.
   */
  confirm?: PayConfirmView;
};

/** What a confirm button will do: pay by card or PayTo, or record a promise. */
export type PayAction = "card" | "payto" | "promise";

/** The action a method's button names. */
export const actionOfChoice = (method: PayMethodChoice): PayAction =>
  method.kind === "payto" ? "payto" : method.kind === "promise" ? "promise" : "card";

export type PayConfirmView = {
  action: PayAction;
  /** The method's value to post again (`held:<id>` for a held card). */
  method: string;
  /** A held card's public facts ("Visa", "4242", "12/28"). */
  card: { brand: string; last4: string; expiry: string } | null;
  /** A promise's date in the business's format. */
  promiseDate: string | null;
  /** The total the button had shown, when the total is not that one. */
  shownTotal: string | null;
  /** The surcharge's reason: the card's brand and the business's rate for it ("1.5%", "1.5% + $0.30"). */
  surcharge: { brand: string; rate: string } | null;
};

export const MONEY_ERROR_KEYS: Record<string, MessageKey> = {
  [MONEY_ERRORS.format]: "pay.error.amount.format",
  [MONEY_ERRORS.decimals]: "pay.error.amount.decimals",
  [MONEY_ERRORS.negative]: "pay.error.amount.negative",
  [MONEY_ERRORS.tooLarge]: "pay.error.amount.tooLarge",
};

/** Spec §9 default: wait this long after the last change before asking the server for the total. */
export const LIVE_TOTAL_DEBOUNCE_MS = 500;

/**
 * The fields whose change asks for a new total: the amounts (`amount`, `amount-<id>`) and what
 * the price depends on; the card number is sent only as its first digits (`cardPrefix`),
 * never the CVN, expiry or name.
 */
const QUOTE_FIELDS = ["method", "cardNumber", "promiseDate"];
export const isPriceField = (name: string) =>
  name === "amount" || name.startsWith("amount-") || QUOTE_FIELDS.includes(name);

/** A quote changes nothing a loader reads: no reload of the page's data for it. */
export const payFormShouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "quote" ? false : defaultShouldRevalidate;
