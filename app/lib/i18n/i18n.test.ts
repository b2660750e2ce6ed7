import { describe, expect, it } from "vitest";
import { enAU } from "./en-AU";
import { id } from "./id";
import { isLanguageCode, LANGUAGES, translator } from "./index";

describe("translations", () => {
  it("every language has exactly the keys of English (AU), none empty", () => {
    expect(Object.keys(id).sort()).toEqual(Object.keys(enAU).sort());
    for (const [key, value] of Object.entries(id)) expect(value.trim(), key).not.toBe("");
  });

  it("keeps every placeholder of the English message", () => {
    for (const [key, english] of Object.entries(enAU)) {
      const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(id[key as keyof typeof id]), key).toEqual(names(english));
    }
  });

  it("offers the spec's two languages", () => {
    expect(LANGUAGES.map((l) => [l.code, l.label])).toEqual([
      ["en-AU", "English (AU)"],
      ["ID", "Bahasa Indonesia"],
    ]);
    expect(isLanguageCode("ID")).toBe(true);
    expect(isLanguageCode("fr")).toBe(false);
  });

  it("fills placeholders", () => {
    expect(translator("en-AU")("dashboard.welcome", { name: "Olivia" })).toBe("Welcome, Olivia");
    expect(translator("ID")("dashboard.welcome", { name: "Olivia" })).toBe("Selamat datang, Olivia");
  });
});
