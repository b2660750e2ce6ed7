import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";
import { STACKED } from "~/components/breakpoints";
import { actions, choice, input } from "~/components/Form.css";

/**
 * The credit application's pages (decision 038), phone first: one column, one topic a page,
 * the progress and the heading in the first screen, errors in a summary at the top and at each
 * field. Fields of another choice (a postal address "the same as", a direct debit "no") hide by
 * CSS `:has()` on the checked control, with no script; a browser without `:has()` drops the rule
 * and simply shows them (the server ignores them then).
 */
export const progress = style({ color: vars.surface.mutedText, margin: "0 0 0.25rem", fontWeight: 600 });

export const back = style({ display: "inline-flex", alignItems: "center", minHeight: 44, margin: "0 0 0.5rem" });

export const lead = style({ maxWidth: "40rem" });

export const form = style({ display: "grid", gap: "1.25rem", maxWidth: "32rem", margin: "0 0 1.5rem", minWidth: 0 });

export const group = style({
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 6,
  padding: "0.75rem 1rem 1rem",
  margin: 0,
  display: "grid",
  gap: "1rem",
  minWidth: 0,
});

export const legend = style({ fontWeight: 700, padding: "0 0.25rem" });

/** A choice from a list looks as the portal's text inputs do (Form.css.ts). */
export const select = input;

export const radios = style({ display: "grid", gap: "0.6rem" });

export const radio = choice;

export const radioInput = style({ width: 24, height: 24, margin: 0 });

/** The postal address: hidden while "the same as the trading address" is ticked. */
export const postalFields = style({
  selectors: { 'form:has(input[name="postalSame"]:checked) &': { display: "none" } },
});

/** The accounts payable contact: hidden while "I also pay the invoices" is ticked. */
export const apFields = style({
  selectors: { 'form:has(input[name="apIsApplicant"]:checked) &': { display: "none" } },
});

/** The bank account: shown only once "yes, by direct debit" is chosen. */
export const bankFields = style({
  selectors: { 'form:not(:has(input[name="directDebit"][value="yes"]:checked)) &': { display: "none" } },
});

/** A short field (postcode, BSB): narrow on a wide screen, never wider than the phone. */
export const short = style({ maxWidth: "10rem" });

export const listActions = actions;

/** The honeypot: off screen for people (and out of the tab order), there for robots. */
export const honeypot = style({
  position: "absolute",
  left: "-10000px",
  top: "auto",
  width: 1,
  height: 1,
  overflow: "hidden",
});

export const errorList = style({ margin: "0.4rem 0 0", paddingLeft: "1.2rem" });

/** Check your answers: one summary list a step, its "Change" beside the heading. */
export const section = style({ margin: "0 0 1.5rem", maxWidth: "44rem" });

export const sectionHead = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  alignItems: "baseline",
  gap: "0.25rem 1rem",
  borderBottom: `1px solid ${vars.surface.border}`,
  margin: "0 0 0.5rem",
});

globalStyle(`${sectionHead} h2`, { fontSize: "1.2rem", margin: "0.5rem 0" });

export const summary = style({
  display: "grid",
  gridTemplateColumns: "minmax(8rem, 14rem) minmax(0, 1fr)",
  gap: "0.4rem 1.5rem",
  margin: 0,
  overflowWrap: "anywhere",
  "@media": { [STACKED]: { gridTemplateColumns: "minmax(0, 1fr)", gap: 0 } },
});

globalStyle(`${summary} dt`, { fontWeight: 600, "@media": { [STACKED]: { marginTop: "0.6rem" } } });
globalStyle(`${summary} dd`, { margin: 0, whiteSpace: "pre-line" });

export const missing = style({ color: "#b42318", fontWeight: 600 });

/** The documents on the documents step and on check-your-answers: stacked rows with their facts. */
export const documents = style({ listStyle: "none", margin: "0 0 1.5rem", padding: 0, maxWidth: "40rem" });

export const document = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  alignItems: "center",
  gap: "0.25rem 1rem",
  padding: "0.6rem 0",
  borderBottom: `1px solid ${vars.surface.border}`,
  overflowWrap: "anywhere",
});

export const documentName = style({ fontWeight: 600, minWidth: 0 });

export const documentFacts = style({ color: vars.surface.mutedText, fontSize: "0.95rem" });

export const reference = style({
  fontSize: "1.6rem",
  fontWeight: 700,
  letterSpacing: "0.04em",
  margin: "0.25rem 0 1rem",
});

export const panel = style({
  padding: "1rem",
  borderRadius: 6,
  border: `2px solid ${vars.color.primary}`,
  background: vars.surface.surface,
  margin: "0 0 1.5rem",
  maxWidth: "40rem",
});
