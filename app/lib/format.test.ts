import { describe, expect, it } from "vitest";
import {
  formatDateIn,
  formatDateTime,
  DEFAULT_TIME_ZONE,
  MAX_MONEY_CENTS,
  MONEY_ERRORS,
  ORDER_STATUSES,
  formatDate,
  formatFileSize,
  formatMoney,
  formatNumber,
  maskCardNumber,
  orderStatusLabel,
  ordinal,
  ordinalIn,
  parseMoneyToCents,
} from "./format";

/** Temporarily wraps Intl.NumberFormat to count constructor calls. */
function countNumberFormatConstructions(run: () => void): number {
  const Original = Intl.NumberFormat;
  let count = 0;
  const Counting = new Proxy(Original, {
    construct(target, args: unknown[]) {
      count += 1;
      return Reflect.construct(target, args) as object;
    },
  });
  Intl.NumberFormat = Counting;
  try {
    run();
  } finally {
    Intl.NumberFormat = Original;
  }
  return count;
}

describe("formatMoney", () => {
  it("formats integer cents as AUD in en-AU by default", () => {
    expect(formatMoney(123456)).toBe("$1,234.56");
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(1)).toBe("$0.01");
    expect(formatMoney(5)).toBe("$0.05");
    expect(formatMoney(10)).toBe("$0.10");
    expect(formatMoney(99)).toBe("$0.99");
    expect(formatMoney(100)).toBe("$1.00");
    expect(formatMoney(100000)).toBe("$1,000.00");
    expect(formatMoney(123456789)).toBe("$1,234,567.89");
  });

  it("formats negative amounts with a leading minus", () => {
    expect(formatMoney(-1200)).toBe("-$12.00");
    expect(formatMoney(-1)).toBe("-$0.01");
    expect(formatMoney(-123456)).toBe("-$1,234.56");
  });

  it("treats -0 as zero (no '-$0.00')", () => {
    expect(formatMoney(-0)).toBe("$0.00");
  });

  it("formats the largest safe integers exactly (no float division)", () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER)).toBe("$90,071,992,547,409.91");
    expect(formatMoney(Number.MIN_SAFE_INTEGER)).toBe("-$90,071,992,547,409.91");
    expect(formatMoney(9_007_199_254_740_987)).toBe("$90,071,992,547,409.87");
    expect(formatMoney(9_999_999_999)).toBe("$99,999,999.99");
  });

  it("never rounds: every cent value round-trips digit for digit", () => {
    const samples = [
      0,
      1,
      9,
      10,
      29,
      57,
      99,
      101,
      115,
      199,
      1005,
      1015,
      4_035,
      100_001,
      999_999,
      1_000_000_001,
      123_456_789_012_345,
      Number.MAX_SAFE_INTEGER - 6,
    ];
    for (let i = 0; i < 2000; i += 7) samples.push(i, Number.MAX_SAFE_INTEGER - i);
    for (const cents of samples) {
      const digits = String(cents).padStart(3, "0");
      const expectedCents = digits.slice(-2);
      const expectedDollars = BigInt(digits.slice(0, -2)).toLocaleString("en-AU");
      expect(formatMoney(cents)).toBe(`$${expectedDollars}.${expectedCents}`);
    }
  });

  it("throws RangeError for non-integer cents", () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
    expect(() => formatMoney(12.34)).toThrow(RangeError);
    expect(() => formatMoney(0.1 + 0.2)).toThrow(RangeError);
    expect(() => formatMoney(-0.5)).toThrow(RangeError);
  });

  it("throws RangeError for NaN, Infinity and unsafe integers", () => {
    expect(() => formatMoney(Number.NaN)).toThrow(RangeError);
    expect(() => formatMoney(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatMoney(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatMoney(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(() => formatMoney(Number.MIN_SAFE_INTEGER - 1)).toThrow(RangeError);
    expect(() => formatMoney(1e21)).toThrow(RangeError);
  });

  it("throws RangeError for non-number input at runtime", () => {
    expect(() => formatMoney("100" as unknown as number)).toThrow(RangeError);
    expect(() => formatMoney(null as unknown as number)).toThrow(RangeError);
    expect(() => formatMoney(100n as unknown as number)).toThrow(RangeError);
  });

  it("shows NZD as '$' in en-NZ", () => {
    expect(formatMoney(123456, { currency: "NZD", locale: "en-NZ" })).toBe("$1,234.56");
    expect(formatMoney(-500, { currency: "NZD", locale: "en-NZ" })).toBe("-$5.00");
  });

  it("disambiguates foreign currencies as Intl does", () => {
    expect(formatMoney(1234, { currency: "AUD", locale: "en-US", currencyDisplay: "code" })).toBe("AUD\u00a012.34");
    expect(formatMoney(1234, { currency: "USD", locale: "en-US" })).toBe("$12.34");
    expect(formatMoney(1234, { currency: "USD" })).toBe("USD\u00a012.34");
  });

  it("shows a host's own dollars as '$' in any locale, and the code only when asked (decision 078)", () => {
    expect(formatMoney(131897, { currency: "NZD" })).toBe("$1,318.97");
    expect(formatMoney(131897, { currency: "AUD" })).toBe("$1,318.97");
    expect(formatMoney(131897, { currency: "NZD", locale: "id" })).toBe("$1.318,97");
    expect(formatMoney(131897, { currency: "NZD", currencyDisplay: "code" })).toBe("NZD\u00a01,318.97");
    expect(formatMoney(-500, { currency: "NZD" })).toBe("-$5.00");
  });

  it("accepts a lower-case currency code", () => {
    expect(formatMoney(1234, { currency: "aud" })).toBe("$12.34");
  });

  it("uses the locale's separators", () => {
    expect(formatMoney(123456, { currency: "EUR", locale: "de-DE" })).toBe("1.234,56\u00a0€");
  });

  it("treats cents as the currency's minor unit", () => {
    // JPY has no minor unit; KWD has three.
    expect(formatMoney(1234, { currency: "JPY" })).toBe("JPY\u00a01,234");
    expect(formatMoney(1234, { currency: "KWD" })).toBe("KWD\u00a01.234");
    expect(formatMoney(5, { currency: "KWD" })).toBe("KWD\u00a00.005");
  });

  it("throws RangeError for an invalid currency code", () => {
    expect(() => formatMoney(100, { currency: "DOLLARS" })).toThrow(RangeError);
  });

  it("caches one Intl.NumberFormat per (locale, currency)", () => {
    const count = countNumberFormatConstructions(() => {
      formatMoney(100, { currency: "GBP", locale: "en-GB" });
      formatMoney(200, { currency: "GBP", locale: "en-GB" });
      formatMoney(300, { currency: "GBP", locale: "en-GB" });
      formatMoney(100, { currency: "CHF", locale: "en-GB" });
      formatMoney(200, { currency: "CHF", locale: "en-GB" });
      formatMoney(100, { currency: "GBP", locale: "en-IE" });
    });
    expect(count).toBe(3);
  });
});

describe("formatNumber", () => {
  it("adds thousands separators", () => {
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber(1000)).toBe("1,000");
    expect(formatNumber(999)).toBe("999");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(-1234567)).toBe("-1,234,567");
  });

  it("handles large numbers", () => {
    expect(formatNumber(Number.MAX_SAFE_INTEGER)).toBe("9,007,199,254,740,991");
    expect(formatNumber(1e21)).toBe("1,000,000,000,000,000,000,000");
  });

  it("uses Intl's default of three fraction digits", () => {
    expect(formatNumber(1.23456)).toBe("1.235");
    expect(formatNumber(1234.5)).toBe("1,234.5");
  });

  it("respects maximumFractionDigits", () => {
    expect(formatNumber(1234.5678, { maximumFractionDigits: 2 })).toBe("1,234.57");
    expect(formatNumber(1234.5, { maximumFractionDigits: 0 })).toBe("1,235");
    expect(formatNumber(0.5, { maximumFractionDigits: 0 })).toBe("1");
  });

  it("respects the locale", () => {
    expect(formatNumber(1234567.891, { locale: "de-DE", maximumFractionDigits: 2 })).toBe("1.234.567,89");
    expect(formatNumber(1234567, { locale: "en-US" })).toBe("1,234,567");
  });

  it("never shows -0", () => {
    expect(formatNumber(-0)).toBe("0");
    expect(formatNumber(-0.0001)).toBe("0");
    expect(formatNumber(-0.4, { maximumFractionDigits: 0 })).toBe("0");
  });

  it("returns '' for non-finite values", () => {
    expect(formatNumber(Number.NaN)).toBe("");
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe("");
    expect(formatNumber(Number.NEGATIVE_INFINITY)).toBe("");
  });
});

