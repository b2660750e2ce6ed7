/**
 * Australia's states and territories, and Australia Post's postcode ranges for each: the one table every
 * address form checks against (credit applications, response requests), so that "VIC 2000" is caught at
 * the field. A few places use a neighbour's postcode — Barooga NSW 3644, Oaks Estate and Hume ACT 2620,
 * the APY lands' 0872 in SA and WA, Mungindi QLD 2406… — and are accepted for both. New Zealand postcodes
 * are four digits with no state to match.
 */
export const AU_STATES = ["ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA"] as const;
export type AuState = (typeof AU_STATES)[number];

/** Delivery and PO box ranges, inclusive; NT's and the ACT's low ranges are written with a leading zero (0800). */
export const AU_POSTCODE_RANGES: Readonly<Record<AuState, readonly (readonly [number, number])[]>> = {
  ACT: [
    [200, 299],
    [2600, 2618],
    [2900, 2920],
  ],
  NSW: [
    [1000, 2599],
    [2619, 2899],
    [2921, 2999],
  ],
  NT: [[800, 999]],
  QLD: [
    [4000, 4999],
    [9000, 9999],
  ],
  SA: [[5000, 5999]],
  TAS: [[7000, 7999]],
  VIC: [
    [3000, 3999],
    [8000, 8999],
  ],
  WA: [[6000, 6999]],
};

/** Places whose postcode lies in a neighbour's range. */
export const AU_BORDER_POSTCODES: Readonly<Partial<Record<AuState, readonly number[]>>> = {
  ACT: [2620],
  NSW: [3585, 3586, 3644, 3691, 3707, 4375, 4377, 4380, 4383, 4385],
  QLD: [2406],
  SA: [872],
  WA: [872],
};

/** Four digits. */
export const POSTCODE_PATTERN = /^\d{4}$/;

export const isAuState = (value: string): value is AuState => (AU_STATES as readonly string[]).includes(value);

/** Whether a four-digit Australian postcode belongs to the state. */
export function auPostcodeInState(postcode: string, state: AuState): boolean {
  if (!POSTCODE_PATTERN.test(postcode)) return false;
  const value = Number(postcode);
  if (AU_BORDER_POSTCODES[state]?.includes(value)) return true;
  return AU_POSTCODE_RANGES[state].some(([low, high]) => value >= low && value <= high);
}
