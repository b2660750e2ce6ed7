import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

export const form = style({ display: "grid", gap: "1rem", maxWidth: "26rem", margin: "0 0 1.5rem" });

export const field = style({ display: "grid", gap: "0.3rem" });

export const label = style({ fontWeight: 600 });

// Hints may quote a long PayID or email address: break it rather than push the page sideways.
export const hint = style({ color: vars.surface.mutedText, fontSize: "0.9rem", margin: 0, overflowWrap: "anywhere" });

export const input = style({
  font: "inherit",
  // A text input's intrinsic width (about 20 characters) would otherwise set the minimum of its
  // grid column and push a narrow field (card expiry) past a 360 px screen.
  minWidth: 0,
  maxWidth: "100%",
  minHeight: 44,
  padding: "0.5rem 0.7rem",
  border: `2px solid ${vars.surface.mutedText}`,
  borderRadius: 6,
  background: vars.surface.page,
  color: vars.surface.text,
  selectors: {
    '&[aria-invalid="true"]': { borderColor: "#b42318" },
  },
});

export const error = style({ color: "#b42318", fontWeight: 600, margin: 0, fontSize: "0.95rem" });

export const alert = style({
  padding: "0.75rem 1rem",
  borderRadius: 6,
  border: "2px solid #b42318",
  background: "#fef3f2",
  color: "#7a271a",
  margin: "0 0 1rem",
});

/**
 * Links in an error (the summary's links to each field): one style on every form, the alert's own
 * dark red, bold and underlined, never the theme's link colour on one form and red on another (issue 32).
 */
globalStyle(`${alert} a`, { color: "inherit", fontWeight: 600, textDecoration: "underline" });

export const notice = style({
  padding: "0.75rem 1rem",
  borderRadius: 6,
  border: `2px solid ${vars.color.primary}`,
  background: vars.surface.surface,
  color: vars.surface.text,
  margin: "0 0 1rem",
});

export const inlineForm = style({ display: "inline" });

export const checkboxField = style({
  display: "grid",
  // minmax(0, …): a label with one long word (a PayID) wraps instead of widening the column past a phone.
  gridTemplateColumns: "auto minmax(0, 1fr)",
  overflowWrap: "anywhere",
  gap: "0.3rem 0.6rem",
  alignItems: "start",
});

/** A radio or checkbox beside its label on one line, the whole row a 44 px target (WCAG 2.5.5). */
export const choice = style({
  display: "grid",
  gridTemplateColumns: "auto minmax(0, 1fr)",
  gap: "0.6rem",
  alignItems: "center",
  minHeight: 44,
});

export const checkbox = style({ width: 24, height: 24, margin: "0.1rem 0 0" });

export const checkboxError = style({
  gridColumn: "1 / -1",
  color: "#b42318",
  fontWeight: 600,
  margin: 0,
  fontSize: "0.95rem",
});

export const fieldset = style({ border: 0, padding: 0, margin: 0, display: "grid", gap: "0.5rem" });

export const legend = style({ fontWeight: 600, padding: 0, marginBottom: "0.3rem" });

export const row = style({ display: "flex", gap: "0.75rem", flexWrap: "wrap", alignItems: "start" });

export const narrow = style({ width: "7rem" });

export const actions = style({ display: "flex", gap: "0.75rem", flexWrap: "wrap", alignItems: "center" });
