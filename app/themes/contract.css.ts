/**
 * The single theme contract every brand theme fills in (see ./themes.css.ts).
 * Components style against `vars` only, never against a concrete theme.
 */
import { createThemeContract } from "@vanilla-extract/css";

export const vars = createThemeContract({
  color: {
    primary: null,
    secondary: null,
    tertiary: null,
    link: null,
    linkHover: null,
    button: null,
    buttonHover: null,
    bannerBackground: null,
    bannerText: null,
    bannerIcon: null,
    bannerIconBackground: null,
  },
  surface: {
    page: null,
    text: null,
    mutedText: null,
    buttonText: null,
    border: null,
    focus: null,
    surface: null,
  },
});
