import { describe, expect, it } from "vitest";
import { businessNumberDigits, checkBusinessNumber, formatBusinessNumber } from "./business-numbers";

/**
 * ABN, ACN and NZBN check digits (issue 17; decision 038). The valid numbers are real-format
 * numbers whose check digits are right: the ATO's own worked example (51 824 753 556), and
 * listed companies' ABNs and ACNs as the ABR shows them; NZBNs in the 94 prefix with a GS1 check
 * digit. Every wrong number differs from a valid one in one way only, so the test shows which
 * rule refused it.
 */
describe("ABN", () => {
  it.each([
    "51 824 753 556", // the ATO's example in "Format of the ABN"
    "33 051 775 556", // Telstra
    "49 004 028 077", // BHP
    "88 000 014 675", // Woolworths
    "53004085616",
    " 51-824-753-556 ",
    "51.824.753.556",
  ])("accepts %s", (input) => {
    const result = checkBusinessNumber("abn", input);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.digits).toMatch(/^\d{11}$/);
  });

  it("gives the bare digits and the register's format", () => {
    expect(checkBusinessNumber("abn", "51 824 753 556")).toEqual({ ok: true, digits: "51824753556" });
    expect(formatBusinessNumber("abn", "51824753556")).toBe("51 824 753 556");
  });

  it.each([
    ["51 824 753 557", "checksum"], // last digit off by one
    ["15 824 753 556", "checksum"], // two digits swapped
    ["01 824 753 556", "checksum"], // a leading zero
    ["00 000 000 000", "checksum"],
    ["51 824 753 55", "length"],
    ["51 824 753 5566", "length"],
    ["", "characters"],
    ["   ", "characters"],
    ["51 824 753 55O", "characters"], // a letter O for a zero
    ["-51 824 753 556", "characters"],
    ["51 824 753 556-", "characters"],
    ["５１８２４７５３５５６", "characters"], // full-width digits
    ["51\u00a0824\u00a0753\u00a0556", "characters"], // no-break spaces are not what people type
    ["<b>51824753556</b>", "characters"],
    ["51824753556' OR '1'='1", "characters"],
    ["1e10", "characters"],
  ])("refuses %j (%s)", (input, problem) => {
    expect(checkBusinessNumber("abn", input)).toEqual({ ok: false, problem });
  });

  it("refuses what is not a string", () => {
    expect(checkBusinessNumber("abn", 51824753556 as unknown as string)).toEqual({ ok: false, problem: "characters" });
  });
});

describe("ACN", () => {
  it.each([
    "004 028 077", // BHP
    "051 775 556", // Telstra
    "000 014 675", // Woolworths
    "000 000 019", // ASIC's first example
    "010 749 961",
    "004085616",
  ])("accepts %s", (input) => {
    expect(checkBusinessNumber("acn", input).ok).toBe(true);
  });

  it("gives the bare digits and the register's format", () => {
    expect(checkBusinessNumber("acn", "004 028 077")).toEqual({ ok: true, digits: "004028077" });
    expect(formatBusinessNumber("acn", "004028077")).toBe("004 028 077");
  });

  it.each([
    ["004 028 078", "checksum"],
    ["040 028 077", "checksum"],
    ["000 000 000", "checksum"], // the arithmetic passes, but it is no company's number
    ["004 028 07", "length"],
    ["51 824 753 556", "length"], // an ABN in the ACN field
    ["ACN 004 028 077", "characters"],
    ["004/028/077", "characters"],
  ])("refuses %j (%s)", (input, problem) => {
    expect(checkBusinessNumber("acn", input)).toEqual({ ok: false, problem });
  });
});

describe("NZBN", () => {
  it.each(["9429041535134", "9429000106078", "9429039594310", "9429 0415 35134"])("accepts %s", (input) => {
    expect(checkBusinessNumber("nzbn", input).ok).toBe(true);
  });

  it.each([
    ["9429041535135", "checksum"],
    ["9429014535134", "checksum"],
    ["942904153513", "length"],
    ["94290415351340", "length"],
    ["9329041535134", "prefix"], // a GTIN of another country's GS1 prefix
    ["0000000000000", "prefix"],
    ["94290415351 34x", "characters"],
  ])("refuses %j (%s)", (input, problem) => {
    expect(checkBusinessNumber("nzbn", input)).toEqual({ ok: false, problem });
  });

  it("is shown as its 13 digits", () => {
    expect(formatBusinessNumber("nzbn", "9429041535134")).toBe("9429041535134");
  });
});

describe("typing", () => {
  it("drops the separators people type and nothing else", () => {
    expect(businessNumberDigits("12 345-678.9")).toBe("123456789");
    expect(businessNumberDigits("12  345")).toBe("12345");
    expect(businessNumberDigits("12_345")).toBeNull();
    expect(businessNumberDigits(" 123 ")).toBe("123");
  });

  it("leaves a number of the wrong shape as it is when formatting", () => {
    expect(formatBusinessNumber("abn", "123")).toBe("123");
    expect(formatBusinessNumber("acn", "abcdefghi")).toBe("abcdefghi");
  });
});
