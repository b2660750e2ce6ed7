import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

/**
 * The referee's page (decision 041): one column on a phone, each question a fieldset of large
 * radio targets, and the follow-up field of a choice ("other terms", "what happened") shown only
 * while that choice is ticked — with CSS `:has()`, so without JavaScript too (a browser without
 * `:has()` simply shows the field all the time).
 */
export const lead = style({ overflowWrap: "anywhere" });

export const form = style({ display: "grid", gap: "1.5rem", maxWidth: "34rem", margin: "0 0 1.5rem" });

export const question = style({ display: "grid", gap: "0.6rem" });

export const choices = style({ display: "grid", gap: "0.25rem" });

export const choice = style({
  display: "grid",
  gridTemplateColumns: "auto minmax(0, 1fr)",
  gap: "0 0.6rem",
  alignItems: "center",
  minHeight: 44,
  overflowWrap: "anywhere",
});

export const radio = style({ width: 24, height: 24, margin: 0, accentColor: vars.color.primary });

/** The field a choice reveals: indented under the choices, like GOV.UK's conditional reveal. */
export const more = style({
  borderLeft: `4px solid ${vars.surface.border}`,
  paddingLeft: "0.9rem",
  marginLeft: "0.7rem",
});

/** A question whose follow-up field depends on one of its choices (`data-reveals` on that radio). */
export const revealing = style({});

globalStyle(`${revealing}:has(input[data-reveals]:not(:checked)) ${more}`, { display: "none" });

export const textarea = style({ minHeight: "6rem", resize: "vertical" });

export const money = style({ maxWidth: "14rem" });

export const submitHint = style({ margin: "0.25rem 0 0" });
