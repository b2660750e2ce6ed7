import { describe, expect, it } from "vitest";

import { AA_LARGE_OR_NON_TEXT, AA_TEXT, CONTRAST_PAIRS, contrastRatio } from "~/themes/contrast";
import { THEME_NAMES } from "~/themes/names";
import { themeTokens, type ThemeTokens } from "~/themes/tokens";
import { formatNumber } from "~/lib/format";

import {
  BRAND_COLOUR_ROLES,
  brandShifts,
  deriveBrand,
  formatRatio,
  HOVER_STEP_CONTRAST,
  isCanonicalColour,
  MAX_LIGHTNESS_SHIFT,
  oklchOf,
  parseBrandColour,
  SURFACE_ROLES,
  themeChecks,
} from "./brand-colours";
import { themeSwatches } from "~/services/branding/admin-page.server";

/** Mulberry32: a small seeded PRNG, so the sweep is the same on every run and machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomColours(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  return Array.from(
    { length: count },
    () =>
      `#${Math.floor(random() * 0x1000000)
        .toString(16)
        .padStart(6, "0")}`,
  );
}

/** Every pair measured here, straight from CONTRAST_PAIRS (not through the module under test). */
function failingPairs(tokens: ThemeTokens): string[] {
  return CONTRAST_PAIRS.filter(
    (pair) => !(contrastRatio(pair.foreground(tokens), pair.background(tokens)) >= pair.minimum),
  ).map((pair) => pair.name);
}

function everyRoleIsCanonical(tokens: ThemeTokens): boolean {
  return (
    BRAND_COLOUR_ROLES.every((role) => isCanonicalColour(tokens.colors[role])) &&
    SURFACE_ROLES.every((role) => isCanonicalColour(tokens.surface[role]))
  );
}

function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/** The hue of `derived` is the brand's, wherever both have enough chroma for a hue to mean anything. */
function keepsHue(brand: string, derived: string): boolean {
  const b = oklchOf(brand)!;
  const d = oklchOf(derived)!;
  if (b.c < 0.04 || d.c < 0.04) return true;
  return hueDistance(b.h, d.h) <= 6;
}

describe("parseBrandColour", () => {
  it.each([
    ["#2b4c7e", "#2b4c7e"],
    ["#2B4C7E", "#2b4c7e"],
    ["  #abc ", "#aabbcc"],
    ["#ABC", "#aabbcc"],
    ["\t#000000\n", "#000000"],
  ])("reads %j as %j", (raw, expected) => {
    expect(parseBrandColour(raw)).toBe(expected);
  });

  it.each([
    "red",
    "red;}",
    "#12345",
    "#1234567",
    "#12",
    "123456",
    "#ggg000",
    "rgb(0, 0, 0)",
    "url(https://evil.example/x)",
    "#fff;} body{display:none",
    "#fff</style><script>",
    "#ｆｆｆ",
    "#１２３",
    "#аbс",
    "#f\u200bff",
    "# fff",
    "#fff #000",
    "",
    " ".repeat(30) + "#fff",
    "#ffffff" + " ".repeat(20),
  ])("refuses %j", (raw) => {
    expect(parseBrandColour(raw)).toBeNull();
  });

  it.each([null, undefined, 0x123456, ["#123456"], { toString: () => "#123456" }])(
    "refuses non-strings (%j)",
    (raw) => {
      expect(parseBrandColour(raw)).toBeNull();
    },
  );
});

describe("oklchOf", () => {
  it("matches published OKLCH values", () => {
    // CSS Color 4 / Ottosson's reference: red is oklch(62.8% 0.2577 29.23), blue oklch(45.2% 0.3132 264.05).
    expect(oklchOf("#ff0000")).toMatchObject({ l: expect.closeTo(0.628, 3), c: expect.closeTo(0.2577, 3) });
    expect(oklchOf("#ff0000")!.h).toBeCloseTo(29.23, 1);
    expect(oklchOf("#0000ff")).toMatchObject({ l: expect.closeTo(0.452, 3), c: expect.closeTo(0.3132, 3) });
    expect(oklchOf("#ffffff")!.l).toBeCloseTo(1, 6);
    expect(oklchOf("#ffffff")!.c).toBeCloseTo(0, 6);
    expect(oklchOf("#000000")).toMatchObject({ l: 0, c: 0 });
  });
});

