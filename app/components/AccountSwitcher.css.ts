import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";
import { WIDE } from "./breakpoints";

export const form = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: "0.5rem",
  flex: "0 1 auto",
});

export const label = style({ fontWeight: 600 });

export const select = style({
  font: "inherit",
  minHeight: 44,
  minWidth: 0,
  width: "18rem",
  maxWidth: "100%",
  padding: "0.4rem 0.5rem",
  border: `2px solid ${vars.surface.mutedText}`,
  borderRadius: 6,
  background: vars.surface.page,
  color: vars.surface.text,
});

export const button = style({
  font: "inherit",
  fontWeight: 600,
  minHeight: 44,
  padding: "0.4rem 1rem",
  border: 0,
  borderRadius: 6,
  background: vars.color.button,
  color: vars.surface.buttonText,
  cursor: "pointer",
  selectors: { "&:hover": { background: vars.color.buttonHover } },
});

/** The phone's one-line account bar; the wide bar's switcher replaces it from 900 px. */
export const compact = style({
  borderBottom: `1px solid ${vars.surface.border}`,
  background: vars.surface.surface,
  color: vars.surface.text,
  "@media": { [WIDE]: { display: "none" } },
});

export const compactRow = style({
  display: "flex",
  alignItems: "center",
  gap: "0.5rem",
  minHeight: 44,
  maxWidth: "72rem",
  margin: "0 auto",
  padding: "0.25rem 1rem",
  color: vars.surface.text,
  textDecoration: "none",
  fontSize: "0.9375rem",
});

export const compactLink = style([
  compactRow,
  {
    selectors: {
      "&:hover": { color: vars.surface.text, background: vars.surface.page },
      "&:focus-visible": { outlineOffset: -3 },
    },
  },
]);

export const compactLabel = style({ color: vars.surface.mutedText, flex: "none" });

export const compactName = style({
  flex: "1 1 auto",
  minWidth: 0,
  fontWeight: 600,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});

export const compactAction = style({
  flex: "none",
  color: vars.color.link,
  textDecoration: "underline",
  textUnderlineOffset: "0.15em",
});
