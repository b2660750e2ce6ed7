/**
 * WCAG 2.x contrast maths and the list of colour pairs every theme must pass.
 *
 * Pure functions only (no vanilla-extract), so this module can be used from
 * tests, scripts and server code alike.
 */
import type { ThemeTokens } from "./tokens";

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Parses `#rgb` or `#rrggbb` into 0–255 channels. Throws on anything else. */
function parseHex(hex: string): [number, number, number] {
  if (!HEX_COLOUR.test(hex)) {
    throw new Error(`Not a hex colour: ${JSON.stringify(hex)}`);
  }
  let digits = hex.slice(1);
  if (digits.length === 3) {
    digits = digits
      .split("")
      .map((d) => d + d)
      .join("");
  }
  const value = Number.parseInt(digits, 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** sRGB channel (0–255) to linear light, per WCAG 2.2 (threshold 0.04045). */
function linearise(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of an sRGB hex colour: 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHex(hex);
  return 0.2126 * linearise(r) + 0.7152 * linearise(g) + 0.0722 * linearise(b);
}

/**
 * WCAG contrast ratio between two colours, from 1 (identical) to 21
 * (black on white). Symmetric: the order of the arguments does not matter.
 * Not rounded — WCAG says a ratio must not be rounded up to meet a threshold.
 */
export function contrastRatio(hexA: string, hexB: string): number {
  const a = relativeLuminance(hexA);
  const b = relativeLuminance(hexB);
  const lighter = Math.max(a, b);
  const darker = Math.min(a, b);
  return (lighter + 0.05) / (darker + 0.05);
}

/** WCAG AA minimums. */
export const AA_TEXT = 4.5;
/** Large text (1.4.3) and non-text UI components / focus indicators (1.4.11). */
export const AA_LARGE_OR_NON_TEXT = 3;

export type ContrastPair = {
  readonly name: string;
  readonly foreground: (t: ThemeTokens) => string;
  readonly background: (t: ThemeTokens) => string;
  readonly minimum: number;
};

/**
 * Every foreground/background combination the UI actually renders.
 *
 * `surface.border` on the page is deliberately absent: borders are decorative
 * (cards are also distinguished by their background and spacing), so WCAG
 * 1.4.11 does not apply to them.
 */
export const CONTRAST_PAIRS: readonly ContrastPair[] = [
  {
    name: "body text on page",
    foreground: (t) => t.surface.text,
    background: (t) => t.surface.page,
    minimum: AA_TEXT,
  },
  {
    name: "muted text on page",
    foreground: (t) => t.surface.mutedText,
    background: (t) => t.surface.page,
    minimum: AA_TEXT,
  },
  {
    name: "muted text on surface",
    foreground: (t) => t.surface.mutedText,
    background: (t) => t.surface.surface,
    minimum: AA_TEXT,
  },
  {
    name: "body text on surface",
    foreground: (t) => t.surface.text,
    background: (t) => t.surface.surface,
    minimum: AA_TEXT,
  },
  {
    name: "link on page",
    foreground: (t) => t.colors.link,
    background: (t) => t.surface.page,
    minimum: AA_TEXT,
  },
  {
    name: "link hover on page",
    foreground: (t) => t.colors.linkHover,
    background: (t) => t.surface.page,
    minimum: AA_TEXT,
  },
  {
    name: "link on surface",
    foreground: (t) => t.colors.link,
    background: (t) => t.surface.surface,
    minimum: AA_TEXT,
  },
  {
    name: "button text on button",
    foreground: (t) => t.surface.buttonText,
    background: (t) => t.colors.button,
    minimum: AA_TEXT,
  },
  {
    name: "button text on button hover",
    foreground: (t) => t.surface.buttonText,
    background: (t) => t.colors.buttonHover,
    minimum: AA_TEXT,
  },
  {
    name: "banner text on banner background",
    foreground: (t) => t.colors.bannerText,
    background: (t) => t.colors.bannerBackground,
    minimum: AA_TEXT,
  },
  {
    name: "primary on page",
    foreground: (t) => t.colors.primary,
    background: (t) => t.surface.page,
    minimum: AA_LARGE_OR_NON_TEXT,
  },
  {
    name: "banner icon on banner icon background",
    foreground: (t) => t.colors.bannerIcon,
    background: (t) => t.colors.bannerIconBackground,
    minimum: AA_LARGE_OR_NON_TEXT,
  },
  {
    name: "focus ring on page",
    foreground: (t) => t.surface.focus,
    background: (t) => t.surface.page,
    minimum: AA_LARGE_OR_NON_TEXT,
  },
];

export type ContrastResult = {
  name: string;
  foreground: string;
  background: string;
  ratio: number;
  minimum: number;
  passes: boolean;
};

/** Measures every pair in CONTRAST_PAIRS for one theme. */
export function measureTheme(tokens: ThemeTokens): ContrastResult[] {
  return CONTRAST_PAIRS.map((pair) => {
    const foreground = pair.foreground(tokens);
    const background = pair.background(tokens);
    const ratio = contrastRatio(foreground, background);
    return {
      name: pair.name,
      foreground,
      background,
      ratio,
      minimum: pair.minimum,
      passes: ratio >= pair.minimum,
    };
  });
}

/** The pairs a theme fails, with their measured ratios; empty when it is AA-compliant. */
export function checkTheme(tokens: ThemeTokens): ContrastResult[] {
  return measureTheme(tokens).filter((result) => !result.passes);
}
