import { describe, expect, it } from "vitest";
import { isCustomerPage, scanText } from "./text-scan";

const rules = (text: string, customerPage = true) => scanText(text, { customerPage }).map((f) => f.rule);

describe("the words check (issue 32)", () => {
  it("catches each slip the issue lists", () => {
    expect(rules("Read Acme Plumbing Supplies's terms of trade.")).toEqual(["possessive 's after a name ending in s"]);
    expect(rules("See the Jones's's records")).toContain("possessive 's after 's");
    expect(rules("Questions? Contact Kiwi Freight Co..")).toEqual(["double full stop"]);
    expect(rules("Contact Kiwi Freight Co.. Email us")).toEqual(["double full stop"]);
    expect(rules("Paid with visa •••• 1111")).toEqual(["lower-case card brand"]);
    expect(rules("card mastercard 4444 and amex 0005")).toEqual(["lower-case card brand", "lower-case card brand"]);
    expect(rules("PayTo sandbox will send the agreement to your bank.")).toEqual(["'sandbox' on a customer page"]);
    expect(rules("Time (UTC) 2026-12-03T23:15:02.123Z")).toEqual(["ISO timestamp"]);
  });

  it("leaves legitimate text alone", () => {
    const legit = [
      "The business's terms of trade, and the terms of trade of Acme Plumbing Supplies.",
      "Loading... please wait…",
      "Paid with Visa •••• 1111; Mastercard and American Express accepted.",
      "Email billing@visa.example or see https://amex.example/mastercard for more.",
      "Contact Kiwi Freight Co. Email us. Version 1.2.3, file terms..md",
      "Dec 13, 2026, 9:28 am · 2026-12-13 · Invoice INV-2026-12",
      "Open the test bank (it stands in for your banking app).",
    ].join("\n");
    expect(rules(legit)).toEqual([]);
  });

  it("allows 'sandbox' on pages that are not a customer's", () => {
    expect(rules("Sandbox bank", false)).toEqual([]);
    expect(isCustomerPage("http://acme.localhost:4810/sandbox/payto-bank?agreement=x")).toBe(false);
    expect(isCustomerPage("http://acme.localhost:4810/admin/branding")).toBe(false);
    expect(isCustomerPage("http://acme.localhost:4810/payment-methods/payto/1")).toBe(true);
    expect(isCustomerPage("http://acme.localhost:4810/customer/adhoc/abc")).toBe(true);
  });

  it("says where and what, with the text around it", () => {
    expect(scanText("Questions? Contact Kiwi Freight Co..", { customerPage: true })).toEqual([
      { rule: "double full stop", excerpt: "Questions? Contact Kiwi Freight Co.." },
    ]);
  });
});
