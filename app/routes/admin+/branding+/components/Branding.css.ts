import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";
import { WIDE } from "~/components/breakpoints";

/**
 * The host admin's branding pages (issue 16). Phone first: one column at 360 px; the theme
 * swatches wrap into as many columns as fit; the preview frames stack, and sit side by side
 * from 900 px. Colours of swatches are SVG `fill` attributes (the CSP allows no inline style).
 */
export const section = style({ margin: "0 0 2rem", maxWidth: "60rem" });

export const swatchGrid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 15rem), 1fr))",
  gap: "0.5rem",
});

export const swatchOption = style({
  display: "grid",
  gridTemplateColumns: "auto minmax(0, 1fr)",
  gap: "0.25rem 0.6rem",
  alignItems: "start",
  padding: "0.5rem 0.6rem",
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 6,
  selectors: {
    "&:has(input:checked)": { borderColor: vars.color.primary, boxShadow: `0 0 0 1px ${vars.color.primary}` },
  },
});

export const swatchLabel = style({ display: "grid", gap: "0.3rem", fontWeight: 600 });

export const swatch = style({ display: "block", maxWidth: "100%", height: "auto" });

export const customFields = style({ display: "grid", gap: "0.75rem", gridColumn: "1 / -1", marginTop: "0.5rem" });

// Show only what applies: the colour fields while "My own brand colour" is chosen (CSS, no script).
globalStyle(`${swatchOption}:has(> input[type="radio"]:not(:checked)) ${customFields}`, { display: "none" });

export const colourRow = style({ display: "flex", flexWrap: "wrap", gap: "0.5rem", alignItems: "end" });

export const picker = style({ width: 56, height: 44, padding: 2, border: `2px solid ${vars.surface.mutedText}` });

export const formWide = style({ display: "grid", gap: "1.25rem", maxWidth: "40rem", margin: "0 0 1.5rem" });

/** A fixed box (the image's own shape kept inside it), so nothing moves when it arrives. */
export const currentImage = style({
  display: "block",
  width: 160,
  height: 64,
  objectFit: "contain",
  objectPosition: "left center",
  background: vars.surface.surface,
  padding: 4,
  borderRadius: 4,
});

export const contrast = style({ margin: "0 0 1.5rem", maxWidth: "40rem" });

export const contrastSummary = style({
  cursor: "pointer",
  fontWeight: 600,
  minHeight: 44,
  display: "flex",
  alignItems: "center",
  color: vars.color.link,
});

export const contrastCaption = style({ display: "block", textAlign: "left", margin: "0.5rem 0", fontWeight: 600 });

export const pairSample = style({ display: "inline-block", verticalAlign: "middle" });

export const pass = style({ fontWeight: 600 });

export const fail = style({ fontWeight: 700, color: "#b42318" });

export const changes = style({ margin: "0 0 1rem", paddingLeft: "1.25rem", overflowWrap: "anywhere" });

export const history = style({ listStyle: "none", margin: 0, padding: 0 });

export const historyItem = style({
  padding: "0.75rem 0",
  borderBottom: `1px solid ${vars.surface.border}`,
  overflowWrap: "anywhere",
});

export const frames = style({
  display: "grid",
  gap: "1.5rem",
  "@media": { [WIDE]: { gridTemplateColumns: "auto minmax(0, 1fr)", alignItems: "start" } },
});

export const frameGroup = style({ display: "grid", gap: "1rem", alignContent: "start" });

export const frameFigure = style({ margin: 0, display: "grid", gap: "0.3rem" });

export const frameCaption = style({ fontWeight: 600 });

/**
 * A frame is drawn at its true width (360 or 1280 CSS px, so the page inside lays out as on
 * that screen) and scaled down to fit: the box around it has the scaled size.
 */
const frameBox = {
  overflow: "hidden",
  border: `1px solid ${vars.surface.mutedText}`,
  borderRadius: 4,
  background: "#ffffff",
} as const;

export const phoneBox = style({
  ...frameBox,
  width: 270,
  height: 555,
  "@media": { [WIDE]: { width: 360, height: 740 } },
});

export const desktopBox = style({
  ...frameBox,
  width: 320,
  height: 200,
  "@media": { [WIDE]: { width: 640, height: 400 } },
});

export const phoneFrame = style({
  width: 360,
  height: 740,
  border: 0,
  transformOrigin: "0 0",
  transform: "scale(0.75)",
  "@media": { [WIDE]: { transform: "none" } },
});

export const desktopFrame = style({
  width: 1280,
  height: 800,
  border: 0,
  transformOrigin: "0 0",
  transform: "scale(0.25)",
  "@media": { [WIDE]: { transform: "scale(0.5)" } },
});

export const pagePicker = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0.5rem",
  alignItems: "end",
  margin: "0 0 1rem",
});

export const shareLink = style({ overflowWrap: "anywhere", fontFamily: "monospace" });
