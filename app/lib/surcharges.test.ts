import { describe, expect, it } from "vitest";
import { feeRateLabel, surchargeRates, surchargeSentence, type SurchargeWords } from "./surcharges";

const words: SurchargeWords = {
  all: (rate) => `Paying by card adds ${rate}.`,
  some: (rates) => `Paying by card adds ${rates}.`,
  rate: (rate, cards) => `${rate} for ${cards}`,
  others: "other cards",
  and: " and ",
};

describe("card surcharges as a payer reads them", () => {
  it("names nothing when cards carry no surcharge", () => {
    expect(surchargeRates({ surcharge: {}, lateFee: null, earlyDiscount: null }, "AUD")).toEqual([]);
    expect(surchargeSentence([], words)).toBe("");
  });

  it("says one rate once when every card pays the same", () => {
    const rates = surchargeRates(
      { surcharge: { default: { bps: 150, fixedCents: 0 } }, lateFee: null, earlyDiscount: null },
      "AUD",
    );
    expect(rates).toEqual([{ brand: null, rate: "1.5%" }]);
    expect(surchargeSentence(rates, words)).toBe("Paying by card adds 1.5%.");
  });

  it("names brands that cost the same together, Visa first, then every other card", () => {
    const rates = surchargeRates(
      {
        surcharge: {
          visa: { bps: 120, fixedCents: 0 },
          mastercard: { bps: 120, fixedCents: 0 },
          amex: { bps: 250, fixedCents: 30 },
          default: { bps: 150, fixedCents: 0 },
        },
        lateFee: null,
        earlyDiscount: null,
      },
      "AUD",
    );
    expect(surchargeSentence(rates, words)).toBe(
      "Paying by card adds 1.2% for Visa and Mastercard, 2.5% + $0.30 for American Express and 1.5% for other cards.",
    );
  });

  it("leaves out a brand charged what every other card is, and a brand charged nothing", () => {
    const rates = surchargeRates(
      {
        surcharge: {
          visa: { bps: 150, fixedCents: 0 },
          amex: { bps: 0, fixedCents: 0 },
          default: { bps: 150, fixedCents: 0 },
        },
        lateFee: null,
        earlyDiscount: null,
      },
      "AUD",
    );
    expect(rates).toEqual([{ brand: null, rate: "1.5%" }]);
  });

  it("writes a rate exactly: percent without trailing zeros, a fixed part in the currency", () => {
    expect(feeRateLabel({ bps: 100, fixedCents: 0 }, "AUD")).toBe("1%");
    expect(feeRateLabel({ bps: 125, fixedCents: 0 }, "AUD")).toBe("1.25%");
    expect(feeRateLabel({ bps: 0, fixedCents: 50 }, "AUD")).toBe("$0.50");
    expect(feeRateLabel({ bps: 0, fixedCents: 0 }, "AUD")).toBeNull();
  });
});
