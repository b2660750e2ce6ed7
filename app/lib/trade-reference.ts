/**
 * A trade referee's answer (issue 17; decision 041): the questions Australian and New Zealand
 * trade-reference forms ask, as choices where a choice will do, so that the business can compare
 * referees at a glance. Pure (no I/O, no zod): the page renders these lists, the server checks
 * against them, and the back-office API returns what was stored in this shape.
 */

/** How long the referee has traded with the applicant. */
export const TRADING_LENGTHS = [
  "under-6-months",
  "6-to-12-months",
  "1-to-3-years",
  "3-to-5-years",
  "over-5-years",
] as const;
export type TradingLength = (typeof TRADING_LENGTHS)[number];

/** The terms the referee gives: cash on delivery, net days, or 30 days from the end of the month. */
export const TRADE_TERMS = ["cod", "7-days", "14-days", "30-days", "eom-30", "other"] as const;
export type TradeTerms = (typeof TRADE_TERMS)[number];

/** How the applicant pays the referee. */
export const PAYMENT_BEHAVIOURS = ["prompt", "usually-on-time", "sometimes-late", "often-late"] as const;
export type PaymentBehaviour = (typeof PAYMENT_BEHAVIOURS)[number];

export const REFEREE_NAME_MAX = 200;
export const REFEREE_POSITION_MAX = 100;
export const TERMS_OTHER_MAX = 100;
export const DISHONOUR_DETAILS_MAX = 1_000;
export const COMMENTS_MAX = 2_000;

/**
 * The answer as `credit_trade_references.answer` keeps it (version 1). The referee's typed name
 * is in `answered_by_name` beside it. Money is integer cents in the business's currency.
 */
export type TradeReferenceAnswer = {
  version: 1;
  tradingLength: TradingLength;
  terms: TradeTerms;
  /** What "other" terms are, as typed; null for the listed ones. */
  termsOther: string | null;
  creditLimitCents: number;
  /** The highest balance owed in the last 12 months, when the referee gave it. */
  highestBalanceCents: number | null;
  paymentBehaviour: PaymentBehaviour;
  /** Dishonoured payments or collection action in the last 12 months. */
  dishonours: boolean;
  dishonourDetails: string | null;
  recommend: boolean;
  comments: string | null;
  position: string;
};

/** The fields of the referee's form, in the order the page shows them (the error summary's order). */
export const REFEREE_FIELDS = [
  "tradingLength",
  "terms",
  "termsOther",
  "creditLimit",
  "highestBalance",
  "paymentBehaviour",
  "dishonours",
  "dishonourDetails",
  "recommend",
  "comments",
  "name",
  "position",
] as const;
export type RefereeField = (typeof REFEREE_FIELDS)[number];

/** The form as typed: what the page puts back in its fields when an answer is refused. */
export type RefereeFormValues = Record<RefereeField, string>;

export const EMPTY_REFEREE_FORM: RefereeFormValues = Object.freeze({
  tradingLength: "",
  terms: "",
  termsOther: "",
  creditLimit: "",
  highestBalance: "",
  paymentBehaviour: "",
  dishonours: "",
  dishonourDetails: "",
  recommend: "",
  comments: "",
  name: "",
  position: "",
});

/** Where a referee's link stands, as the back office lists it. */
export const TRADE_REFERENCE_STATES = ["waiting", "answered", "expired", "closed"] as const;
export type TradeReferenceState = (typeof TRADE_REFERENCE_STATES)[number];

/**
 * waiting: the link works and no answer yet; answered; expired: the link ran out unanswered;
 * closed: the business decided the application before the referee answered.
 */
export function tradeReferenceState(
  reference: { answeredAt: Date | string | null; linkExpiresAt: Date | string },
  applicationStatus: string,
  now: Date,
): TradeReferenceState {
  if (reference.answeredAt) return "answered";
  if (applicationStatus !== "submitted") return "closed";
  return new Date(reference.linkExpiresAt).getTime() <= now.getTime() ? "expired" : "waiting";
}
