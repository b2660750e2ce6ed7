import { globalStyle, style } from "@vanilla-extract/css";

/**
 * Short inputs side by side (an expiry's month and year, an NZ account number's parts):
 * as many columns of at least 8.5rem as fit (two on a 360 px phone), each input filling its own column and never
 * wider, so two can't overlap and none pushes the page sideways at 360 px.
 */
export const group = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(8.5rem, 1fr))",
  gap: "0.75rem",
  alignItems: "start",
});

// Each field spans three rows of the group (label, input, error) shared with its
// neighbours, so the inputs stay level when one label wraps onto two lines.
globalStyle(`${group} > *`, { gridRow: "span 3", gridTemplateRows: "subgrid", rowGap: "0.3rem" });
globalStyle(`${group} > * > label`, { alignSelf: "end" });

// An input's own width (its `size`, 20 characters by default) would otherwise set the
// column's minimum, and the column would spill over its neighbour.
globalStyle(`${group} input`, { width: "100%", minWidth: 0 });
