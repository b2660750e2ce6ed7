/**
 * Colour tokens for the fifteen brand themes. Pure data: no vanilla-extract
 * import, so tests, scripts and server code can read it directly.
 *
 * Every theme must pass the WCAG AA pairs in ./contrast.ts (CONTRAST_PAIRS);
 * ./contrast.test.ts enforces that. Where a brand colour is too light to carry
 * white text (sorrell-brown, blaze-orange, light-red) the button and banner use
 * the brand colour with dark text; where it is just short of 4.5:1 against
 * white (lochmara, torch-red) the button and link use a darker shade and the
 * exact brand colour is kept for `primary`/`secondary` (3:1 large text and
 * non-text use).
 */
import type { ThemeName } from "./names";

/** The eleven brand colour roles. */
export type ThemeColors = {
  /** Brand colour: headings, accents, borders of key elements (large text / non-text, ≥3:1 on page). */
  primary: string;
  /** Secondary brand colour: decorative accents, no contrast requirement. */
  secondary: string;
  /** Light brand tint: decorative fills, no contrast requirement. */
  tertiary: string;
  link: string;
  linkHover: string;
  button: string;
  buttonHover: string;
  bannerBackground: string;
  bannerText: string;
  bannerIcon: string;
  bannerIconBackground: string;
};

/** Neutral surface roles. */
export type ThemeSurface = {
  /** Page background. */
  page: string;
  /** Body text. */
  text: string;
  mutedText: string;
  /** Text on `colors.button` and `colors.buttonHover`. */
  buttonText: string;
  /** Decorative borders (no contrast requirement). */
  border: string;
  /** Focus ring colour. */
  focus: string;
  /** Card / panel background. */
  surface: string;
};

export type ThemeTokens = {
  colors: ThemeColors;
  surface: ThemeSurface;
};

/**
 * The base theme on its own: the neutral surfaces every derived brand colour keeps. Browser code (the
 * branding form's live check) imports this alone, so the fourteen other themes stay out of its bundle.
 */
export const baseThemeTokens: ThemeTokens = {
  colors: {
    primary: "#2b4c7e",
    secondary: "#4a6fa5",
    tertiary: "#e8eef6",
    link: "#1f5aa6",
    linkHover: "#143d73",
    button: "#2b4c7e",
    buttonHover: "#1e3659",
    bannerBackground: "#e8eef6",
    bannerText: "#1b2b44",
    bannerIcon: "#2b4c7e",
    bannerIconBackground: "#ffffff",
  },
  surface: {
    page: "#ffffff",
    text: "#1e293b",
    mutedText: "#475569",
    buttonText: "#ffffff",
    border: "#cbd5e1",
    focus: "#2563eb",
    surface: "#f8fafc",
  },
};

