import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

export const filters = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(10rem, 1fr))",
  gap: "0.75rem 1rem",
  alignItems: "end",
  margin: "1rem 0",
});

export const filterActions = style({ display: "flex", gap: "0.5rem", flexWrap: "wrap" });

export const scroll = style({ overflowX: "auto", margin: "0 0 1rem" });

export const table = style({
  width: "100%",
  borderCollapse: "collapse",
  fontVariantNumeric: "tabular-nums",
  selectors: {},
});

export const number = style({ textAlign: "right", whiteSpace: "nowrap" });

export const pager = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0.5rem 1.5rem",
  alignItems: "center",
  margin: "0 0 1rem",
  color: vars.surface.text,
});

export const details = style({
  display: "grid",
  gridTemplateColumns: "minmax(8rem, max-content) 1fr",
  gap: "0.4rem 1.5rem",
  margin: "0 0 1.5rem",
});

export const list = style({ listStyle: "none", margin: "0 0 1rem", padding: 0 });

export const listItem = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  alignItems: "center",
  gap: "0.5rem 1rem",
  padding: "0.6rem 0",
  borderBottom: `1px solid ${vars.surface.border}`,
});

export const badge = style({
  display: "inline-block",
  padding: "0 0.4rem",
  border: `1px solid ${vars.surface.text}`,
  borderRadius: 4,
  fontSize: "0.8rem",
  color: vars.surface.text,
});
