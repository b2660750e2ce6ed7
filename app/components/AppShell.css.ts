import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";
import { WIDE } from "./breakpoints";

export const skipLink = style({
  position: "absolute",
  left: "0.5rem",
  top: "-3rem",
  zIndex: 100,
  padding: "0.6rem 1rem",
  background: vars.color.button,
  color: vars.surface.buttonText,
  fontWeight: 600,
  borderRadius: 6,
  selectors: {
    "&:focus": { top: "0.5rem", color: vars.surface.buttonText },
  },
});

export const header = style({
  // The phone menu's panel is placed under the whole header.
  position: "relative",
  background: vars.color.bannerBackground,
  color: vars.color.bannerText,
});

export const headerInner = style({
  display: "flex",
  alignItems: "center",
  gap: "0.75rem",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: "0.5rem 1rem",
  minHeight: 56,
});

export const brandLink = style({
  display: "inline-flex",
  alignItems: "center",
  gap: "0.625rem",
  minWidth: 0,
  minHeight: 44,
  color: vars.color.bannerText,
  textDecoration: "none",
  selectors: {
    "&:hover": { color: vars.color.bannerText, textDecoration: "underline" },
    "&:focus-visible": { outlineColor: vars.color.bannerText },
  },
});

export const logo = style({
  // Fixed box: the logo never shifts the layout while it loads; an uploaded one keeps its shape.
  width: 40,
  height: 40,
  objectFit: "contain",
  flex: "none",
  borderRadius: 8,
  background: vars.color.bannerIconBackground,
});

export const businessName = style({
  minWidth: 0,
  fontSize: "1.0625rem",
  fontWeight: 700,
  lineHeight: 1.2,
  overflowWrap: "anywhere",
  "@media": { [WIDE]: { fontSize: "1.125rem" } },
});

export const businessLabel = style({
  display: "block",
  fontSize: "0.8125rem",
  fontWeight: 400,
});

export const main = style({
  flex: "1 0 auto",
  width: "100%",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: "1rem 1rem 2rem",
  selectors: { "&:focus": { outline: "none" } },
  "@media": { [WIDE]: { padding: "1.5rem 1rem 2.5rem" } },
});

export const footer = style({
  borderTop: `1px solid ${vars.surface.border}`,
  background: vars.surface.surface,
  color: vars.surface.mutedText,
  fontSize: "0.875rem",
});

export const footerInner = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0.5rem 1.5rem",
  justifyContent: "space-between",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: "1rem",
});

export const footerLinks = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0.25rem 1.25rem",
  listStyle: "none",
  margin: 0,
  padding: 0,
});

export const footerLink = style({
  display: "inline-block",
  padding: "0.35rem 0", // comfortable touch target inside the footer line
});

export const copyright = style({ margin: 0, padding: "0.35rem 0" });

/** The login's actions in the wide bar; on a phone they are in the menu. */
export const userNav = style({
  marginLeft: "auto",
  display: "none",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "flex-end",
  gap: "0.25rem 1rem",
  fontSize: "0.9375rem",
  "@media": { [WIDE]: { display: "flex" } },
});

export const userName = style({ fontWeight: 600 });

export const headerAction = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: 44,
  padding: "0 0.25rem",
  border: 0,
  background: "transparent",
  color: vars.color.bannerText,
  font: "inherit",
  textDecoration: "underline",
  textUnderlineOffset: "0.15em",
  cursor: "pointer",
  selectors: {
    "&:hover": { color: vars.color.bannerText, textDecorationThickness: 2 },
    "&:focus-visible": { outlineColor: vars.color.bannerText },
  },
});

export const language = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: "0.5rem",
  minHeight: 44,
});

globalStyle(`${language} select, ${language} button`, { font: "inherit", minHeight: 36, padding: "0.25rem 0.5rem" });

/** The phone's menu: a `<details>` in the slim bar, gone from 900 px. */
export const menu = style({
  marginLeft: "auto",
  flex: "none",
  "@media": { [WIDE]: { display: "none" } },
});

export const menuButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: "0.5rem",
  minHeight: 44,
  padding: "0 0.875rem",
  border: `2px solid ${vars.color.bannerText}`,
  borderRadius: 6,
  color: vars.color.bannerText,
  fontWeight: 600,
  listStyle: "none",
  cursor: "pointer",
  userSelect: "none",
  selectors: {
    "&::-webkit-details-marker": { display: "none" },
    "&:focus-visible": { outlineColor: vars.color.bannerText },
    [`${menu}[open] > &`]: { background: vars.color.bannerText, color: vars.color.bannerBackground },
  },
});

/** Three bars drawn in the text colour, so it follows the theme and the open state. */
export const menuIcon = style({
  display: "inline-block",
  width: 18,
  height: 2,
  margin: "6px 0",
  background: "currentColor",
  boxShadow: "0 -6px 0 currentColor, 0 6px 0 currentColor",
});

export const menuPanel = style({
  position: "absolute",
  zIndex: 50,
  top: "100%",
  left: 0,
  right: 0,
  maxHeight: "calc(100vh - 4rem)",
  overflowY: "auto",
  padding: "0.25rem 1rem 0.75rem",
  background: vars.surface.page,
  color: vars.surface.text,
  borderBottom: `1px solid ${vars.surface.border}`,
  boxShadow: "0 8px 24px rgb(0 0 0 / 20%)",
});

export const menuUser = style({
  margin: 0,
  padding: "0.75rem 0.5rem",
  fontWeight: 600,
  overflowWrap: "anywhere",
});

export const menuGroup = style({
  display: "grid",
  padding: "0.25rem 0",
  borderTop: `1px solid ${vars.surface.border}`,
});

/** A group's name in the phone menu (the Admin section), above its links. */
export const menuGroupTitle = style({
  margin: 0,
  padding: "0.5rem 0.75rem 0.25rem",
  color: vars.surface.mutedText,
  fontSize: "0.875rem",
  fontWeight: 600,
  textTransform: "uppercase",
  letterSpacing: "0.04em",
});

export const menuItem = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: "1rem",
  width: "100%",
  minHeight: 48,
  padding: "0 0.75rem",
  border: 0,
  borderRadius: 4,
  background: "transparent",
  color: vars.color.link,
  font: "inherit",
  fontWeight: 600,
  textAlign: "left",
  textDecoration: "none",
  cursor: "pointer",
  selectors: {
    "&:hover": { color: vars.color.linkHover, textDecoration: "underline" },
    "&:focus-visible": { outlineOffset: -3 },
    '&[aria-current="page"]': { boxShadow: `inset 4px 0 0 ${vars.color.primary}`, color: vars.color.primary },
  },
});

export const menuValue = style({ color: vars.surface.mutedText, fontWeight: 400 });

/** The wide screen's second bar: the account switcher and the sections, from 900 px. */
export const wideBar = style({
  display: "none",
  borderBottom: `1px solid ${vars.surface.border}`,
  background: vars.surface.surface,
  color: vars.surface.text,
  "@media": { [WIDE]: { display: "block" } },
});

export const wideBarInner = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: "0.25rem 2rem",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: "0.5rem 1rem",
});

export const wideLinks = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0 1.25rem",
});

export const wideLink = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: 44,
  selectors: {
    '&[aria-current="page"]': { color: vars.color.primary, fontWeight: 700, textDecorationThickness: 3 },
  },
});

/** The Admin bar's name on a wide screen, before its links. */
export const wideGroupTitle = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: 44,
  color: vars.surface.mutedText,
  fontWeight: 700,
});