export const themeTokens: Record<ThemeName, ThemeTokens> = {
  base: baseThemeTokens,
  "light-red": {
    colors: {
      primary: "#d63a3a",
      secondary: "#f28b82",
      tertiary: "#fdecea",
      link: "#b3261e",
      linkHover: "#8c1d18",
      button: "#f28b82",
      buttonHover: "#ee6b60",
      bannerBackground: "#fdecea",
      bannerText: "#5f1410",
      bannerIcon: "#c62828",
      bannerIconBackground: "#ffffff",
    },
    surface: {
      page: "#ffffff",
      text: "#2b1b1b",
      mutedText: "#5c4a4a",
      buttonText: "#2a0e0c",
      border: "#f1c6c2",
      focus: "#b3261e",
      surface: "#fff8f7",
    },
  },
  "dark-blue": {
    colors: {
      primary: "#1e3a8a",
      secondary: "#3b5bad",
      tertiary: "#e6ecf8",
      link: "#1e40af",
      linkHover: "#172e7a",
      button: "#1e3a8a",
      buttonHover: "#162b66",
      bannerBackground: "#1e3a8a",
      bannerText: "#ffffff",
      bannerIcon: "#1e3a8a",
      bannerIconBackground: "#dce5f7",
    },
    surface: {
      page: "#ffffff",
      text: "#111827",
      mutedText: "#4b5563",
      buttonText: "#ffffff",
      border: "#c7d2e8",
      focus: "#1e40af",
      surface: "#f5f7fc",
    },
  },
  "navy-blue": {
    colors: {
      primary: "#1a237e",
      secondary: "#3949ab",
      tertiary: "#e8eaf6",
      link: "#283593",
      linkHover: "#1a237e",
      button: "#1a237e",
      buttonHover: "#0d1450",
      bannerBackground: "#e8eaf6",
      bannerText: "#1a237e",
      bannerIcon: "#ffffff",
      bannerIconBackground: "#1a237e",
    },
    surface: {
      page: "#ffffff",
      text: "#171a2e",
      mutedText: "#4a4e69",
      buttonText: "#ffffff",
      border: "#c5cae9",
      focus: "#3949ab",
      surface: "#f7f8fc",
    },
  },
  "strong-red": {
    colors: {
      primary: "#c8102e",
      secondary: "#e03a4e",
      tertiary: "#fde8eb",
      link: "#b00e28",
      linkHover: "#86091d",
      button: "#c8102e",
      buttonHover: "#a00c24",
      bannerBackground: "#c8102e",
      bannerText: "#ffffff",
      bannerIcon: "#ffffff",
      bannerIconBackground: "#8f0b21",
    },
    surface: {
      page: "#ffffff",
      text: "#1f1416",
      mutedText: "#5a4a4d",
      buttonText: "#ffffff",
      border: "#f0c4cb",
      focus: "#c8102e",
      surface: "#fff7f8",
    },
  },
  monza: {
    colors: {
      primary: "#c7031e",
      secondary: "#e23a50",
      tertiary: "#fce6e9",
      link: "#b0031b",
      linkHover: "#850215",
      button: "#c7031e",
      buttonHover: "#9e0218",
      bannerBackground: "#fce6e9",
      bannerText: "#6b0210",
      bannerIcon: "#c7031e",
      bannerIconBackground: "#ffffff",
    },
    surface: {
      page: "#ffffff",
      text: "#1f1718",
      mutedText: "#574a4c",
      buttonText: "#ffffff",
      border: "#efc2c8",
      focus: "#c7031e",
      surface: "#fff8f9",
    },
  },
  "torch-red": {
    colors: {
      primary: "#fd0e35",
      secondary: "#ff5c77",
      tertiary: "#ffe7eb",
      link: "#c8002a",
      linkHover: "#9c0021",
      button: "#d6002b",
      buttonHover: "#ad0023",
      bannerBackground: "#ffe7eb",
      bannerText: "#8a001d",
      bannerIcon: "#fd0e35",
      bannerIconBackground: "#ffffff",
    },
    surface: {
      page: "#ffffff",
      text: "#211416",
      mutedText: "#5b4a4d",
      buttonText: "#ffffff",
      border: "#f7c3cc",
      focus: "#d6002b",
      surface: "#fff8f9",
    },
  },
  lochmara: {
    colors: {
      primary: "#007ec7",
      secondary: "#3fa2db",
      tertiary: "#e3f2fb",
      link: "#006ba8",
      linkHover: "#004f7c",
      button: "#0070b2",
      buttonHover: "#005a8f",
      bannerBackground: "#e3f2fb",
      bannerText: "#00466f",
      bannerIcon: "#ffffff",
      bannerIconBackground: "#007ec7",
    },
    surface: {
      page: "#ffffff",
      text: "#14212b",
      mutedText: "#475a66",
      buttonText: "#ffffff",
      border: "#bfdff2",
      focus: "#007ec7",
      surface: "#f5fafd",
    },
  },
  "sorrell-brown": {
    colors: {
      primary: "#7d6438",
      secondary: "#ceb98f",
      tertiary: "#f6f1e7",
      link: "#6e5630",
      linkHover: "#4f3d20",
      button: "#ceb98f",
      buttonHover: "#bfa774",
      bannerBackground: "#ceb98f",
      bannerText: "#2b2114",
      bannerIcon: "#5a4626",
      bannerIconBackground: "#f6f1e7",
    },
    surface: {
      page: "#fffefb",
      text: "#2b2620",
      mutedText: "#5e574c",
      buttonText: "#2b2114",
      border: "#e6dcc6",
      focus: "#7d6438",
      surface: "#fbf8f2",
    },
  },
  "blaze-orange": {
    colors: {
      primary: "#e05a00",
      secondary: "#ff6600",
      tertiary: "#fff0e5",
      link: "#b34700",
      linkHover: "#8a3700",
      button: "#ff6600",
      buttonHover: "#e65c00",
      bannerBackground: "#ff6600",
      bannerText: "#1f1300",
      bannerIcon: "#ff6600",
      bannerIconBackground: "#1f1300",
    },
    surface: {
      page: "#ffffff",
      text: "#231a14",
      mutedText: "#5c5047",
      buttonText: "#1f1300",
      border: "#ffd2b3",
      focus: "#b34700",
      surface: "#fff9f5",
    },
  },
  "science-blue": {
    colors: {
      primary: "#0066cc",
      secondary: "#3d8be0",
      tertiary: "#e5f0fb",
      link: "#0060c0",
      linkHover: "#004a94",
      button: "#0066cc",
      buttonHover: "#0052a3",
      bannerBackground: "#0066cc",
      bannerText: "#ffffff",
      bannerIcon: "#0066cc",
      bannerIconBackground: "#ffffff",
    },
    surface: {
      page: "#ffffff",
      text: "#142033",
      mutedText: "#4a5568",
      buttonText: "#ffffff",
      border: "#bcd6f2",
      focus: "#0066cc",
      surface: "#f5f9fe",
    },
  },
  crimson: {
    colors: {
      primary: "#dc143c",
      secondary: "#e8476a",
      tertiary: "#fce8ec",
      link: "#b80f32",
      linkHover: "#8c0b26",
      button: "#c41236",
      buttonHover: "#9e0e2b",
      bannerBackground: "#dc143c",
      bannerText: "#ffffff",
      bannerIcon: "#dc143c",
      bannerIconBackground: "#ffffff",
    },
    surface: {
      page: "#ffffff",
      text: "#22171a",
      mutedText: "#5a4a4e",
      buttonText: "#ffffff",
      border: "#f3c1cb",
      focus: "#dc143c",
      surface: "#fff8f9",
    },
  },
  sycamore: {
    colors: {
      primary: "#908d39",
      secondary: "#b5b26a",
      tertiary: "#f3f2e3",
      link: "#656325",
      linkHover: "#4a481a",
      button: "#6e6b27",
      buttonHover: "#55531d",
      bannerBackground: "#908d39",
      bannerText: "#1a1906",
      bannerIcon: "#ffffff",
      bannerIconBackground: "#6e6b27",
    },
    surface: {
      page: "#fdfdf8",
      text: "#23221a",
      mutedText: "#55534a",
      buttonText: "#ffffff",
      border: "#deddc0",
      focus: "#656325",
      surface: "#f8f7ee",
    },
  },
  "english-holly": {
    colors: {
      primary: "#022d15",
      secondary: "#1e5c3a",
      tertiary: "#e6f0ea",
      link: "#0b5a31",
      linkHover: "#022d15",
      button: "#022d15",
      buttonHover: "#0b4a29",
      bannerBackground: "#022d15",
      bannerText: "#ffffff",
      bannerIcon: "#022d15",
      bannerIconBackground: "#cfe5d8",
    },
    surface: {
      page: "#ffffff",
      text: "#17211b",
      mutedText: "#4a5850",
      buttonText: "#ffffff",
      border: "#c3d9cb",
      focus: "#0b5a31",
      surface: "#f5f9f6",
    },
  },
  "electric-violet": {
    colors: {
      primary: "#8b00ff",
      secondary: "#a64dff",
      tertiary: "#f3e6ff",
      link: "#7a00e0",
      linkHover: "#5c00a8",
      button: "#8b00ff",
      buttonHover: "#6f00cc",
      bannerBackground: "#f3e6ff",
      bannerText: "#4b0088",
      bannerIcon: "#ffffff",
      bannerIconBackground: "#8b00ff",
    },
    surface: {
      page: "#ffffff",
      text: "#1e1626",
      mutedText: "#554a60",
      buttonText: "#ffffff",
      border: "#dcc2f7",
      focus: "#8b00ff",
      surface: "#fbf7ff",
    },
  },
};