describe("formatDate", () => {
  it("exports the default time zone", () => {
    expect(DEFAULT_TIME_ZONE).toBe("Australia/Sydney");
  });

  it("formats as a short US date", () => {
    expect(formatDate(new Date("2026-11-22T03:00:00Z"))).toBe("Nov 22, 2026");
    expect(formatDate(new Date("2026-01-05T03:00:00Z"))).toBe("Jan 5, 2026");
  });

  it("applies the time zone at the day boundary", () => {
    const instant = "2026-11-22T13:30:00Z";
    expect(formatDate(instant)).toBe("Nov 23, 2026");
    expect(formatDate(instant, { timeZone: "Australia/Sydney" })).toBe("Nov 23, 2026");
    expect(formatDate(instant, { timeZone: "UTC" })).toBe("Nov 22, 2026");
    expect(formatDate(new Date(instant))).toBe("Nov 23, 2026");
    expect(formatDate(new Date(instant), { timeZone: "UTC" })).toBe("Nov 22, 2026");
    // Sydney is UTC+11 in November (daylight time): 12:59Z is still the 22nd.
    expect(formatDate("2026-11-22T12:59:59Z")).toBe("Nov 22, 2026");
    expect(formatDate("2026-11-22T13:00:00Z")).toBe("Nov 23, 2026");
    // ...and UTC+10 in June.
    expect(formatDate("2026-06-22T13:59:59Z")).toBe("Jun 22, 2026");
    expect(formatDate("2026-06-22T14:00:00Z")).toBe("Jun 23, 2026");
  });

  it("supports other IANA zones", () => {
    expect(formatDate("2026-11-22T05:00:00Z", { timeZone: "America/Los_Angeles" })).toBe("Nov 21, 2026");
    expect(formatDate("2026-11-22T05:00:00Z", { timeZone: "Pacific/Auckland" })).toBe("Nov 22, 2026");
    expect(formatDate("2026-11-22T12:00:00Z", { timeZone: "Pacific/Auckland" })).toBe("Nov 23, 2026");
  });

  it("honours explicit offsets in strings", () => {
    expect(formatDate("2026-11-22T13:30:00+10:00", { timeZone: "UTC" })).toBe("Nov 22, 2026");
    expect(formatDate("2026-11-22T08:30:00+10:00", { timeZone: "UTC" })).toBe("Nov 21, 2026");
    expect(formatDate("2026-11-22T20:00:00-05:00", { timeZone: "UTC" })).toBe("Nov 23, 2026");
    expect(formatDate("2026-11-22T20:00:00.123-0500", { timeZone: "UTC" })).toBe("Nov 23, 2026");
    expect(formatDate("2026-11-22 13:30:00z", { timeZone: "UTC" })).toBe("Nov 22, 2026");
  });

  it("never shifts an ISO date-only string across time zones", () => {
    for (const timeZone of [
      undefined,
      "UTC",
      "Australia/Sydney",
      "Pacific/Kiritimati", // UTC+14
      "Pacific/Pago_Pago", // UTC-11
      "America/Los_Angeles",
    ]) {
      expect(formatDate("2026-11-22", { timeZone })).toBe("Nov 22, 2026");
      expect(formatDate("2026-01-01", { timeZone })).toBe("Jan 1, 2026");
      expect(formatDate("2026-12-31", { timeZone })).toBe("Dec 31, 2026");
    }
  });

  it("treats a date-time without an offset as a wall-clock calendar date", () => {
    expect(formatDate("2026-11-22T23:59", { timeZone: "Pacific/Kiritimati" })).toBe("Nov 22, 2026");
    expect(formatDate("2026-11-22T00:00:00", { timeZone: "America/Los_Angeles" })).toBe("Nov 22, 2026");
  });

  it("does not depend on the host's time zone", () => {
    const previous = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      expect(formatDate("2026-11-22")).toBe("Nov 22, 2026");
      expect(formatDate("2026-11-22T13:30:00Z")).toBe("Nov 23, 2026");
      expect(formatDate("2026-11-22T13:30:00Z", { timeZone: "UTC" })).toBe("Nov 22, 2026");
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });

  it("trims surrounding whitespace", () => {
    expect(formatDate("  2026-11-22\n", { timeZone: "UTC" })).toBe("Nov 22, 2026");
  });

  it("handles leap days", () => {
    expect(formatDate("2024-02-29")).toBe("Feb 29, 2024");
    expect(formatDate("2000-02-29")).toBe("Feb 29, 2000");
    expect(formatDate("2025-02-29")).toBe("");
    expect(formatDate("1900-02-29")).toBe("");
  });

  it("returns '' for invalid dates, never 'Invalid Date' and never throws", () => {
    const bad: unknown[] = [
      "",
      "   ",
      "nope",
      "Invalid Date",
      "2026-13-01",
      "2026-00-10",
      "2026-11-00",
      "2026-11-31",
      "2026-02-30",
      "2026-11-22T24:00",
      "2026-11-22T10:60",
      "2026-11-22T10:00:60Z",
      "2026-11-22T10:00:00+24:00",
      "2026-11-22T",
      "2026-11-2",
      "26-11-22",
      "20261122",
      "2026/11/22",
      // Non-ISO strings are engine-dependent, so they're rejected.
      "Nov 22 2026",
      "Sun Nov 22 2026 10:00:00 GMT+1100",
      new Date(Number.NaN),
      new Date("garbage"),
      null,
      undefined,
      12345,
      {},
    ];
    for (const value of bad) {
      expect(() => formatDate(value as Date | string)).not.toThrow();
      expect(formatDate(value as Date | string)).toBe("");
    }
  });

  it("handles the edges of the Date range", () => {
    expect(formatDate(new Date(8.64e15), { timeZone: "UTC" })).toBe("Sep 13, 275760");
    expect(formatDate(new Date(0), { timeZone: "UTC" })).toBe("Jan 1, 1970");
    expect(formatDate("0001-01-01")).toBe("Jan 1, 1");
    expect(formatDate("9999-12-31")).toBe("Dec 31, 9999");
  });

  it("falls back to the default zone for unknown time-zone names", () => {
    const instant = "2026-11-22T13:30:00Z";
    for (const timeZone of ["Mars/Olympus_Mons", "not a zone", "", "UTC+25"]) {
      expect(() => formatDate(instant, { timeZone })).not.toThrow();
      expect(formatDate(instant, { timeZone })).toBe("Nov 23, 2026");
    }
    expect(formatDate("2026-11-22", { timeZone: "Mars/Olympus_Mons" })).toBe("Nov 22, 2026");
  });

  it("accepts case-insensitive zone names like Intl does", () => {
    expect(formatDate("2026-11-22T13:30:00Z", { timeZone: "utc" })).toBe("Nov 22, 2026");
  });
});

