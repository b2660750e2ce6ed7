import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

/**
 * The sandbox bank's own look: a plain, bank-like page in fixed colours that owe nothing to
 * the host's theme, so nobody mistakes it for the portal (decision 027). The portal's global
 * rules read the theme variables; they are set here to the bank's colours for this page.
 */
const ink = "#14213d";
const teal = "#0b6e4f";
const paper = "#f4f1ea";

export const page = style({
  vars: {
    [vars.surface.page]: paper,
    [vars.surface.text]: ink,
    [vars.surface.mutedText]: "#4a5568",
    [vars.surface.buttonText]: "#ffffff",
    [vars.surface.border]: "#8a8f98",
    [vars.surface.focus]: "#b7410e",
    [vars.surface.surface]: "#ffffff",
    [vars.color.primary]: ink,
    [vars.color.link]: "#0b5394",
    [vars.color.linkHover]: "#073763",
    [vars.color.button]: teal,
    [vars.color.buttonHover]: "#084c36",
  },
  flex: 1,
  minHeight: "100vh",
  background: paper,
  color: ink,
  fontFamily: 'Georgia, "Times New Roman", serif',
});

export const banner = style({
  margin: 0,
  padding: "0.6rem 1rem",
  background: "#fff3bf",
  color: "#3d2c00",
  borderBottom: "3px dashed #b08900",
  fontFamily: "system-ui, sans-serif",
  fontSize: "0.95rem",
});

export const header = style({
  background: ink,
  color: "#ffffff",
  padding: "0.9rem 1rem",
});

globalStyle(`${header} h1`, { color: "#ffffff", margin: 0, fontSize: "1.4rem" });
globalStyle(`${header} p`, { margin: "0.2rem 0 0", color: "#d9e2ec", fontSize: "0.9rem" });

export const main = style({
  maxWidth: "40rem",
  margin: "0 auto",
  padding: "1rem",
  display: "grid",
  gap: "1.25rem",
});

export const panel = style({
  background: "#ffffff",
  border: "1px solid #c9c2b3",
  borderRadius: "0.4rem",
  padding: "1rem",
  minWidth: 0,
});

globalStyle(`${panel} h2`, { marginTop: 0, fontSize: "1.15rem" });

export const field = style({ display: "grid", gap: "0.3rem", marginBottom: "0.8rem", minWidth: 0 });

globalStyle(`${field} label`, { fontWeight: 700, fontFamily: "system-ui, sans-serif" });
globalStyle(`${field} input`, {
  font: "inherit",
  fontFamily: "system-ui, sans-serif",
  padding: "0.55rem 0.6rem",
  border: "1px solid #8a8f98",
  borderRadius: "0.3rem",
  width: "100%",
  minWidth: 0,
});
globalStyle(`${field} input[aria-invalid="true"]`, { borderColor: "#b00020", borderWidth: 2 });

export const hint = style({ color: "#4a5568", fontSize: "0.9rem", margin: 0, fontFamily: "system-ui, sans-serif" });

export const fieldError = style({ color: "#b00020", fontWeight: 700, margin: 0, fontFamily: "system-ui, sans-serif" });

export const button = style({
  font: "inherit",
  fontFamily: "system-ui, sans-serif",
  fontWeight: 700,
  minHeight: "2.75rem",
  padding: "0.5rem 1rem",
  borderRadius: "0.3rem",
  border: `2px solid ${teal}`,
  background: teal,
  color: "#ffffff",
  cursor: "pointer",
  selectors: {
    "&:hover": { background: "#084c36" },
    "&:focus-visible": { outline: "3px solid #b7410e", outlineOffset: 2 },
  },
});

export const secondaryButton = style([
  button,
  {
    background: "#ffffff",
    color: "#7a1d12",
    borderColor: "#7a1d12",
    selectors: { "&:hover": { background: "#fbeae7" } },
  },
]);

export const notice = style({
  padding: "0.75rem 1rem",
  borderRadius: "0.3rem",
  background: "#e3f4ec",
  border: `1px solid ${teal}`,
  fontFamily: "system-ui, sans-serif",
});

export const problem = style({
  padding: "0.75rem 1rem",
  borderRadius: "0.3rem",
  background: "#fdecee",
  border: "1px solid #b00020",
  color: "#5c0011",
  fontFamily: "system-ui, sans-serif",
});

export const list = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: "0.75rem" });

export const agreement = style({
  border: "1px solid #c9c2b3",
  borderLeft: `6px solid ${teal}`,
  borderRadius: "0.3rem",
  padding: "0.75rem",
  background: "#fffdf8",
  minWidth: 0,
  overflowWrap: "anywhere",
});

export const pending = style({ borderLeftColor: "#b08900" });

globalStyle(`${agreement} h3`, { margin: "0 0 0.4rem", fontSize: "1.05rem" });

export const facts = style({
  display: "grid",
  gridTemplateColumns: "auto 1fr",
  gap: "0.2rem 0.75rem",
  margin: "0 0 0.6rem",
  fontFamily: "system-ui, sans-serif",
  fontSize: "0.95rem",
});

globalStyle(`${facts} dt`, { fontWeight: 700 });
globalStyle(`${facts} dd`, { margin: 0, minWidth: 0 });

export const actions = style({ display: "flex", flexWrap: "wrap", gap: "0.5rem" });

export const inlineForm = style({ display: "flex", flexWrap: "wrap", gap: "0.5rem", alignItems: "end" });

globalStyle(`${inlineForm} > div`, { flex: "1 1 14rem", marginBottom: 0 });
