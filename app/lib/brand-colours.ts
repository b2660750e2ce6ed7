/**
 * Custom brand colours: parse one colour a host admin types, derive every
 * theme role from it so that every pair in CONTRAST_PAIRS meets WCAG AA, or
 * refuse it with the nearest colour we would accept.
 *
 * Client-safe (no Node imports, no I/O): the branding form uses it to show
 * each pair's contrast, the server uses it to decide.
 *
 * How a colour becomes a theme (see docs/decisions/037-host-admin-brands.md):
 * - Lightness is changed in OKLCH (perceptually even steps, unlike HSL), hue
 *   kept, chroma kept as far as the sRGB gamut allows at the new lightness.
 *   Every result is measured on the final `#rrggbb` with ./themes/contrast.ts,
 *   so rounding can never turn a pass into a fail.
 * - `secondary` is the brand colour exactly (decoration, no contrast rule).
 * - `primary` (headings, accents: 3:1 on the page) and `button` (4.5:1 with
 *   its text) are the brand colour, or the nearest lightness that passes.
 *   Button text is white or a near-black ink of the brand's hue, whichever
 *   the colour carries; if neither reaches 4.5:1, the button moves the shorter
 *   way (darker under white, lighter under ink).
 * - Hover states are one visible step (contrast ≥ HOVER_STEP_CONTRAST between
 *   the two) away from their text, so they keep at least the resting contrast;
 *   at the end of the lightness range they step the other way, only if that
 *   still passes.
 * - The banner is filled with the button colour and its text; the logo box is
 *   white with `primary` on it; links and the focus ring are the brand hue
 *   darkened until they pass on the page and on cards; text and surfaces are
 *   neutrals tinted with a little of the brand's hue.
 *
 * Refusal: a colour is refused when `primary` or `button` would have to move
 * more than MAX_LIGHTNESS_SHIFT in OKLCH lightness to pass, because then what
 * customers would see is no longer the colour the admin chose (it is about one
 * step of a design-system palette, e.g. Tailwind's 500 → 600 moves 0.06–0.11).
 * The suggestion is the lightest colour of the same hue and chroma that is
 * accepted.
 */
import { AA_LARGE_OR_NON_TEXT, AA_TEXT, checkTheme, contrastRatio, measureTheme } from "~/themes/contrast";
import { baseThemeTokens, type ThemeColors, type ThemeSurface, type ThemeTokens } from "~/themes/tokens";

export { CUSTOM_BRAND_CLASS } from "./brand-class";

/** The eleven colour roles of spec §3, in the spec's order. */
export const BRAND_COLOUR_ROLES = [
  "primary",
  "secondary",
  "tertiary",
  "link",
  "linkHover",
  "button",
  "buttonHover",
  "bannerBackground",
  "bannerText",
  "bannerIcon",
  "bannerIconBackground",
] as const satisfies readonly (keyof ThemeColors)[];

/** The neutral surface roles. */
export const SURFACE_ROLES = [
  "page",
  "text",
  "mutedText",
  "buttonText",
  "border",
  "focus",
  "surface",
] as const satisfies readonly (keyof ThemeSurface)[];

/** The most OKLCH lightness `primary` or `button` may move from the brand colour. */
export const MAX_LIGHTNESS_SHIFT = 0.1;

/** A hover colour differs from its resting colour by at least this contrast ratio. */
export const HOVER_STEP_CONTRAST = 1.25;

/** Longest input looked at; a colour is at most 7 characters plus some spaces. */
const MAX_INPUT_LENGTH = 20;

/** ASCII only: no `u` flag, so no Unicode case folding or look-alike digits. */
const HEX_INPUT = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

const CANONICAL_HEX = /^#[0-9a-f]{6}$/;

/**
 * A brand colour as typed: `#rgb` or `#rrggbb`, surrounding spaces allowed,
 * any case. Returns lower-case `#rrggbb`, or null for anything else (names,
 * `rgb(…)`, `url(…)`, CSS fragments, other scripts' digits, long input).
 */
export function parseBrandColour(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length > MAX_INPUT_LENGTH) return null;
  const trimmed = raw.trim();
  if (!HEX_INPUT.test(trimmed)) return null;
  const digits = trimmed.slice(1).toLowerCase();
  const full =
    digits.length === 3
      ? digits
          .split("")
          .map((d) => d + d)
          .join("")
      : digits;
  return `#${full}`;
}

/** True for a canonical lower-case `#rrggbb` (what parseBrandColour returns). */
export function isCanonicalColour(value: unknown): value is string {
  return typeof value === "string" && CANONICAL_HEX.test(value);
}