describe("ordinal", () => {
  it.each([
    [1, "1st"],
    [2, "2nd"],
    [3, "3rd"],
    [4, "4th"],
    [9, "9th"],
    [10, "10th"],
    [11, "11th"],
    [12, "12th"],
    [13, "13th"],
    [14, "14th"],
    [21, "21st"],
    [22, "22nd"],
    [23, "23rd"],
    [24, "24th"],
    [100, "100th"],
    [101, "101st"],
    [102, "102nd"],
    [103, "103rd"],
    [111, "111th"],
    [112, "112th"],
    [113, "113th"],
    [1001, "1001st"],
    [1011, "1011th"],
    [0, "0th"],
    [-1, "-1st"],
    [-2, "-2nd"],
    [-3, "-3rd"],
    [-11, "-11th"],
    [-21, "-21st"],
  ])("ordinal(%d) → %s", (n, expected) => {
    expect(ordinal(n)).toBe(expected);
  });

  it("treats -0 as 0", () => {
    expect(ordinal(-0)).toBe("0th");
  });

  it("handles large integers without separators or exponents", () => {
    expect(ordinal(1_000_001)).toBe("1000001st");
    expect(ordinal(Number.MAX_SAFE_INTEGER)).toBe("9007199254740991st");
    expect(ordinal(1e21)).toBe("1000000000000000000000th");
  });

  it("returns '' for non-integers", () => {
    expect(ordinal(1.5)).toBe("");
    expect(ordinal(Number.NaN)).toBe("");
    expect(ordinal(Number.POSITIVE_INFINITY)).toBe("");
    expect(ordinal("1" as unknown as number)).toBe("");
  });
});

