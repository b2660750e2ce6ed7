import { describe, expect, it } from "vitest";
import { cardBrandLabel, cardName } from "./card";
import { translatorFrom } from "./i18n";
import { endSentence, fillPlaceholders } from "./sentence";

describe("endSentence", () => {
  it("adds a full stop, unless the last word carries one", () => {
    expect(endSentence("Contact Acme Plumbing Supplies")).toBe("Contact Acme Plumbing Supplies.");
    expect(endSentence("Contact Kiwi Freight Co.")).toBe("Contact Kiwi Freight Co.");
    expect(endSentence("Are you sure?")).toBe("Are you sure?");
  });
});

describe("fillPlaceholders", () => {
  it("keeps one full stop after a name that ends in one", () => {
    expect(fillPlaceholders("Questions? Contact {business}.", { business: "Kiwi Freight Co." })).toBe(
      "Questions? Contact Kiwi Freight Co.",
    );
    expect(fillPlaceholders("Ask {business}. Later ones stay.", { business: "Kiwi Freight Co." })).toBe(
      "Ask Kiwi Freight Co. Later ones stay.",
    );
    expect(fillPlaceholders("Questions? Contact {business}.", { business: "Acme" })).toBe("Questions? Contact Acme.");
  });

  it("keeps an ellipsis, a name's stop mid-sentence and an unknown placeholder", () => {
    expect(fillPlaceholders("Loading {what}...", { what: "Co." })).toBe("Loading Co....");
    expect(fillPlaceholders("{business} has approved it.", { business: "Kiwi Freight Co." })).toBe(
      "Kiwi Freight Co. has approved it.",
    );
    expect(fillPlaceholders("Hello {name}.", {})).toBe("Hello {name}.");
    expect(fillPlaceholders("{toString}.", {})).toBe("{toString}.");
  });

  it("is what the translator fills with", () => {
    const t = translatorFrom({ "requestPage.contact": "Questions? Contact {business}." });
    expect(t("requestPage.contact", { business: "Kiwi Freight Co." })).toBe("Questions? Contact Kiwi Freight Co.");
  });
});

describe("card brands as people read them", () => {
  it("capitalises every brand, and calls an unknown one a card", () => {
    expect(cardBrandLabel("visa")).toBe("Visa");
    expect(cardBrandLabel("amex")).toBe("American Express");
    expect(cardBrandLabel("toString")).toBe("Card");
    expect(cardBrandLabel(null)).toBe("Card");
    expect(cardName("mastercard", "4444")).toBe("Mastercard •••• 4444");
  });
});
