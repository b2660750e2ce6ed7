import { describe, expect, it } from "vitest";
import { computeCreditPayment, computePayment, isOverdue, percentOf, type FeeRules } from "./payment-calc";

const RULES: FeeRules = {
  surcharge: {
    visa: { bps: 150, fixedCents: 0 },
    amex: { bps: 275, fixedCents: 30 },
    default: { bps: 200, fixedCents: 0 },
  },
  lateFee: { bps: 200, fixedCents: 500 },
  earlyDiscount: { bps: 100, daysBeforeDue: 7 },
};
const TODAY = "2026-11-23";

describe("percentOf: basis points, half up, exact", () => {
  it.each([
    [10_000, 150, 150],
    [333, 150, 5], // 4.995 → 5
    [100, 50, 1], // 0.5 → 1 (half up)
    [99, 50, 0], // 0.495 → 0
    [1, 1, 0],
    [0, 150, 0],
    [9_999_999_999, 10_000, 9_999_999_999],
    [123_456_789, 275, 3_395_062], // 3,395,061.6975 → 3,395,062
  ])("%i cents × %i bps = %i", (cents, bps, expected) => {
    expect(percentOf(cents, bps)).toBe(expected);
  });

  it("refuses fractions and negatives", () => {
    expect(() => percentOf(1.5, 100)).toThrow(RangeError);
    expect(() => percentOf(-1, 100)).toThrow(RangeError);
    expect(() => percentOf(100, 0.5)).toThrow(RangeError);
  });
});

describe("computePayment", () => {
  const invoice = (orderId: string, balanceCents: number, dueDate: string) => ({ orderId, balanceCents, dueDate });

  it("one invoice in full by Visa: surcharge on the total", () => {
    const result = computePayment(
      [invoice("a", 100_000, "2026-11-25")],
      { a: 100_000 },
      { kind: "card", brand: "visa" },
      RULES,
      TODAY,
    );
    expect(result).toMatchObject({
      subTotal: 100_000,
      totalLateFee: 0,
      totalDiscount: 0,
      merchantFeeComponent: 1_500,
      amount: 101_500,
      isPartPay: false,
      applyFee: true,
    });
    expect(result.orders[0]).toEqual({
      orderId: "a",
      balanceTotal: 100_000,
      partPayAmount: 0,
      paymentAmount: 100_000,
      discount: 0,
      merchantFee: 0,
      lateFee: 0,
    });
  });

  it("late fee on an overdue invoice, discount on an early one paid in full, surcharge on the net", () => {
    const result = computePayment(
      [
        invoice("late", 50_000, "2026-11-01"),
        invoice("early", 20_000, "2026-12-20"),
        invoice("part", 30_000, "2026-12-20"),
      ],
      { late: 50_000, early: 20_000, part: 10_001 },
      { kind: "card", brand: "amex" },
      RULES,
      TODAY,
    );
    expect(result.orders.map((o) => [o.orderId, o.lateFee, o.discount, o.partPayAmount])).toEqual([
      ["late", 1_500, 0, 0], // 2% of 500.00 + 5.00
      ["early", 0, 200, 0], // 1% early-payment discount
      ["part", 0, 0, 10_001], // part payments earn no discount
    ]);
    expect(result.subTotal).toBe(80_001);
    expect(result.totalLateFee).toBe(1_500);
    expect(result.totalDiscount).toBe(200);
    // (80,001 + 1,500 − 200) × 2.75% = 2,235.7775 → 2,236, plus 30 fixed.
    expect(result.merchantFeeComponent).toBe(2_266);
    expect(result.amount).toBe(80_001 + 1_500 - 200 + 2_266);
    expect(result).toMatchObject({ isPartPay: true, applyFee: true, applyLateFee: true });
  });

  it("PayTo pays no surcharge; an unknown brand pays the default", () => {
    const invoices = [invoice("a", 1_000, "2026-11-30")];
    expect(computePayment(invoices, { a: 1_000 }, { kind: "payto" }, RULES, TODAY).merchantFeeComponent).toBe(0);
    expect(
      computePayment(invoices, { a: 1_000 }, { kind: "card", brand: "jcb" }, RULES, TODAY).merchantFeeComponent,
    ).toBe(20);
  });

  it("due today is not overdue; the discount needs the full lead time", () => {
    expect(isOverdue(TODAY, TODAY)).toBe(false);
    expect(isOverdue("2026-11-22", TODAY)).toBe(true);
    const sixDays = computePayment(
      [invoice("a", 10_000, "2026-11-29")],
      { a: 10_000 },
      { kind: "payto" },
      RULES,
      TODAY,
    );
    const sevenDays = computePayment(
      [invoice("a", 10_000, "2026-11-30")],
      { a: 10_000 },
      { kind: "payto" },
      RULES,
      TODAY,
    );
    expect(sixDays.totalDiscount).toBe(0);
    expect(sevenDays.totalDiscount).toBe(100);
  });

  it.each([0, -1, 1.5, 100_001, Number.NaN])("refuses an amount of %d for a balance of 100,000", (amount) => {
    expect(() =>
      computePayment([invoice("a", 100_000, TODAY)], { a: amount }, { kind: "payto" }, RULES, TODAY),
    ).toThrow(RangeError);
  });

  it("refuses an invoice without an amount", () => {
    expect(() => computePayment([invoice("a", 100, TODAY)], {}, { kind: "payto" }, RULES, TODAY)).toThrow(RangeError);
  });
});

describe("computeCreditPayment: money that pays no invoice", () => {
  const cardRules: FeeRules = {
    surcharge: { visa: { bps: 150, fixedCents: 0 }, default: { bps: 200, fixedCents: 30 } },
    lateFee: { bps: 500, fixedCents: 1000 },
    earlyDiscount: { bps: 300, daysBeforeDue: 1 },
  };
  it("is the amount plus the card's surcharge, with no late fee or discount", () => {
    expect(computeCreditPayment(10_000, { kind: "card", brand: "visa" }, cardRules)).toMatchObject({
      orders: [],
      subTotal: 10_000,
      totalLateFee: 0,
      totalDiscount: 0,
      merchantFeeComponent: 150,
      amount: 10_150,
      applyFee: true,
    });
    // A brand without its own rate pays the default, fixed part included; half a cent rounds up.
    expect(computeCreditPayment(1_025, { kind: "card", brand: "amex" }, cardRules).merchantFeeComponent).toBe(21 + 30);
  });
  it("carries no surcharge by PayTo (spec §9)", () => {
    expect(computeCreditPayment(999, { kind: "payto" }, cardRules)).toMatchObject({ amount: 999, applyFee: false });
  });
  it("refuses zero, negative and fractional cents", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => computeCreditPayment(bad, { kind: "payto" }, cardRules)).toThrow(RangeError);
    }
  });
});
