/**
 * One vanilla-extract theme class per brand theme, all over the `vars` contract.
 *
 * All fifteen live in one stylesheet (~2 KB of custom properties) because host
 * admins can preview any theme; apply `themeClass[name]` to a wrapping element.
 */
import { createTheme } from "@vanilla-extract/css";

import { vars } from "./contract.css";
import { THEME_NAMES, type ThemeName } from "./names";
import { themeTokens } from "./tokens";

const entries = THEME_NAMES.map((name): [ThemeName, string] => {
  const { colors, surface } = themeTokens[name];
  return [name, createTheme(vars, { color: colors, surface }, `theme-${name}`)];
});

export const themeClass = Object.fromEntries(entries) as Record<ThemeName, string>;
