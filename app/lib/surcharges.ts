import { BRAND_LABELS } from "./card";
import { formatMoney } from "./format";
import type { FeeRules } from "./payment-calc";
import type { CardBrand } from "./payment-method-types";

/** One card surcharge as a payer reads it: the brand (null: every other card) and its rate. */
export type SurchargeRate = { brand: string | null; rate: string };

/**
 * What a card costs extra at this business, for the line before a pay button and the request's
 * email (decision 075): each brand with its own rate, then the rate of every other card; none
 * when cards carry no surcharge. One entry with `brand: null` alone means every card pays the same.
 */
export function surchargeRates(rules: FeeRules, currency: string): SurchargeRate[] {
  const others = rules.surcharge.default ? feeRateLabel(rules.surcharge.default, currency) : null;
  const brands = (Object.keys(BRAND_LABELS) as CardBrand[])
    .map((brand) => ({ brand, fee: rules.surcharge[brand] }))
    .filter((entry) => entry.fee !== undefined)
    .map(({ brand, fee }) => ({ brand: BRAND_LABELS[brand], rate: feeRateLabel(fee!, currency) }))
    .filter((entry): entry is { brand: string; rate: string } => entry.rate !== null && entry.rate !== others);
  return others ? [...brands, { brand: null, rate: others }] : brands;
}

/** "1.2%", "$0.30" or "1.5% + $0.30"; null for a fee of nothing. */
export function feeRateLabel(fee: { bps: number; fixedCents: number }, currency: string): string | null {
  if (fee.bps <= 0 && fee.fixedCents <= 0) return null;
  const percent = `${(fee.bps / 100).toFixed(2).replace(/\.?0+$/, "")}%`;
  if (fee.fixedCents <= 0) return percent;
  const fixed = formatMoney(fee.fixedCents, { currency });
  return fee.bps > 0 ? `${percent} + ${fixed}` : fixed;
}

/** The words of the surcharge sentence, in the reader's language. */
export type SurchargeWords = {
  /** Every card pays the same: "Paying by card adds 1.2%." */
  all: (rate: string) => string;
  /** "Paying by card adds {rates}." */
  some: (rates: string) => string;
  /** "1.2% for Visa and Mastercard" */
  rate: (rate: string, cards: string) => string;
  /** "other cards" */
  others: string;
  /** " and " */
  and: string;
};

/**
 * "Paying by card adds 1.2% for Visa and Mastercard, 2.5% for American Express and 1.5% for
 * other cards.": brands that cost the same are named together, in one fixed order of brands
 * (Visa first). Empty when cards carry no surcharge. Shared by the request page and the emails,
 * so both say the same.
 */
export function surchargeSentence(rates: SurchargeRate[], words: SurchargeWords): string {
  if (rates.length === 0) return "";
  const only = rates[0]!;
  if (rates.length === 1 && only.brand === null) return words.all(only.rate);
  const byRate = new Map<string, string[]>();
  for (const { brand, rate } of rates) byRate.set(rate, [...(byRate.get(rate) ?? []), brand ?? words.others]);
  const list = (items: string[]) =>
    items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")}${words.and}${items.at(-1)}`;
  return words.some(list([...byRate].map(([rate, brands]) => words.rate(rate, list(brands)))));
}
