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