describe("maskCardNumber", () => {
  it("shows the first digit and last four of a 16-digit card", () => {
    expect(maskCardNumber("4111111111111111")).toBe("4••• •••• •••• 1111");
    expect(maskCardNumber("5555555555554444")).toBe("5••• •••• •••• 4444");
  });

  it("ignores spaces and dashes", () => {
    expect(maskCardNumber("4111 1111 1111 1111")).toBe("4••• •••• •••• 1111");
    expect(maskCardNumber("4111-1111-1111-1111")).toBe("4••• •••• •••• 1111");
    expect(maskCardNumber(" 4111 1111-1111 1111 ")).toBe("4••• •••• •••• 1111");
  });

  it("keeps the input length and groups from the right", () => {
    expect(maskCardNumber("378282246310005")).toBe("3•• •••• •••• 0005"); // Amex, 15
    expect(maskCardNumber("4111111111111111111")).toBe("4•• •••• •••• •••• 1111"); // 19
    expect(maskCardNumber("411111111234")).toBe("4••• •••• 1234"); // 12
  });

  it("never reveals more than the first digit and last four", () => {
    const pan = "4929123456789012";
    const masked = maskCardNumber(pan);
    expect(masked.replace(/[^\d]/g, "")).toBe("49012");
    expect(masked).not.toContain("1234");
    for (let len = 0; len <= 25; len += 1) {
      const digits = "7".repeat(len);
      const shown = maskCardNumber(digits).replace(/[^\d]/g, "").length;
      expect(shown).toBeLessThanOrEqual(5);
    }
  });

  it("reveals nothing for fewer than 12 digits", () => {
    expect(maskCardNumber("")).toBe("••••");
    expect(maskCardNumber("1")).toBe("••••");
    expect(maskCardNumber("1234")).toBe("••••");
    expect(maskCardNumber("12345")).toBe("••••");
    expect(maskCardNumber("41111111111")).toBe("••••");
    expect(maskCardNumber("   ")).toBe("••••");
    expect(maskCardNumber("----")).toBe("••••");
  });

  it("reveals nothing for input with other characters", () => {
    expect(maskCardNumber("4111x11111111111")).toBe("••••");
    expect(maskCardNumber("4••• •••• •••• 1111")).toBe("••••");
    expect(maskCardNumber("************1111")).toBe("••••");
    expect(maskCardNumber("4111.1111.1111.1111")).toBe("••••");
    expect(maskCardNumber("４１１１１１１１１１１１１１１１")).toBe("••••"); // full-width digits
  });

  it("masks the stored { firstDigit, lastFour } form as a 16-digit card", () => {
    expect(maskCardNumber({ firstDigit: "4", lastFour: "1111" })).toBe("4••• •••• •••• 1111");
    expect(maskCardNumber({ firstDigit: "3", lastFour: "0005" })).toBe("3••• •••• •••• 0005");
    expect(maskCardNumber({ firstDigit: " 5 ", lastFour: " 4444 " })).toBe("5••• •••• •••• 4444");
  });

  it("masks an invalid first digit and rejects an invalid last four", () => {
    expect(maskCardNumber({ firstDigit: "", lastFour: "1111" })).toBe("•••• •••• •••• 1111");
    expect(maskCardNumber({ firstDigit: "41", lastFour: "1111" })).toBe("•••• •••• •••• 1111");
    expect(maskCardNumber({ firstDigit: "x", lastFour: "1111" })).toBe("•••• •••• •••• 1111");
    expect(maskCardNumber({ firstDigit: "4", lastFour: "111" })).toBe("••••");
    expect(maskCardNumber({ firstDigit: "4", lastFour: "11111" })).toBe("••••");
    expect(maskCardNumber({ firstDigit: "4", lastFour: "abcd" })).toBe("••••");
    expect(
      maskCardNumber({ firstDigit: 4, lastFour: 1111 } as unknown as {
        firstDigit: string;
        lastFour: string;
      }),
    ).toBe("••••");
    expect(maskCardNumber(null as unknown as string)).toBe("••••");
  });
});