describe("themeChecks", () => {
  it.each([...THEME_NAMES])("%s passes every pair", (theme) => {
    const checks = themeChecks(themeTokens[theme]);
    expect(checks.map((check) => check.name)).toEqual(CONTRAST_PAIRS.map((pair) => pair.name));
    expect(checks.filter((check) => !check.passes)).toEqual([]);
  });

  it("reports a failing pair with its ratio and minimum", () => {
    const tokens: ThemeTokens = {
      colors: { ...themeTokens.base.colors, link: "#999999" },
      surface: themeTokens.base.surface,
    };
    const link = themeChecks(tokens).find((check) => check.name === "link on page")!;
    expect(link).toMatchObject({ foreground: "#999999", background: "#ffffff", minimum: AA_TEXT, passes: false });
    expect(link.ratio).toBeCloseTo(2.85, 2);
  });
});

describe("the swatches the branding page is sent", () => {
  it("have the eleven colour roles of each of the fifteen themes", () => {
    const swatches = themeSwatches();
    expect(Object.keys(swatches)).toEqual([...THEME_NAMES]);
    for (const theme of THEME_NAMES) {
      expect(Object.keys(swatches[theme]).sort()).toEqual([...BRAND_COLOUR_ROLES].sort());
      expect(swatches[theme]).toEqual(themeTokens[theme].colors);
    }
  });
});

describe("deriveBrand", () => {
  it("keeps a colour that already passes exactly, with white text", () => {
    const result = deriveBrand("#2b4c7e");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { colors, surface } = result.tokens;
    expect(colors).toMatchObject({ primary: "#2b4c7e", secondary: "#2b4c7e", button: "#2b4c7e", link: "#2b4c7e" });
    expect(colors.bannerBackground).toBe(colors.button);
    expect(surface.buttonText).toBe("#ffffff");
    expect(surface.page).toBe("#ffffff");
  });

  it("puts near-black text on a light brand colour and keeps the colour on the button", () => {
    const result = deriveBrand("#ff9900");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { colors, surface } = result.tokens;
    expect(colors.button).toBe("#ff9900");
    expect(colors.secondary).toBe("#ff9900");
    expect(contrastRatio(surface.buttonText, "#000000")).toBeLessThan(1.5);
    // Accents on the page need 3:1: a darker orange, within the bound.
    expect(colors.primary).not.toBe("#ff9900");
    expect(contrastRatio(colors.primary, surface.page)).toBeGreaterThanOrEqual(AA_LARGE_OR_NON_TEXT);
    expect(brandShifts("#ff9900")!.primary).toBeLessThanOrEqual(MAX_LIGHTNESS_SHIFT);
  });

  it("moves a mid-tone button the shorter way when neither text colour reaches 4.5:1", () => {
    // #777777 carries white at 4.48:1, just short.
    const result = deriveBrand("#777777");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.tokens.colors.button).not.toBe("#777777");
    expect(result.tokens.surface.buttonText).toBe("#ffffff");
    expect(brandShifts("#777777")!.button).toBeLessThan(0.01);
  });

  it("steps a black button's hover lighter, since nothing is darker", () => {
    const result = deriveBrand("#000000");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { button, buttonHover } = result.tokens.colors;
    expect(button).toBe("#000000");
    expect(contrastRatio(button, buttonHover)).toBeGreaterThanOrEqual(HOVER_STEP_CONTRAST);
  });

  it.each(["#ffffff", "#ffcc00", "#00ff00", "#66ccff", "#fafafa"])(
    "refuses %s (too light to be an accent on white) and suggests a darker one that is accepted",
    (colour) => {
      const result = deriveBrand(colour);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.checks.find((check) => check.name === "primary on page")).toMatchObject({
        foreground: colour,
        passes: false,
      });
      expect(result.suggestion).not.toBeNull();
      const suggestion = result.suggestion!;
      expect(deriveBrand(suggestion).ok).toBe(true);
      expect(oklchOf(suggestion)!.l).toBeLessThan(oklchOf(colour)!.l);
      expect(keepsHue(colour, suggestion)).toBe(true);
    },
  );

  it("refuses what is not a colour, with no suggestion", () => {
    expect(deriveBrand("red;}")).toEqual({ ok: false, checks: [], suggestion: null });
    expect(deriveBrand("#12345")).toEqual({ ok: false, checks: [], suggestion: null });
  });

  it("accepts #abc as #aabbcc", () => {
    expect(deriveBrand("#abc")).toEqual(deriveBrand("#aabbcc"));
  });
});