/**
 * Tokens as deriveBrand makes them: exactly the roles of ThemeTokens, each a lower-case #rrggbb,
 * and every WCAG pair passing. Stored tokens are checked again wherever they are read (the
 * brand's stylesheet, its emails): a damaged row falls back to the named theme, never reaches
 * a page or an email.
 */
export function isValidBrandTokens(value: unknown): value is ThemeTokens {
  if (value === null || typeof value !== "object") return false;
  const template = baseThemeTokens;
  const groups = value as Record<string, unknown>;
  if (Object.keys(groups).sort().join() !== Object.keys(template).sort().join()) return false;
  for (const [group, roles] of Object.entries(template) as [string, Record<string, string>][]) {
    const given = groups[group];
    if (given === null || typeof given !== "object" || Array.isArray(given)) return false;
    const entries = Object.entries(given as Record<string, unknown>);
    if (entries.length !== Object.keys(roles).length) return false;
    for (const [role, colour] of entries) {
      if (!Object.hasOwn(roles, role) || !isCanonicalColour(colour)) return false;
    }
  }
  return checkTheme(value as ThemeTokens).length === 0;
}

/** A brand version's stored tokens (JSON text or the driver's object), or null when they are not valid. */
export function storedBrandTokens(value: unknown): ThemeTokens | null {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  return isValidBrandTokens(parsed) ? parsed : null;
}

export type PairCheck = {
  name: string;
  foreground: string;
  background: string;
  ratio: number;
  minimum: number;
  passes: boolean;
};

/**
 * A contrast ratio as the branding page shows it (1 to 21, at most two decimals; nothing outside 1–100): "4.5", "21",
 * "4.54" — what `formatNumber(value, { maximumFractionDigits: 2 })` (lib/format) gives, without Intl. The first
 * `Intl.NumberFormat` a page makes costs 95–160 ms on the low-end phone (6× CPU; decision 085), and
 * the contrast table is drawn while the page hydrates and again as a colour is typed.
 */
export function formatRatio(value: number): string {
  if (!(value >= 1 && value < 100)) return "";
  // Rounded as Intl rounds: half away from zero, on the shortest decimal that reads back as this
  // number ("1.005" → "1.01", although the double is a hair under 1.005). A whole number of
  // hundredths over 100 prints with two decimals at most.
  const [whole, decimals = ""] = String(value).split(".");
  const hundredths = Number(whole + `${decimals}00`.slice(0, 2)) + (Number(decimals[2]) >= 5 ? 1 : 0);
  return String(hundredths / 100);
}

/** Every CONTRAST_PAIRS pair measured for one set of tokens. */
export function themeChecks(tokens: ThemeTokens): PairCheck[] {
  return measureTheme(tokens);
}

export type DerivedBrand =
  | { ok: true; tokens: ThemeTokens; checks: PairCheck[] }
  | { ok: false; checks: PairCheck[]; suggestion: string | null };

/* -------------------------------------------------------------------------- */
/* OKLCH (Björn Ottosson's OKLab, polar form)                                  */
/* -------------------------------------------------------------------------- */

type Oklch = { l: number; c: number; h: number };
type Rgb = [number, number, number];

const WHITE = "#ffffff";

function hexToRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [((value >> 16) & 0xff) / 255, ((value >> 8) & 0xff) / 255, (value & 0xff) / 255];
}

function toLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function fromLinear(c: number): number {
  return c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
}

function hexToOklch(hex: string): Oklch {
  const [r, g, b] = hexToRgb(hex).map(toLinear) as Rgb;
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  const c = Math.hypot(A, B);
  const h = (Math.atan2(B, A) * 180) / Math.PI;
  return { l: L, c, h: h < 0 ? h + 360 : h };
}

