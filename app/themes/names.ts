/** The fifteen theme names of spec §3, in the spec's order. 'base' is the default. */
export const THEME_NAMES = [
  "base",
  "light-red",
  "dark-blue",
  "navy-blue",
  "strong-red",
  "monza",
  "torch-red",
  "lochmara",
  "sorrell-brown",
  "blaze-orange",
  "science-blue",
  "crimson",
  "sycamore",
  "english-holly",
  "electric-violet",
] as const;

export type ThemeName = (typeof THEME_NAMES)[number];

export const DEFAULT_THEME: ThemeName = "base";

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === "string" && (THEME_NAMES as readonly string[]).includes(value);
}
