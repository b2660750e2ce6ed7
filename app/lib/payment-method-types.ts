/** Names shared by the card and bank-account code in lib, services and routes. */
export type CardBrand = "visa" | "mastercard" | "amex" | "diners" | "jcb" | "discover" | "unionpay";

export const CARD_BRANDS: readonly CardBrand[] = [
  "visa",
  "mastercard",
  "amex",
  "diners",
  "jcb",
  "discover",
  "unionpay",
];

/** How many cards or bank accounts one account may keep: more is a mistake or abuse. */
export const MAX_SAVED_PER_ACCOUNT = 20;
