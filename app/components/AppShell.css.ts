import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

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
  background: vars.color.bannerBackground,
  color: vars.color.bannerText,
});

export const headerInner = style({
  display: "flex",
  alignItems: "center",
  gap: "0.75rem",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: "0.6rem 1rem",
  minHeight: 60,
});

export const brandLink = style({
  display: "inline-flex",
  alignItems: "center",
  gap: "0.75rem",
  color: vars.color.bannerText,
  textDecoration: "none",
  selectors: {
    "&:hover": { color: vars.color.bannerText, textDecoration: "underline" },
    "&:focus-visible": { outlineColor: vars.color.bannerText },
  },
});

export const logo = style({
  // Fixed box: the logo never shifts the layout while it loads.
  width: 40,
  height: 40,
  flex: "none",
  borderRadius: 8,
  background: vars.color.bannerIconBackground,
});

export const businessName = style({
  fontSize: "1.125rem",
  fontWeight: 700,
  lineHeight: 1.2,
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
  padding: "1.5rem 1rem 2.5rem",
  selectors: { "&:focus": { outline: "none" } },
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

export const userNav = style({
  marginLeft: "auto",
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "flex-end",
  gap: "0.25rem 1rem",
  fontSize: "0.9375rem",
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
