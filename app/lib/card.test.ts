import { describe, expect, it } from "vitest";
import { checkNzAccount, maskAccountNumber, parseAuAccountNumber, parseBsb } from "./bank-account";
import {
  cardDigits,
  detectBrand,
  formatExpiry,
  isExpired,
  parseExpiryMonth,
  parseExpiryYear,
  passesLuhn,
} from "./card";

describe("card numbers", () => {
  it("strips spaces and dashes, refuses anything else", () => {
    expect(cardDigits("4111 1111-1111 1111")).toBe("4111111111111111");
    expect(cardDigits("4111 1111 1111 111a")).toBeNull();
    expect(cardDigits("41111111111")).toBeNull();
    expect(cardDigits("4".repeat(20))).toBeNull();
  });

  it("checks Luhn", () => {
    expect(passesLuhn("4111111111111111")).toBe(true);
    expect(passesLuhn("4111111111111112")).toBe(false);
    expect(passesLuhn("378282246310005")).toBe(true);
    expect(passesLuhn("4111-1111")).toBe(false);
  });

  it.each([
    ["4111111111111111", "visa"],
    ["5555555555554444", "mastercard"],
    ["2223003122003222", "mastercard"],
    ["378282246310005", "amex"],
    ["36227206271667", "diners"],
    ["3530111333300000", "jcb"],
    ["6011111111111117", "discover"],
    ["41111111111111", null],
    ["9111111111111111", null],
  ])("brand of %s is %s", (digits, brand) => {
    expect(detectBrand(digits)).toBe(brand);
  });

  it("reads 2- and 4-digit years and 1–12 months", () => {
    expect(parseExpiryYear("27")).toBe(2027);
    expect(parseExpiryYear("2027")).toBe(2027);
    expect(parseExpiryYear("202")).toBeNull();
    expect(parseExpiryYear("1999")).toBeNull();
    expect(parseExpiryMonth("07")).toBe(7);
    expect(parseExpiryMonth("13")).toBeNull();
    expect(parseExpiryMonth("0")).toBeNull();
  });

  it("a card is good through the last day of its month", () => {
    expect(isExpired(11, 2026, "2026-11-30")).toBe(false);
    expect(isExpired(10, 2026, "2026-11-01")).toBe(true);
    expect(isExpired(1, 2027, "2026-12-31")).toBe(false);
    expect(formatExpiry(3, 2030)).toBe("03/30");
  });
});

describe("bank accounts", () => {
  it("BSB and Australian account numbers", () => {
    expect(parseBsb("062-000")).toBe("062000");
    expect(parseBsb("06A-000")).toBeNull();
    expect(parseAuAccountNumber("1234")).toBe("1234");
    expect(parseAuAccountNumber("123")).toBeNull();
    expect(parseAuAccountNumber("1234567890")).toBeNull();
  });

  it.each([
    ["01-0242-0100194-00", true], // algorithm A
    ["01-0242-0100195-00", false],
    ["08-6523-1954512-001", true], // D
    ["26-2600-0320871-032", true], // G
    ["26-2600-0320872-032", false],
    ["31-2800-0320871-032", true], // X: no check digit
  ])("New Zealand %s valid: %s", (number, valid) => {
    const [bank, branch, account, suffix] = number.split("-") as [string, string, string, string];
    expect(checkNzAccount({ bank, branch, account, suffix }).ok).toBe(valid);
  });

  it("refuses unknown NZ banks and malformed parts", () => {
    expect(checkNzAccount({ bank: "99", branch: "0242", account: "0100194", suffix: "00" })).toEqual({
      ok: false,
      problem: "bank",
    });
    expect(checkNzAccount({ bank: "1", branch: "0242", account: "0100194", suffix: "00" })).toEqual({
      ok: false,
      problem: "format",
    });
  });

  it("masks account numbers to the last three digits", () => {
    expect(maskAccountNumber("12345678")).toBe("•••••678");
    expect(maskAccountNumber("0100194-00")).toBe("••••194-00");
  });
});
