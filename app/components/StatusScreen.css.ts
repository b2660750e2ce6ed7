import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

export const screen = style({
  maxWidth: "36rem",
  margin: "2rem auto",
  padding: "2rem 1.5rem",
  textAlign: "center",
  background: vars.surface.surface,
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 12,
});

export const code = style({
  display: "block",
  fontSize: "0.875rem",
  fontWeight: 600,
  letterSpacing: "0.08em",
  textTransform: "uppercase",
  color: vars.surface.mutedText,
  marginBottom: "0.5rem",
});

export const actions = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "center",
  gap: "0.75rem",
  marginTop: "1.5rem",
});
