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
 * Month and year side by side in narrow columns: an input's intrinsic width (its `size`, 20
 * characters) is wider than the column, so without this it ran under its neighbour.
 */
export const expiry = style({});
globalStyle(`${expiry} input`, { width: "100%", minWidth: 0 });
