/**
 * Card number rules shared by the forms, the API and the sandbox gateway: pure code, no I/O.
 * A card number is only ever held in memory on its way to the gateway (PCI DSS 3.3.1).
 */
import type { CardBrand } from "./payment-method-types";

/** Spaces and dashes are how people copy card numbers; anything else is an error. */
export function cardDigits(input: string): string | null {
  const digits = input.replace(/[\s-]/g, "");
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

/** The Luhn (mod 10) check every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let value = digits.charCodeAt(i) - 48;
    if (double) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
    double = !double;
  }
  return sum % 10 === 0;
}

type BrandRule = { brand: CardBrand; prefix: RegExp; lengths: number[]; cvnLength: number };

/** Issuer identification ranges (ISO/IEC 7812 prefixes as the card schemes publish them). */
const BRAND_RULES: BrandRule[] = [
  { brand: "amex", prefix: /^3[47]/, lengths: [15], cvnLength: 4 },
  { brand: "diners", prefix: /^3(0[0-5]|[689])/, lengths: [14, 15, 16, 17, 18, 19], cvnLength: 3 },
  { brand: "jcb", prefix: /^35(2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19], cvnLength: 3 },
  {
    brand: "mastercard",
    prefix: /^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/,
    lengths: [16],
    cvnLength: 3,
  },
  { brand: "discover", prefix: /^(6011|64[4-9]|65)/, lengths: [16, 17, 18, 19], cvnLength: 3 },
  { brand: "unionpay", prefix: /^62/, lengths: [16, 17, 18, 19], cvnLength: 3 },
  { brand: "visa", prefix: /^4/, lengths: [13, 16, 19], cvnLength: 3 },
];

export function detectBrand(digits: string): CardBrand | null {
  const rule = BRAND_RULES.find((candidate) => candidate.prefix.test(digits));
  return rule && rule.lengths.includes(digits.length) ? rule.brand : null;
}

/**
 * The brand from the first digits alone (at least the 6-digit IIN, at most 8): enough to price
 * a card surcharge while the customer types, without the whole number leaving the form.
 */
export const CARD_PREFIX_MAX = 8;
export function brandFromPrefix(prefix: string): CardBrand | null {
  if (!/^\d{6,8}$/.test(prefix)) return null;
  return BRAND_RULES.find((candidate) => candidate.prefix.test(prefix))?.brand ?? null;
}

export function cvnLengthFor(brand: CardBrand): number {
  return BRAND_RULES.find((rule) => rule.brand === brand)?.cvnLength ?? 3;
}

/** Spec §3 creditCardTypeID: the numeric ids the card payloads carry, one per brand. */
export const CARD_TYPE_IDS: Record<CardBrand, number> = {
  visa: 1,
  mastercard: 2,
  amex: 3,
  diners: 4,
  jcb: 5,
  discover: 6,
  unionpay: 7,
};

export function brandFromTypeId(id: number): CardBrand | null {
  const entry = Object.entries(CARD_TYPE_IDS).find(([, value]) => value === id);
  return entry ? (entry[0] as CardBrand) : null;
}

export const BRAND_LABELS: Record<CardBrand, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  diners: "Diners Club",
  jcb: "JCB",
  discover: "Discover",
  unionpay: "UnionPay",
};

/**
 * A brand as people read it ("Visa", never the stored "visa"), for every page, email and statement
 * line (issue 32). A brand the portal does not know (an old row) reads as "Card".
 */
export function cardBrandLabel(brand: string | null | undefined): string {
  return brand && Object.hasOwn(BRAND_LABELS, brand) ? BRAND_LABELS[brand as CardBrand] : "Card";
}

/** A card as lists and receipts name it: "Visa •••• 1111". */
export function cardName(brand: string | null | undefined, last4: string): string {
  return `${cardBrandLabel(brand)} •••• ${last4}`;
}

/**
 * An expiry year as people type it: two digits (26 → 2026) or four. Anything else → null.
 * Two-digit years are read in this century, as card embossing prints them.
 */
export function parseExpiryYear(input: string): number | null {
  const text = input.trim();
  if (/^\d{2}$/.test(text)) return 2000 + Number(text);
  if (/^20\d{2}$/.test(text)) return Number(text);
  return null;
}

export function parseExpiryMonth(input: string): number | null {
  const text = input.trim();
  if (!/^\d{1,2}$/.test(text)) return null;
  const month = Number(text);
  return month >= 1 && month <= 12 ? month : null;
}

/** A card is valid through the last day of its expiry month. `today` is "YYYY-MM-DD". */
export function isExpired(month: number, year: number, today: string): boolean {
  const [y, m] = today.split("-").map(Number) as [number, number];
  return year < y || (year === y && month < m);
}

/** Cards further out than this are refused as typing mistakes (schemes issue for ≤ 20 years). */
export const MAX_EXPIRY_YEARS_AHEAD = 20;

export function formatExpiry(month: number, year: number) {
  return `${String(month).padStart(2, "0")}/${String(year % 100).padStart(2, "0")}`;
}