describe("formatFileSize", () => {
  it.each([
    [0, "0 B"],
    [1, "1 B"],
    [999, "999 B"],
    [1000, "1,000 B"],
    [1023, "1,023 B"],
    [1024, "1 KB"],
    [1075, "1 KB"],
    [1076, "1.1 KB"],
    [1536, "1.5 KB"],
    [2048, "2 KB"],
    [10 * 1024 + 512, "10.5 KB"],
    [1023 * 1024, "1,023 KB"],
    [1024 * 1024 - 1, "1 MB"], // would be "1,024 KB": promoted instead
    [1048576, "1 MB"],
    [1.25 * 1024 ** 2, "1.3 MB"],
    [500 * 1024 ** 2, "500 MB"],
    [1024 ** 3 - 1, "1 GB"],
    [1024 ** 3, "1 GB"],
    [5 * 1024 ** 3, "5 GB"],
    [5.5 * 1024 ** 3, "5.5 GB"],
    [1023.9 * 1024 ** 3, "1,023.9 GB"],
    [1024 ** 4, "1,024 GB"],
    [2 * 1024 ** 4, "2,048 GB"],
    [1024 ** 5, "1,048,576 GB"],
  ])("formatFileSize(%d) → %s", (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });

  it("never shows a trailing .0", () => {
    for (const bytes of [1024, 2048, 1024 ** 2, 3 * 1024 ** 2, 1024 ** 3, 1024 ** 4]) {
      expect(formatFileSize(bytes)).not.toMatch(/\.0\b/);
    }
  });

  it("shows at most one decimal", () => {
    for (let bytes = 1024; bytes < 1024 ** 4; bytes = Math.floor(bytes * 1.37) + 11) {
      expect(formatFileSize(bytes)).toMatch(/^[\d,]+(\.\d)? (KB|MB|GB)$/);
    }
  });

  it("rounds fractional byte counts to whole bytes", () => {
    expect(formatFileSize(1.4)).toBe("1 B");
    expect(formatFileSize(0.4)).toBe("0 B");
    expect(formatFileSize(1023.6)).toBe("1 KB");
  });

  it("returns '0 B' for negative, NaN and infinite input", () => {
    expect(formatFileSize(-1)).toBe("0 B");
    expect(formatFileSize(-1024)).toBe("0 B");
    expect(formatFileSize(-0)).toBe("0 B");
    expect(formatFileSize(Number.NaN)).toBe("0 B");
    expect(formatFileSize(Number.POSITIVE_INFINITY)).toBe("0 B");
    expect(formatFileSize(Number.NEGATIVE_INFINITY)).toBe("0 B");
  });
});

