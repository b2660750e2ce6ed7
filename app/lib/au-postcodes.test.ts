import { describe, expect, it } from "vitest";
import { AU_BORDER_POSTCODES, AU_POSTCODE_RANGES, AU_STATES, auPostcodeInState, type AuState } from "./au-postcodes";

const four = (value: number) => String(value).padStart(4, "0");

describe("auPostcodeInState (Australia Post's ranges)", () => {
  // The cases both address forms had (credit applications and response requests), unchanged.
  it.each([
    ["2000", "NSW", true],
    ["2600", "ACT", true],
    ["2600", "NSW", false],
    ["2620", "NSW", true],
    ["0200", "ACT", true],
    ["0800", "NT", true],
    ["3000", "VIC", true],
    ["8001", "VIC", true],
    ["4000", "QLD", true],
    ["9726", "QLD", true],
    ["5000", "SA", true],
    ["6000", "WA", true],
    ["7000", "TAS", true],
    ["7000", "VIC", false],
    ["0100", "NT", false],
    ["3644", "NSW", true],
    ["3000", "NSW", false],
    ["0872", "SA", true],
    ["abcd", "QLD", false],
  ] as const)("%s in %s: %s", (postcode, state, expected) => {
    expect(auPostcodeInState(postcode, state)).toBe(expected);
  });

  // Where the two copies disagreed: 2619 is Jerrabomberra, New South Wales; 2620 is Queanbeyan NSW and,
  // across the border, Oaks Estate and Hume in the ACT.
  it("puts 2619 in New South Wales only, and 2620 in both", () => {
    expect(auPostcodeInState("2618", "ACT")).toBe(true);
    expect(auPostcodeInState("2619", "ACT")).toBe(false);
    expect(auPostcodeInState("2619", "NSW")).toBe(true);
    expect(auPostcodeInState("2620", "ACT")).toBe(true);
    expect(auPostcodeInState("2620", "NSW")).toBe(true);
    expect(auPostcodeInState("2921", "ACT")).toBe(false);
  });

  it("accepts the border towns for their own state and their neighbour's", () => {
    expect(auPostcodeInState("3644", "NSW")).toBe(true); // Barooga
    expect(auPostcodeInState("3644", "VIC")).toBe(true);
    expect(auPostcodeInState("2406", "QLD")).toBe(true); // Mungindi
    expect(auPostcodeInState("0872", "WA")).toBe(true); // the APY lands
    expect(auPostcodeInState("0872", "NT")).toBe(true);
    expect(auPostcodeInState("0872", "VIC")).toBe(false);
  });

  it("takes exactly four digits", () => {
    for (const postcode of ["200", "02000", " 2000", "2000 ", "２０００", "", "2e3", "-200"])
      expect(auPostcodeInState(postcode, "NSW"), postcode).toBe(false);
  });

  // Australia Post's published ranges: every postcode belongs to exactly one state or territory by range,
  // but for the numbers no range holds (0000-0199 and 0300-0799); a second state only through the border list.
  it("gives every postcode one state by range, and the border list only what lies in a neighbour's range", () => {
    for (let value = 0; value <= 9999; value += 1) {
      const owners = AU_STATES.filter((state) =>
        AU_POSTCODE_RANGES[state].some(([low, high]) => value >= low && value <= high),
      );
      expect(owners.length, four(value)).toBe(value < 200 || (value >= 300 && value < 800) ? 0 : 1);
    }
    for (const [state, postcodes] of Object.entries(AU_BORDER_POSTCODES) as [AuState, number[]][]) {
      for (const value of postcodes) {
        const inOwnRange = AU_POSTCODE_RANGES[state].some(([low, high]) => value >= low && value <= high);
        expect(inOwnRange, `${four(value)} listed as a border postcode of ${state}`).toBe(false);
      }
    }
  });
});
