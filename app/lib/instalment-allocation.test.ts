import { describe, expect, it } from "vitest";
import { allocateInstalment } from "./instalment-allocation";

const invoice = (id: string, dueDate: string, balanceCents: number, availableCents = balanceCents) => ({
  id,
  dueDate,
  balanceCents,
  availableCents,
});

describe("allocateInstalment", () => {
  it("pays the oldest due invoice first, then the next, up to each one's balance", () => {
    const result = allocateInstalment(15_000, [invoice("b", "2026-03-01", 20_000), invoice("a", "2026-01-01", 10_000)]);
    expect(result).toEqual({
      allocations: [
        { invoiceId: "a", amountCents: 10_000, balanceBeforeCents: 10_000 },
        { invoiceId: "b", amountCents: 5_000, balanceBeforeCents: 20_000 },
      ],
      creditCents: 0,
    });
  });

  it("breaks a tie in due date by id, the order the engine locks invoices in", () => {
    const result = allocateInstalment(100, [invoice("z", "2026-01-01", 100), invoice("c", "2026-01-01", 100)]);
    expect(result.allocations.map((a) => a.invoiceId)).toEqual(["c"]);
  });

  it("keeps what no invoice can take as account credit", () => {
    const result = allocateInstalment(5_000, [invoice("a", "2026-01-01", 1_200)]);
    expect(result).toEqual({
      allocations: [{ invoiceId: "a", amountCents: 1_200, balanceBeforeCents: 1_200 }],
      creditCents: 3_800,
    });
    expect(allocateInstalment(700, [])).toEqual({ allocations: [], creditCents: 700 });
  });

  it("leaves to other payments in flight what they hold of a balance", () => {
    const result = allocateInstalment(1_000, [
      invoice("a", "2026-01-01", 800, 300),
      invoice("b", "2026-02-01", 500, 0),
      invoice("c", "2026-03-01", 2_000, 2_000),
    ]);
    expect(result.allocations).toEqual([
      { invoiceId: "a", amountCents: 300, balanceBeforeCents: 800 },
      { invoiceId: "c", amountCents: 700, balanceBeforeCents: 2_000 },
    ]);
    expect(result.creditCents).toBe(0);
  });

  it("never allocates more than the instalment, and refuses an amount that is not whole cents above zero", () => {
    const result = allocateInstalment(1, [invoice("a", "2026-01-01", 10_000)]);
    expect(result.allocations[0]!.amountCents).toBe(1);
    expect(() => allocateInstalment(0, [])).toThrow(RangeError);
    expect(() => allocateInstalment(10.5, [])).toThrow(RangeError);
  });
});