describe("a seeded sweep of 1,000 random brand colours", () => {
  const colours = randomColours(20261124, 1000);
  const results = colours.map((colour) => ({ colour, result: deriveBrand(colour) }));
  const accepted = results.filter((r) => r.result.ok);
  const refused = results.filter((r) => !r.result.ok);

  it("is reproducible", () => {
    expect(randomColours(20261124, 1000)).toEqual(colours);
    expect(new Set(colours).size).toBeGreaterThan(990);
    // Pinned so a change to the derivation is seen in review.
    expect({ accepted: accepted.length, refused: refused.length }).toEqual({ accepted: 741, refused: 259 });
  });

  it("every accepted colour's derived pairs all meet their ratios", () => {
    const failures = accepted.flatMap(({ colour, result }) =>
      result.ok ? failingPairs(result.tokens).map((pair) => `${colour}: ${pair}`) : [],
    );
    expect(failures).toEqual([]);
    for (const { result } of accepted) {
      if (result.ok) expect(result.checks.every((check) => check.passes)).toBe(true);
    }
  });

  it("every accepted colour sets every role to a #rrggbb, keeps the brand hue and the exact colour as secondary", () => {
    const problems: string[] = [];
    for (const { colour, result } of accepted) {
      if (!result.ok) continue;
      const { colors, surface } = result.tokens;
      if (!everyRoleIsCanonical(result.tokens)) problems.push(`${colour}: a role is not #rrggbb`);
      if (colors.secondary !== colour) problems.push(`${colour}: secondary is ${colors.secondary}`);
      for (const role of ["primary", "link", "linkHover", "button", "buttonHover"] as const) {
        if (!keepsHue(colour, colors[role])) problems.push(`${colour}: ${role} ${colors[role]} changes hue`);
      }
      if (surface.buttonText !== "#ffffff" && contrastRatio(surface.buttonText, "#000000") >= 1.5) {
        problems.push(`${colour}: button text ${surface.buttonText} is neither white nor near-black`);
      }
      if (contrastRatio(colors.button, colors.buttonHover) < HOVER_STEP_CONTRAST) {
        problems.push(`${colour}: button hover is not a visible step`);
      }
      if (contrastRatio(colors.link, colors.linkHover) < HOVER_STEP_CONTRAST) {
        problems.push(`${colour}: link hover is not a visible step`);
      }
      const shifts = brandShifts(colour)!;
      if (shifts.primary > MAX_LIGHTNESS_SHIFT || shifts.button > MAX_LIGHTNESS_SHIFT) {
        problems.push(`${colour}: moved too far`);
      }
      if (Math.abs(oklchOf(colors.primary)!.l - oklchOf(colour)!.l) > MAX_LIGHTNESS_SHIFT + 0.005) {
        problems.push(`${colour}: primary ${colors.primary} is not within the bound`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every refused colour had to move too far, and its suggestion is accepted, darker and of the same hue", () => {
    const problems: string[] = [];
    for (const { colour, result } of refused) {
      if (result.ok) continue;
      const shifts = brandShifts(colour);
      if (shifts && shifts.primary <= MAX_LIGHTNESS_SHIFT && shifts.button <= MAX_LIGHTNESS_SHIFT) {
        problems.push(`${colour}: refused within the bound`);
      }
      if (result.checks.length !== CONTRAST_PAIRS.length) problems.push(`${colour}: checks missing`);
      if (result.suggestion === null) {
        problems.push(`${colour}: no suggestion`);
        continue;
      }
      const suggested = deriveBrand(result.suggestion);
      if (!suggested.ok) problems.push(`${colour}: suggestion ${result.suggestion} is refused`);
      else if (failingPairs(suggested.tokens).length > 0) problems.push(`${colour}: suggestion fails a pair`);
      if (!keepsHue(colour, result.suggestion)) problems.push(`${colour}: suggestion ${result.suggestion} changes hue`);
      if (!(oklchOf(result.suggestion)!.l < oklchOf(colour)!.l)) problems.push(`${colour}: suggestion is not darker`);
    }
    expect(problems).toEqual([]);
  });
});

describe("formatRatio", () => {
  it("says what formatNumber with two decimals says, for every contrast ratio a brand can have", () => {
    for (let thousandths = 1000; thousandths <= 21000; thousandths += 1) {
      const value = thousandths / 1000;
      expect(formatRatio(value), String(value)).toBe(formatNumber(value, { maximumFractionDigits: 2 }));
    }
    // Ratios as the contrast formula computes them: not round in binary.
    for (const value of [4.499999, 4.505, 1.005, 2.675, 20.999, 21, 7.0000001, 99.996, (1.05 + 0.2) / (0.05 + 0.1)]) {
      expect(formatRatio(value), String(value)).toBe(formatNumber(value, { maximumFractionDigits: 2 }));
    }
  });

  it("shows nothing for what is not a ratio", () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, -1, 0.5, 100, 1000]) expect(formatRatio(value)).toBe("");
  });
});
