import { describe, expect, it } from "vitest";

import { CONTRAST_PAIRS, checkTheme, contrastRatio, relativeLuminance } from "./contrast";
import { THEME_NAMES } from "./names";
import { themeClass } from "./themes.css";
import { themeTokens } from "./tokens";

describe("contrastRatio", () => {
  it("is 21 for black on white", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 10);
  });

  it("is symmetric", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 10);
    expect(contrastRatio("#0066cc", "#fffefb")).toBeCloseTo(contrastRatio("#fffefb", "#0066cc"), 12);
  });

  it("is 1 for a colour against itself", () => {
    expect(contrastRatio("#777777", "#777777")).toBe(1);
    expect(contrastRatio("#C7031E", "#c7031e")).toBe(1);
  });

  it("gives about 4.48 for #777777 on white (just under AA)", () => {
    const ratio = contrastRatio("#777777", "#ffffff");
    expect(ratio).toBeCloseTo(4.48, 2);
    expect(ratio).toBeLessThan(4.5);
  });

  it("computes relative luminance at the ends and for pure primaries", () => {
    expect(relativeLuminance("#000000")).toBe(0);
    expect(relativeLuminance("#ffffff")).toBeCloseTo(1, 12);
    expect(relativeLuminance("#ff0000")).toBeCloseTo(0.2126, 12);
    expect(relativeLuminance("#00ff00")).toBeCloseTo(0.7152, 12);
    expect(relativeLuminance("#0000ff")).toBeCloseTo(0.0722, 12);
  });

  it("rejects things that are not hex colours", () => {
    expect(() => contrastRatio("red", "#ffffff")).toThrow();
    expect(() => contrastRatio("#12345", "#ffffff")).toThrow();
  });
});

const cases = THEME_NAMES.flatMap((theme) => CONTRAST_PAIRS.map((pair) => ({ theme, pair: pair.name, check: pair })));

describe("every theme meets WCAG AA for every pair", () => {
  it.each(cases)("$theme: $pair", ({ theme, check }) => {
    const tokens = themeTokens[theme];
    const foreground = check.foreground(tokens);
    const background = check.background(tokens);
    const ratio = contrastRatio(foreground, background);
    expect(
      ratio,
      `${theme} / ${check.name}: ${foreground} on ${background} is ${ratio.toFixed(2)}:1, needs ${check.minimum}:1`,
    ).toBeGreaterThanOrEqual(check.minimum);
  });

  it.each([...THEME_NAMES])("checkTheme(%s) reports no failures", (theme) => {
    expect(checkTheme(themeTokens[theme])).toEqual([]);
  });

  it("checkTheme reports a failing pair with its ratio", () => {
    const base = themeTokens.base;
    const failures = checkTheme({
      ...base,
      surface: { ...base.surface, mutedText: "#777777", page: "#ffffff" },
    });
    expect(failures.map((f) => f.name)).toEqual(["muted text on page", "muted text on surface"]);
    expect(failures[0]?.ratio).toBeCloseTo(4.48, 2);
  });
});

describe("tokens", () => {
  it("defines tokens for exactly the fifteen theme names", () => {
    expect(Object.keys(themeTokens).sort()).toEqual([...THEME_NAMES].sort());
    expect(THEME_NAMES).toHaveLength(15);
  });

  const tokenCases = THEME_NAMES.flatMap((theme) => {
    const { colors, surface } = themeTokens[theme];
    return [
      ...Object.entries(colors).map(([role, value]) => ({ theme, role: `colors.${role}`, value })),
      ...Object.entries(surface).map(([role, value]) => ({ theme, role: `surface.${role}`, value })),
    ];
  });

  it("has 11 colour roles and 7 surface roles per theme", () => {
    expect(tokenCases).toHaveLength(15 * 18);
  });

  it.each(tokenCases)("$theme $role is a #rrggbb colour", ({ value }) => {
    expect(value).toMatch(/^#[0-9a-f]{6}$/i);
  });
});

describe("themeClass", () => {
  it("has a non-empty class for each of the fifteen names", () => {
    expect(Object.keys(themeClass).sort()).toEqual([...THEME_NAMES].sort());
    for (const name of THEME_NAMES) {
      expect(typeof themeClass[name], name).toBe("string");
      expect(themeClass[name].trim(), name).not.toBe("");
    }
  });

  it("gives every theme a distinct class", () => {
    const classes = THEME_NAMES.map((name) => themeClass[name]);
    expect(new Set(classes).size).toBe(THEME_NAMES.length);
  });
});
