import { globalStyle, style } from "@vanilla-extract/css";
import { NARROW, WIDE } from "~/components/breakpoints";
import { card } from "~/styles/global.css";
import { vars } from "~/themes/contract.css";

/**
 * The pay page's form. Only the chosen method's fields show, by CSS `:has()` on the checked
 * radio, so it needs no script (CONVENTIONS.md, "Show only what applies"). The rules hide a
 * group when its radio is NOT checked: a browser without `:has()` drops the rule and shows
 * every group, as before, rather than hiding one the customer needs.
 */
export const form = style({ minWidth: 0 });

export const newCardFields = style({
  selectors: {
    [`${form}:not(:has(input[name="method"][value="new"]:checked)) &`]: { display: "none" },
  },
});

export const promiseFields = style({
  selectors: {
    [`${form}:not(:has(input[name="method"][value="promise"]:checked)) &`]: { display: "none" },
  },
});

/**
 * Month and year side by side. Each column was a 7rem box holding an input whose intrinsic
 * width (its `size`, 20 characters) is wider, so the month ran under the year. Here the
 * columns may shrink, the inputs fill them, and the cells share one grid's rows (subgrid),
 * so a label that wraps to two lines (in any language) leaves both inputs on one line.
 * Without subgrid the cells are ordinary grids: still no overlap.
 */
export const expiry = style({
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 9rem))",
  gridTemplateRows: "auto auto auto",
  columnGap: "0.75rem",
  rowGap: "0.3rem",
});
globalStyle(`${expiry} > div, ${expiry} > div > div`, {
  gridRow: "span 3",
  display: "grid",
  gridTemplateRows: "subgrid",
  width: "auto",
  minWidth: 0,
});
globalStyle(`${expiry} label`, { alignSelf: "end" });
globalStyle(`${expiry} input`, { width: "100%", minWidth: 0 });

/**
 * The page's layout (issue 12, "the amount and the action in the first screen"). Phone first:
 * one column in the natural order (amounts, pay with, note, breakdown, buttons), and the bar
 * with "Update total" and "Pay $X" sticks to the bottom of the screen, so the amount and the
 * action are always in view. The summary wrapper is `display: contents` on phones: the bar's
 * sticky box is then the whole form, not the summary (a sticky element never leaves its
 * parent). From 900 px: two columns, the fields on the left and the summary card (breakdown,
 * buttons) on the right, sticky at the top. No script needed for any of it.
 */
export const layout = style({
  display: "grid",
  gap: "1rem",
  margin: "0 0 1.5rem",
  "@media": {
    [WIDE]: {
      gridTemplateColumns: "minmax(0, 32rem) minmax(19rem, 24rem)",
      columnGap: "3rem",
      alignItems: "start",
    },
  },
});

export const fields = style({ display: "grid", gap: "1rem", minWidth: 0, maxWidth: "32rem" });

export const summary = style({
  display: "contents",
  "@media": {
    [WIDE]: {
      display: "grid",
      gap: "0.75rem",
      position: "sticky",
      top: "1rem",
      padding: "1rem 1.25rem 1.25rem",
      border: `1px solid ${vars.surface.border}`,
      borderRadius: 8,
      background: vars.surface.surface,
    },
  },
});
globalStyle(`${summary} h2`, { marginTop: 0 });

/** The breakdown as a receipt: labels left, figures right (never broken inside a figure), the total ruled off. */
export const breakdown = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) auto",
  // No column gap: the rule above the total runs unbroken; the figures keep their distance by padding.
  gap: "0.4rem 0",
  margin: "0 0 1rem",
  "@media": { [WIDE]: { margin: 0 } },
});
globalStyle(`${breakdown} dd`, {
  margin: 0,
  textAlign: "right",
  whiteSpace: "nowrap",
  fontVariantNumeric: "tabular-nums",
});
globalStyle(`${breakdown} dt:last-of-type, ${breakdown} dd:last-of-type`, {
  borderTop: `1px solid ${vars.surface.border}`,
  paddingTop: "0.4rem",
  fontWeight: 700,
});

