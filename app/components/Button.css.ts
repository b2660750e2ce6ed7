import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

export const button = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: "0.5rem",
  minHeight: 44, // WCAG 2.5.5 target size on touch screens
  padding: "0.6rem 1.1rem",
  border: "2px solid transparent",
  borderRadius: 6,
  background: vars.color.button,
  color: vars.surface.buttonText,
  font: "inherit",
  fontWeight: 600,
  textDecoration: "none",
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.buttonHover, color: vars.surface.buttonText },
    // Unavailable for now (a total on its way) or for good: seen as such, and announced by the
    // browser from `disabled` / `aria-disabled` (WCAG exempts inactive controls from contrast).
    '&:disabled, &[aria-disabled="true"]': { opacity: 0.6, cursor: "not-allowed" },
  },
});

export const secondaryButton = style([
  button,
  {
    background: "transparent",
    color: vars.color.link,
    borderColor: "currentColor",
    selectors: {
      "&:hover": { background: vars.surface.surface, color: vars.color.linkHover },
    },
  },
]);

/**
 * A button that reads as a link in a sentence: for an action that must post what the form holds
 * ("Set up PayTo" keeping the invoices and amounts chosen, decision 077) where a link could not.
 */
export const linkButton = style({
  display: "inline",
  minHeight: 24, // WCAG 2.5.8: a target in a sentence
  padding: 0,
  border: 0,
  background: "none",
  color: vars.color.link,
  font: "inherit",
  textDecoration: "underline",
  cursor: "pointer",
  selectors: {
    "&:hover": { color: vars.color.linkHover },
  },
});
