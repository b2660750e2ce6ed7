import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

/** The balance by age: two columns that fit a 360 px phone as they are, no stacking needed. */
export const ageing = style({
  width: "100%",
  maxWidth: "28rem",
  borderCollapse: "collapse",
  fontVariantNumeric: "tabular-nums",
  margin: "0 0 0.5rem",
});

globalStyle(`${ageing} th, ${ageing} td`, {
  padding: "0.5rem 0",
  borderBottom: `1px solid ${vars.surface.border}`,
  textAlign: "left",
});
globalStyle(`${ageing} tbody th`, { fontWeight: 400 });
globalStyle(`${ageing} td, ${ageing} thead th:last-child`, { textAlign: "right", whiteSpace: "nowrap" });
globalStyle(`${ageing} tfoot th, ${ageing} tfoot td`, { fontWeight: 700, borderBottom: 0 });

/** A band with money in it past its due date. */
export const late = style({ fontWeight: 700 });
