import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";
import { STACKED } from "~/components/breakpoints";

/**
 * A response request's pages (decision 040), phone first: one column, the question and the
 * choice in the first screen. The fields a choice needs show only while it is chosen, by CSS
 * `:has()` on the checked radio (no script); the rules hide a group while its radio is NOT
 * checked, so a browser without `:has()` shows every group rather than hiding one it needs.
 */
export const meta = style({ color: vars.surface.mutedText, margin: "0 0 0.75rem", overflowWrap: "anywhere" });

/** What the business states (an address, a statement, an invoice and its proposal): a framed box. */
export const facts = style({
  margin: "0 0 1rem",
  padding: "0.5rem 1rem",
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 6,
  background: vars.surface.page,
  overflowWrap: "anywhere",
});
globalStyle(`${facts} h2, ${facts} h3`, { fontSize: "1rem", margin: "0.25rem 0 0.5rem" });

/** An address as on an envelope: one line each, kept as written. */
export const address = style({ fontStyle: "normal", margin: "0 0 0.5rem", lineHeight: 1.5 });

/** A text the business or the contact wrote: its own line breaks kept, long words broken. */
export const writing = style({ whiteSpace: "pre-line", overflowWrap: "anywhere", margin: "0 0 0.5rem" });

export const message = style({
  margin: "0 0 1rem",
  padding: "0.25rem 0 0.25rem 0.75rem",
  borderLeft: `4px solid ${vars.surface.border}`,
});
globalStyle(`${message} h2, ${message} h3`, { fontSize: "1rem", margin: "0 0 0.25rem" });

export const form = style({ display: "grid", gap: "1rem", maxWidth: "30rem", margin: "0 0 1.5rem", minWidth: 0 });

const fields = style({ display: "grid", gap: "1rem", minWidth: 0 });
const hiddenUnless = (value: string) =>
  style([
    fields,
    { selectors: { [`${form}:not(:has(input[name="choice"][value="${value}"]:checked)) &`]: { display: "none" } } },
  ]);

export const correctedFields = hiddenUnless("corrected");
export const disputedFields = hiddenUnless("disputed");
export const rejectedFields = hiddenUnless("rejected");

export const textarea = style({ minHeight: "6rem", resize: "vertical" });

/** One readable column: at most about 70 characters a line on a desk, the whole width on a phone. */
export const page = style({ maxWidth: "44rem", minWidth: 0 });

/** Short facts, term beside value even on a phone: the choice stays in the first screen. */
export const factList = style({
  display: "grid",
  gridTemplateColumns: "minmax(8rem, max-content) minmax(0, 1fr)",
  gap: "0.35rem 1rem",
  margin: "0 0 0.5rem",
  overflowWrap: "anywhere",
  // On a phone the value gets the larger share: a long invoice number wraps less.
  "@media": { [STACKED]: { gridTemplateColumns: "minmax(0, 2fr) minmax(0, 3fr)", gap: "0.35rem 0.75rem" } },
});
globalStyle(`${factList} dt`, { fontWeight: 600 });
globalStyle(`${factList} dd`, { margin: 0 });

export const block = style({ margin: "0.5rem 0" });
export const blockLabel = style({ fontWeight: 600, margin: "0 0 0.15rem" });

/** A reference reads as one word: never broken at its hyphen. */
export const nowrap = style({ whiteSpace: "nowrap" });
