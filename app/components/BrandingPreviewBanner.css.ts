import { globalStyle, style } from "@vanilla-extract/css";
import { WIDE } from "./breakpoints";

/**
 * The preview banner (issue 16), shown above every page while a host admin previews a draft
 * brand: a module of its own, since the shell (every page's bundle) takes its class names.
 */

/** Compact on a phone (text and link wrap beside the button), so the page's heading stays in the first screen. */
export const banner = style({
  background: "#fff4e5",
  color: "#3d2600",
  borderBottom: "2px solid #b54708",
  padding: "0.3rem 0.75rem",
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) auto",
  gap: "0.5rem",
  alignItems: "center",
  fontSize: "0.875rem",
  lineHeight: 1.3,
  "@media": { [WIDE]: { display: "flex", justifyContent: "center", gap: "1rem" } },
});

export const bannerText = style({ margin: 0, fontWeight: 600 });

globalStyle(`${banner} a`, { color: "#3d2600", textDecoration: "underline", fontWeight: 400 });

export const bannerButton = style({
  font: "inherit",
  fontWeight: 600,
  color: "#3d2600",
  background: "transparent",
  border: "2px solid #3d2600",
  borderRadius: 6,
  minHeight: 36,
  padding: "0.2rem 0.6rem",
  cursor: "pointer",
});