export const bar = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0.5rem",
  alignItems: "center",
  "@media": {
    [NARROW]: {
      position: "sticky",
      bottom: 0,
      zIndex: 2,
      // Edge to edge across main's 1rem padding, above the page's own colour.
      margin: "0 -1rem",
      padding: "0.75rem 1rem calc(0.75rem + env(safe-area-inset-bottom, 0px))",
      background: vars.surface.page,
      borderTop: `1px solid ${vars.surface.border}`,
      boxShadow: "0 -2px 8px rgb(0 0 0 / 0.08)",
    },
  },
});
// The primary button takes the room left beside "Update total" on a phone, the whole card's width on a desk.
globalStyle(`${bar} > button:last-child`, { flex: "1 1 auto" });
globalStyle(`${bar} > button`, { "@media": { [NARROW]: { paddingInline: "0.8rem" } } });

/**
 * A field focused by Tab is scrolled into view above the bar, never under it (WCAG 2.2 2.4.11,
 * Focus Not Obscured): each control of the form above the bar keeps a margin as tall as the bar
 * when its buttons wrap onto two lines. Not `html:has(bar) { scroll-padding }`: the stylesheet is
 * every page's, and a `:has()` on the root is checked again for every element the parser or React
 * inserts anywhere, on every page (decision 086).
 */
globalStyle(`${form} :is(input, select, textarea, button, summary, a):not(${bar} *)`, {
  "@media": { [NARROW]: { scrollMarginBottom: "8.5rem" } },
});

/** Under the heading: what this payment covers and the total to pay (the server's). */
export const lead = style({ fontSize: "1.1rem" });

/**
 * A folded box (`<details>`): bordered, its summary line a 44 px target, and what opens under the
 * summary kept 1rem above the box's edge. Several invoices' amounts fold in one, so the choice of
 * method comes up the page; a request's "Other ways to pay" is one too (`otherWays`).
 */
export const fold = style({
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 8,
  padding: "0 1rem",
});
export const foldSummary = style({
  cursor: "pointer",
  padding: "0.75rem 0",
  minHeight: 44,
  fontWeight: 600,
});
globalStyle(`${fold} > :not(summary)`, { paddingBottom: "1rem" });
export const change = style({ marginLeft: "0.5rem", color: vars.color.link, textDecoration: "underline" });
globalStyle(`${fold}[open] ${change}`, { display: "none" });

/** What paying by PayTo means, shown only while a PayTo agreement is the chosen method. */
export const payToFields = style({
  selectors: {
    [`${form}:not(:has(input[name="method"][value^="payto:"]:checked)) &`]: { display: "none" },
  },
});

/** The confirm step (decision 071): one card, the total ruled off, the confirm button the full width. */
export const confirm = style([
  card,
  {
    display: "grid",
    gap: "0.75rem",
    maxWidth: "32rem",
    outline: "none",
    selectors: { "&:focus-visible": { outline: `3px solid ${vars.surface.focus}`, outlineOffset: "2px" } },
  },
]);
globalStyle(`${confirm} h2, ${confirm} p`, { margin: 0 });
export const confirmActions = style({ display: "grid" });
globalStyle(`${confirmActions} > button`, { width: "100%" });

/** A request's heading: who asks on one line, the amount the email said large under it (decision 075). */
export const ask = style({ display: "grid", gap: "0.15rem", margin: "0 0 0.25rem" });
export const askWho = style({ fontSize: "1.05rem", fontWeight: 600 });
export const askAmount = style({ fontSize: "2rem", lineHeight: 1.15, fontVariantNumeric: "tabular-nums" });

/** "Other ways to pay", folded under the form: the PayID and signing in for saved methods. */
export const otherWays = style([fold, { margin: "1rem 0 1.5rem", maxWidth: "32rem" }]);
export const otherWaysBody = style({ display: "grid", gap: "0.75rem" });

/** A line under the lead that matters before anything is typed (a card's surcharge and how to avoid it). */
export const notice = style({
  margin: "-0.5rem 0 1rem",
  maxWidth: "32rem",
  fontSize: "0.95rem",
  color: vars.surface.mutedText,
});
