import { describe, expect, it } from "vitest";
import { adhocAmountProblem, PAYER_REFERENCE_MAX, readPayerReference } from "./adhoc";

describe("the payer's reference of an ad-hoc payment", () => {
  it("keeps what was typed, trimmed and NFC-normalised, markup and SQL included (stored as text)", () => {
    expect(readPayerReference("  Job 42  ")).toEqual({ ok: true, value: "Job 42" });
    expect(readPayerReference("Cafe\u0301")).toEqual({ ok: true, value: "Café" });
    for (const hostile of [
      "<script>alert(1)</script>",
      "'; DROP TABLE payments; --",
      '=HYPERLINK("http://x")',
      "Lot 7 — 東京 👨‍👩‍👧 ½",
    ]) {
      expect(readPayerReference(hostile)).toEqual({ ok: true, value: hostile });
    }
  });

  it("needs one to 80 characters, counted as PostgreSQL counts them (code points)", () => {
    expect(readPayerReference("")).toEqual({ ok: false, error: "adhoc.error.reference.required" });
    expect(readPayerReference("   \u00a0 ")).toEqual({ ok: false, error: "adhoc.error.reference.required" });
    expect(readPayerReference(undefined)).toEqual({ ok: false, error: "adhoc.error.reference.required" });
    expect(readPayerReference("x".repeat(PAYER_REFERENCE_MAX)).ok).toBe(true);
    expect(readPayerReference("x".repeat(81))).toEqual({ ok: false, error: "adhoc.error.reference.tooLong" });
    // 80 emoji are 160 UTF-16 units but 80 characters.
    expect(readPayerReference("😀".repeat(80)).ok).toBe(true);
    expect(readPayerReference("😀".repeat(81))).toEqual({ ok: false, error: "adhoc.error.reference.tooLong" });
  });

  it("refuses control, separator and direction-changing characters, and broken text", () => {
    for (const bad of [
      "a\u0000b",
      "a\tb",
      "a\nb",
      "a\u007fb",
      "a\u0085b",
      "a\u2028b",
      "pay\u202emoc.evil",
      "a\u2066b",
      "a\ud800b",
      "a\udc00",
    ]) {
      expect(readPayerReference(bad), JSON.stringify(bad)).toEqual({
        ok: false,
        error: "adhoc.error.reference.characters",
      });
    }
  });
});

describe("an ad-hoc amount within the business's limits", () => {
  const limits = { minCents: 1_000, maxCents: 500_000 };
  it("takes the limits themselves and anything between", () => {
    for (const cents of [1_000, 1_001, 250_000, 500_000]) expect(adhocAmountProblem(cents, limits)).toBeNull();
  });
  it("names the limit an amount is outside", () => {
    expect(adhocAmountProblem(999, limits)).toBe("adhoc.error.amount.belowMinimum");
    expect(adhocAmountProblem(1, limits)).toBe("adhoc.error.amount.belowMinimum");
    expect(adhocAmountProblem(500_001, limits)).toBe("adhoc.error.amount.aboveMaximum");
  });
});