function oklchToLinearRgb({ l: L, c, h }: Oklch): Rgb {
  const A = c * Math.cos((h * Math.PI) / 180);
  const B = c * Math.sin((h * Math.PI) / 180);
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

const GAMUT_EPSILON = 1e-7;

function inGamut(rgb: Rgb): boolean {
  return rgb.every((v) => v >= -GAMUT_EPSILON && v <= 1 + GAMUT_EPSILON);
}

function channelHex(linear: number): string {
  const v = Math.round(fromLinear(Math.min(1, Math.max(0, linear))) * 255);
  return v.toString(16).padStart(2, "0");
}

/**
 * The sRGB colour for an OKLCH one: lightness clamped to 0–1, chroma reduced
 * (hue and lightness kept) until it fits the sRGB gamut.
 */
function oklchToHex(colour: Oklch): string {
  const l = Math.min(1, Math.max(0, colour.l));
  if (l >= 1) return WHITE;
  if (l <= 0) return "#000000";
  let rgb = oklchToLinearRgb({ ...colour, l });
  if (!inGamut(rgb)) {
    let low = 0;
    let high = colour.c;
    for (let i = 0; i < 24; i++) {
      const mid = (low + high) / 2;
      if (inGamut(oklchToLinearRgb({ l, c: mid, h: colour.h }))) low = mid;
      else high = mid;
    }
    rgb = oklchToLinearRgb({ l, c: low, h: colour.h });
  }
  return `#${rgb.map(channelHex).join("")}`;
}

/** The brand's hue at another lightness and at most `maxChroma`. */
function tone(brand: Oklch, l: number, maxChroma = Number.POSITIVE_INFINITY): string {
  return oklchToHex({ l, c: Math.min(brand.c, maxChroma), h: brand.h });
}

/* -------------------------------------------------------------------------- */
/* Derivation                                                                 */
/* -------------------------------------------------------------------------- */

/** Lightness search: coarse steps (OKLCH L), then halving between the last miss and the first hit. */
const L_STEP = 0.02;
const L_REFINEMENTS = 10;

function passesOn(hex: string, backgrounds: readonly string[], minimum: number): boolean {
  return backgrounds.every((bg) => contrastRatio(hex, bg) >= minimum);
}

/**
 * Starting at `start` (whose hue and chroma are kept), the nearest colour in
 * `direction` (-1 darker, +1 lighter) that `test` accepts, to within
 * L_STEP / 2^L_REFINEMENTS; null when the end of the lightness range is
 * reached first. What it returns always passed `test`.
 */
function nearestLightness(
  start: Oklch,
  startHex: string,
  direction: -1 | 1,
  test: (hex: string) => boolean,
): { hex: string; shift: number } | null {
  if (test(startHex)) return { hex: startHex, shift: 0 };
  let miss = start.l;
  for (let k = 1; ; k++) {
    const l = Math.min(1, Math.max(0, start.l + direction * k * L_STEP));
    let hitHex = oklchToHex({ ...start, l });
    if (test(hitHex)) {
      let hit = l;
      for (let i = 0; i < L_REFINEMENTS; i++) {
        const mid = (miss + hit) / 2;
        const midHex = oklchToHex({ ...start, l: mid });
        if (test(midHex)) {
          hit = mid;
          hitHex = midHex;
        } else {
          miss = mid;
        }
      }
      return { hex: hitHex, shift: Math.abs(hexToOklch(hitHex).l - start.l) };
    }
    if (l <= 0 || l >= 1) return null;
    miss = l;
  }
}

function nearestPassing(
  startHex: string,
  direction: -1 | 1,
  test: (hex: string) => boolean,
): { hex: string; shift: number } | null {
  return nearestLightness(hexToOklch(startHex), startHex, direction, test);
}

/**
 * A hover colour for `base`: the first visibly different step (contrast
 * ≥ HOVER_STEP_CONTRAST between them) in `preferred` direction that `keeps`
 * accepts, else the same in the other direction; null if neither exists.
 */
function hoverStep(base: string, preferred: -1 | 1, keeps: (hex: string) => boolean): string | null {
  for (const direction of [preferred, -preferred as -1 | 1]) {
    const found = nearestPassing(base, direction, (hex) => contrastRatio(hex, base) >= HOVER_STEP_CONTRAST);
    if (found && keeps(found.hex)) return found.hex;
  }
  return null;
}

type Derivation = { tokens: ThemeTokens; primaryShift: number; buttonShift: number };

/** Derives every role from a canonical `#rrggbb`; null when some role cannot be made to pass. */
function derive(brandHex: string): Derivation | null {
  const brand = hexToOklch(brandHex);

  const page = WHITE;
  const surface = tone(brand, 0.985, 0.008);
  const onPageAndSurface = [page, surface];
  const textOn = (minimum: number) => (hex: string) => passesOn(hex, onPageAndSurface, minimum);

  const text = nearestPassing(tone(brand, 0.25, 0.03), -1, textOn(AA_TEXT));
  const mutedText = nearestPassing(tone(brand, 0.5, 0.04), -1, textOn(AA_TEXT));
  const primary = nearestPassing(brandHex, -1, (hex) => passesOn(hex, [page], AA_LARGE_OR_NON_TEXT));
  const link = nearestPassing(brandHex, -1, textOn(AA_TEXT));
  if (!text || !mutedText || !primary || !link) return null;
  const linkHover = hoverStep(link.hex, -1, textOn(AA_TEXT));
  if (!linkHover) return null;

  // Button: the brand colour with whichever text it carries; else the shorter move.
  const ink = nearestPassing(tone(brand, 0.2, 0.04), -1, (hex) => contrastRatio(hex, WHITE) >= 15);
  if (!ink) return null;
  const carries = (textColour: string) => (hex: string) => contrastRatio(hex, textColour) >= AA_TEXT;
  const options: { text: string; fill: { hex: string; shift: number }; away: -1 | 1 }[] = [];
  const underWhite = nearestPassing(brandHex, -1, carries(WHITE));
  if (underWhite) options.push({ text: WHITE, fill: underWhite, away: -1 });
  const underInk = nearestPassing(brandHex, 1, carries(ink.hex));
  if (underInk) options.push({ text: ink.hex, fill: underInk, away: 1 });
  options.sort((a, b) => a.fill.shift - b.fill.shift);
  const chosen = options[0];
  if (!chosen) return null;
  const button = chosen.fill.hex;
  const buttonText = chosen.text;
  const buttonHover = hoverStep(button, chosen.away, carries(buttonText));
  if (!buttonHover) return null;

  const colors: ThemeColors = {
    primary: primary.hex,
    secondary: brandHex,
    tertiary: tone(brand, 0.95, 0.04),
    link: link.hex,
    linkHover,
    button,
    buttonHover,
    bannerBackground: button,
    bannerText: buttonText,
    bannerIcon: primary.hex,
    bannerIconBackground: WHITE,
  };
  const surfaceRoles: ThemeSurface = {
    page,
    text: text.hex,
    mutedText: mutedText.hex,
    buttonText,
    border: tone(brand, 0.88, 0.04),
    focus: link.hex,
    surface,
  };
  return {
    tokens: { colors, surface: surfaceRoles },
    primaryShift: primary.shift,
    buttonShift: chosen.fill.shift,
  };
}

function accepted(derivation: Derivation | null): derivation is Derivation {
  return (
    derivation !== null &&
    derivation.primaryShift <= MAX_LIGHTNESS_SHIFT &&
    derivation.buttonShift <= MAX_LIGHTNESS_SHIFT &&
    themeChecks(derivation.tokens).every((check) => check.passes)
  );
}

/** The lightest colour of the brand's hue (chroma kept as the gamut allows) that is accepted. */
function suggestFor(brandHex: string): string | null {
  const found = nearestLightness(
    hexToOklch(brandHex),
    brandHex,
    -1,
    (hex) => hex !== brandHex && accepted(derive(hex)),
  );
  return found?.hex ?? null;
}

/** The checks shown for a refused colour: what the brand colour itself would give, unmoved. */
function checksAsIs(brandHex: string, derivation: Derivation | null): PairCheck[] {
  const base = derivation?.tokens ?? baseThemeTokens;
  const tokens: ThemeTokens = {
    colors: { ...base.colors, primary: brandHex, button: brandHex, bannerBackground: brandHex, bannerIcon: brandHex },
    surface: base.surface,
  };
  return themeChecks(tokens);
}

/**
 * Every theme role from one brand colour (`#rgb`/`#rrggbb`, see
 * parseBrandColour), or a refusal with the nearest colour that is accepted.
 * Anything that is not a colour is refused with no suggestion.
 */
export function deriveBrand(colour: string): DerivedBrand {
  const brandHex = parseBrandColour(colour);
  if (!brandHex) return { ok: false, checks: [], suggestion: null };
  const derivation = derive(brandHex);
  if (accepted(derivation)) {
    return { ok: true, tokens: derivation.tokens, checks: themeChecks(derivation.tokens) };
  }
  return { ok: false, checks: checksAsIs(brandHex, derivation), suggestion: suggestFor(brandHex) };
}

/** For tests and the decision record: how far a brand colour's primary and button move. */
export function brandShifts(colour: string): { primary: number; button: number } | null {
  const brandHex = parseBrandColour(colour);
  const derivation = brandHex ? derive(brandHex) : null;
  return derivation ? { primary: derivation.primaryShift, button: derivation.buttonShift } : null;
}

/** OKLCH lightness, chroma and hue of a colour (for tests and display). */
export function oklchOf(colour: string): Oklch | null {
  const hex = parseBrandColour(colour);
  return hex ? hexToOklch(hex) : null;
}
