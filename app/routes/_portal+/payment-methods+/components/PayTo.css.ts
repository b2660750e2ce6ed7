import { style } from "@vanilla-extract/css";

/**
 * The set-up form shows only the chosen way of naming the account: CSS `:has()` on the
 * form's `method` radios, so it works without JavaScript. A browser without `:has()` shows
 * both groups; the server reads only the chosen one.
 */
export const payIdGroup = style({
  selectors: { 'form:has(input[name="method"][value="bban"]:checked) &': { display: "none" } },
});

export const bbanGroup = style({
  selectors: { 'form:has(input[name="method"][value="payid"]:checked) &': { display: "none" } },
});

export const authority = style({
  borderLeft: "4px solid currentColor",
  paddingLeft: "0.75rem",
  margin: 0,
});

export const facts = style({
  display: "grid",
  gridTemplateColumns: "minmax(7rem, max-content) 1fr",
  gap: "0.4rem 1rem",
});

export const factName = style({ fontWeight: 600 });

export const factValue = style({ margin: 0, overflowWrap: "anywhere" });

/** Long PayIDs (an email of 60 characters) wrap rather than push the phone's screen sideways. */
export const wrap = style({ overflowWrap: "anywhere", minWidth: 0 });

export const history = style({ paddingLeft: "1.2rem" });
