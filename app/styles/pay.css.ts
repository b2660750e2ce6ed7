import { globalStyle, style } from "@vanilla-extract/css";

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
