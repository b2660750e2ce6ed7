import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

export const tiles = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(13rem, 1fr))",
  gap: "1rem",
  listStyle: "none",
  margin: "1rem 0 1.5rem",
  padding: 0,
});

export const tile = style({
  display: "grid",
  gap: "0.25rem",
  padding: "1rem",
  border: `1px solid ${vars.surface.border}`,
  borderTop: `4px solid ${vars.color.primary}`,
  borderRadius: 8,
  background: vars.surface.surface,
});

export const tileLabel = style({ fontWeight: 600, color: vars.surface.text });
export const tileValue = style({
  fontSize: "1.6rem",
  fontWeight: 700,
  color: vars.surface.text,
  fontVariantNumeric: "tabular-nums",
});
export const tileNote = style({ color: vars.surface.mutedText, fontSize: "0.95rem" });