describe("ORDER_STATUSES / orderStatusLabel", () => {
  it("defines the eight statuses", () => {
    expect(ORDER_STATUSES).toEqual({
      1: "Open",
      2: "Closed",
      3: "Overdue",
      4: "Archived",
      5: "On Hold",
      6: "Disputed",
      7: "Promise",
      8: "Broken Promise",
    });
    expect(Object.isFrozen(ORDER_STATUSES)).toBe(true);
  });

  it.each([
    [1, "Open"],
    [2, "Closed"],
    [3, "Overdue"],
    [4, "Archived"],
    [5, "On Hold"],
    [6, "Disputed"],
    [7, "Promise"],
    [8, "Broken Promise"],
  ])("maps %d to %s", (code, label) => {
    expect(orderStatusLabel(code)).toBe(label);
  });

  it("accepts integer-looking strings and bigints", () => {
    expect(orderStatusLabel("1")).toBe("Open");
    expect(orderStatusLabel("8")).toBe("Broken Promise");
    expect(orderStatusLabel(" 5 ")).toBe("On Hold");
    expect(orderStatusLabel("07")).toBe("Promise");
    expect(orderStatusLabel(3n)).toBe("Overdue");
    expect(orderStatusLabel(1.0)).toBe("Open");
  });

  it("returns 'Other' for anything else", () => {
    const others: unknown[] = [
      0,
      9,
      -1,
      100,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      "0",
      "9",
      "-1",
      "+1",
      "1.0",
      "1e0",
      "0x1",
      "",
      " ",
      "Open",
      "１", // full-width digit
      "constructor",
      "toString",
      "__proto__",
      null,
      undefined,
      true,
      false,
      [1],
      { code: 1 },
      { valueOf: () => 1 },
      9n,
      Symbol("1"),
    ];
    for (const code of others) expect(orderStatusLabel(code)).toBe("Other");
  });
});

