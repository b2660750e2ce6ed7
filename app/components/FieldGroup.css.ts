import { globalStyle, style } from "@vanilla-extract/css";

/**
 * Short inputs side by side (an expiry's month and year, an NZ account number's parts):
 * as many columns of at least 7rem as fit, each input filling its own column and never
 * wider, so two can't overlap and none pushes the page sideways at 360 px.
 */
export const group = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(7rem, 1fr))",
  gap: "0.75rem",
  alignItems: "start",
});

// An input's own width (its `size`, 20 characters by default) would otherwise set the
// column's minimum, and the column would spill over its neighbour.
globalStyle(`${group} input`, { width: "100%", minWidth: 0 });
