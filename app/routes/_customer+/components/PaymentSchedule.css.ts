import { style } from "@vanilla-extract/css";
import { actions as formActions } from "~/components/Form.css";
import { vars } from "~/themes/contract.css";

/**
 * The payment-schedule pages (issue 15): phone first, one column. The lead line carries the
 * amount; the action follows it in the first screen of a 360 × 740 phone.
 */
export const lead = style({ fontSize: "1.1rem", margin: "0 0 0.75rem", overflowWrap: "anywhere" });

export const amount = style({ fontSize: "1.6rem", fontWeight: 700, display: "block", margin: "0.25rem 0" });

export const actions = style([formActions, { margin: "0 0 1rem" }]);

export const hint = style({ color: vars.surface.mutedText, fontSize: "0.9rem" });

/** The words the contact agrees to, set apart as a quotation of what will be kept. */
export const authority = style({
  borderLeft: `4px solid ${vars.color.primary}`,
  paddingLeft: "0.75rem",
  whiteSpace: "pre-line",
  overflowWrap: "anywhere",
});

export const form = style({ display: "grid", gap: "1rem", maxWidth: "34rem", margin: "0 0 1.5rem" });

export const section = style({ margin: "0 0 1.5rem" });

export const change = style({
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 8,
  padding: "0.5rem 1rem",
  margin: "0 0 1.5rem",
  maxWidth: "34rem",
});

export const summary = style({
  cursor: "pointer",
  fontWeight: 600,
  minHeight: 44,
  display: "flex",
  alignItems: "center",
});

/** A reference (PS-…) is read as one word. */
export const nowrap = style({ whiteSpace: "nowrap" });
