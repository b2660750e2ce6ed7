import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

export const bar = style({
  borderBottom: `1px solid ${vars.surface.border}`,
  background: vars.surface.surface,
  color: vars.surface.text,
});

export const form = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: "0.5rem",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: "0.5rem 1rem 0",
});

export const label = style({ fontWeight: 600 });

export const select = style({
  font: "inherit",
  minHeight: 44,
  maxWidth: "100%",
  flex: "1 1 16rem",
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

export const links = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0.25rem 1.25rem",
  maxWidth: "72rem",
  margin: "0 auto",
  padding: "0.25rem 1rem 0.5rem",
});
