import { describe, expect, it } from "vitest";
import { authorityReference, cardHolderName, description, plainText } from "./payment-method-schemas";

const issues = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

describe("plain text fields", () => {
  const field = plainText("pm.error.text.type", 10, "pm.error.text.tooLong");

  it("trims and keeps ordinary text, accents and symbols", () => {
    expect(field.parse("  Ünïcode € ")).toBe("Ünïcode €");
  });

  it.each([
    ["NUL", "a\u0000b"],
    ["a tab inside", "a\tb"],
    ["a line break inside", "a\nb"],
    ["DEL", "a\u007fb"],
    ["a C1 control", "a\u0085b"],
  ])("refuses %s", (_name, value) => {
    expect(issues(field.safeParse(value))).toEqual(["pm.error.text.control"]);
  });

  it("says what is wrong with a value that is too long or not text", () => {
    expect(issues(field.safeParse("x".repeat(11)))).toEqual(["pm.error.text.tooLong"]);
    expect(issues(field.safeParse(42))).toEqual(["pm.error.text.type"]);
    expect(issues(field.safeParse(undefined))).toEqual(["pm.error.text.type"]);
  });

  it("authority reference: required, 100 characters, no control characters", () => {
    expect(authorityReference.parse(" WEB-1 ")).toBe("WEB-1");
    expect(issues(authorityReference.safeParse("  "))).toEqual(["pm.error.consent.required"]);
    expect(issues(authorityReference.safeParse("R\u0000"))).toEqual(["pm.error.text.control"]);
    expect(issues(authorityReference.safeParse("R".repeat(101)))).toEqual(["pm.error.text.tooLong"]);
  });

  it("description: optional, no markup, no control characters", () => {
    expect(description.parse(undefined)).toBeUndefined();
    expect(issues(description.safeParse("<b>"))).toEqual(["pm.error.description.characters"]);
    expect(issues(description.safeParse("Main\u0000"))).toEqual(["pm.error.text.control"]);
  });

  it("a holder name of another type gets the 'enter the name' message", () => {
    expect(issues(cardHolderName.safeParse(7))).toEqual(["pm.error.holder.required"]);
  });
});
