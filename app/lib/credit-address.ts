import type { AuState } from "./credit-steps";

/**
 * Australian postcodes by state (Australia Post's ranges), so an application with "VIC 2000"
 * is caught at the field. A few border towns use a neighbouring state's postcode (Barooga NSW
 * 3644, Oaks Estate ACT 2620, the APY lands' 0872 in SA and WA, Mungindi QLD 2406…): those are
 * accepted for both states. New Zealand postcodes are four digits with no state to match.
 */
const RANGES: Record<AuState, [number, number][]> = {
  ACT: [
    [200, 299],
    [2600, 2620],
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

/** Border towns' postcodes that belong to a neighbour's range. */
const BORDER_POSTCODES: Partial<Record<AuState, number[]>> = {
  NSW: [3585, 3586, 3644, 3691, 3707, 4375, 4377, 4380, 4383, 4385],
  QLD: [2406],
  SA: [872],
  WA: [872],
};

/** Four digits (Australia Post writes NT's with a leading zero: 0800). */
export const POSTCODE_PATTERN = /^\d{4}$/;

/** Whether an Australian postcode belongs to the state. */
export function auPostcodeInState(postcode: string, state: AuState): boolean {
  if (!POSTCODE_PATTERN.test(postcode)) return false;
  const value = Number(postcode);
  if (BORDER_POSTCODES[state]?.includes(value)) return true;
  return RANGES[state].some(([low, high]) => value >= low && value <= high);
}