describe("parseMoneyToCents", () => {
  it.each([
    ["12", 1200],
    ["12.3", 1230],
    ["12.34", 1234],
    ["12.30", 1230],
    ["12.05", 1205],
    ["0.01", 1],
    ["0.1", 10],
    [".5", 50],
    [".05", 5],
    ["12.", 1200],
    ["1,234.56", 123456],
    ["1,234", 123400],
    ["12,345,678.90", 1234567890],
    [" $12.00 ", 1200],
    ["$12", 1200],
    ["$ 12.50", 1250],
    ["\t125.50\n", 12550],
    ["007", 700],
    ["0", 0],
    ["0.00", 0],
    ["$0", 0],
    ["99,999,999.99", 9999999999],
    ["99999999.99", 9999999999],
    ["000000000001.00", 100],
  ])("parses %j as %d cents", (input, cents) => {
    expect(parseMoneyToCents(input)).toEqual({ ok: true, cents });
  });

  it("is exact where floats are not", () => {
    // 0.29 * 100 === 28.999999999999996 and 1.005 * 100 === 100.49999999999999 in floating point.
    expect(parseMoneyToCents("0.29")).toEqual({ ok: true, cents: 29 });
    expect(parseMoneyToCents("4.35")).toEqual({ ok: true, cents: 435 });
    expect(parseMoneyToCents("1.15")).toEqual({ ok: true, cents: 115 });
    expect(parseMoneyToCents("9,999,999.99")).toEqual({ ok: true, cents: 999999999 });
    for (let cents = 0; cents < 5000; cents += 1) {
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
      expect(parseMoneyToCents(text)).toEqual({ ok: true, cents });
    }
  });

  it("round-trips through formatMoney", () => {
    for (const cents of [0, 1, 99, 100, 123456, 9999999999]) {
      expect(parseMoneyToCents(formatMoney(cents))).toEqual({ ok: true, cents });
    }
  });

  it("returns integer cents, never -0", () => {
    const result = parseMoneyToCents("0.00");
    expect(result.ok && Object.is(result.cents, 0)).toBe(true);
  });

  it("rejects empty input", () => {
    for (const input of ["", "   ", "$", "$ ", ".", "$."]) {
      expect(parseMoneyToCents(input)).toEqual({ ok: false, error: MONEY_ERRORS.format });
    }
  });

  it("rejects more than two decimal places", () => {
    for (const input of ["12.345", "12.340", "0.001", "1,234.567", ".123"]) {
      expect(parseMoneyToCents(input)).toEqual({ ok: false, error: MONEY_ERRORS.decimals });
    }
    expect(MONEY_ERRORS.decimals).toBe("Use at most two decimal places");
  });

  it("rejects negative amounts", () => {
    for (const input of ["-12", "-0", "-0.01", "-$12", "$-12", "- 12", " -12.50 ", "$ -1"]) {
      expect(parseMoneyToCents(input)).toEqual({ ok: false, error: MONEY_ERRORS.negative });
    }
  });

  it("rejects exponents, multiple dots, letters and other junk", () => {
    for (const input of [
      "1e3",
      "1E3",
      "1.5e2",
      "Infinity",
      "NaN",
      "1.2.3",
      "12..5",
      "abc",
      "12a",
      "a12",
      "12 dollars",
      "AUD 12",
      "12$",
      "$$12",
      "+12",
      "0x10",
      "1 234",
      "1_000",
      "１２", // full-width digits
      "--12",
    ]) {
      expect(parseMoneyToCents(input)).toEqual({ ok: false, error: MONEY_ERRORS.format });
    }
    expect(MONEY_ERRORS.format).toBe("Enter an amount like 125.50");
  });

  it("rejects misplaced thousands separators", () => {
    for (const input of ["1,23", "12,50", "1,2345", ",123", "123,", "1,,234", "1234,567", "1,234,5678.00"]) {
      expect(parseMoneyToCents(input)).toEqual({ ok: false, error: MONEY_ERRORS.format });
    }
  });

  it("rejects amounts above 99,999,999.99", () => {
    expect(MAX_MONEY_CENTS).toBe(9_999_999_999);
    for (const input of ["100,000,000", "100000000", "100000000.00", "999999999999999999999999", "1,000,000,000.01"]) {
      expect(parseMoneyToCents(input)).toEqual({ ok: false, error: MONEY_ERRORS.tooLarge });
    }
  });

  it("returns an error for non-string input at runtime", () => {
    expect(parseMoneyToCents(12 as unknown as string)).toEqual({
      ok: false,
      error: MONEY_ERRORS.format,
    });
    expect(parseMoneyToCents(null as unknown as string).ok).toBe(false);
  });

  it("uses plain-English error messages", () => {
    for (const message of Object.values(MONEY_ERRORS)) {
      expect(message).toMatch(/^[A-Z][\w ',.$]+$/);
    }
  });
});

describe("formatDateTime and formatDateIn (decision 078)", () => {
  it("writes 'Dec 13, 2026, 9:28 am' in the business's zone: no seconds, no zone name", () => {
    expect(formatDateTime(new Date("2026-12-12T22:28:59Z"), { timeZone: "Australia/Sydney" })).toBe(
      "Dec 13, 2026, 9:28 am",
    );
    expect(formatDateTime("2026-12-13T01:05:00Z", { timeZone: "Australia/Sydney" })).toBe("Dec 13, 2026, 12:05 pm");
    expect(formatDateTime("2026-12-12T13:05:00Z", { timeZone: "Australia/Sydney" })).toBe("Dec 13, 2026, 12:05 am");
    expect(formatDateTime("2026-12-12T22:28:00Z", { timeZone: "Pacific/Auckland" })).toBe("Dec 13, 2026, 11:28 am");
  });

  it("writes Indonesian as '13 Des 2026' and '13 Des 2026, 09.28'", () => {
    expect(formatDateIn("2026-12-13", { language: "ID" })).toBe("13 Des 2026");
    expect(formatDateIn("2026-08-01", { language: "ID" })).toBe("1 Agu 2026");
    expect(formatDateIn("2026-12-13")).toBe("Dec 13, 2026");
    expect(formatDateTime("2026-12-12T22:28:00Z", { timeZone: "Australia/Sydney", language: "ID" })).toBe(
      "13 Des 2026, 09.28",
    );
  });

  it("returns '' for what is not a date", () => {
    expect(formatDateTime("yesterday")).toBe("");
    expect(formatDateTime(new Date(Number.NaN))).toBe("");
    expect(formatDateIn("2026-02-30", { language: "ID" })).toBe("");
  });
});

describe("ordinalIn (spec §9: ordinals in each language's own way)", () => {
  it("is English's suffix in English and 'ke-' in Bahasa Indonesia", () => {
    expect(ordinalIn(1, "en-AU")).toBe("1st");
    expect(ordinalIn(22)).toBe("22nd");
    expect(ordinalIn(2, "id")).toBe("ke-2");
    expect(ordinalIn(11, "ID")).toBe("ke-11");
  });
  it("gives nothing for what is not a whole number", () => {
    expect(ordinalIn(1.5, "id")).toBe("");
    expect(ordinalIn(Number.NaN)).toBe("");
  });
});
