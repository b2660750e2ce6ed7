import { globalStyle, style, type CSSProperties, type GlobalStyleRule } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";
import { STACKED } from "./breakpoints";

export const filters = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(9rem, 1fr))",
  gap: "0.75rem 1rem",
  alignItems: "end",
  margin: "1rem 0",
});

export const filterActions = style({
  display: "flex",
  gap: "0.5rem",
  flexWrap: "wrap",
  // On a phone the buttons share one row under the fields.
  "@media": { [STACKED]: { gridColumn: "1 / -1" } },
});

export const scroll = style({ overflowX: "auto", margin: "0 0 1rem" });

export const table = style({
  width: "100%",
  borderCollapse: "collapse",
  fontVariantNumeric: "tabular-nums",
  selectors: {},
});

export const number = style({ textAlign: "right", whiteSpace: "nowrap" });

export const pager = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "0 1.5rem",
  alignItems: "center",
  margin: "0.75rem 0 1rem",
  // Previous and next mean nothing on paper. The global print rule hides every nav, but this
  // class's display wins over an element selector, so it says so itself.
  "@media": { print: { display: "none" } },
});

export const pagerLink = style({ display: "inline-flex", alignItems: "center", minHeight: 44 });

export const details = style({
  display: "grid",
  gridTemplateColumns: "minmax(8rem, max-content) minmax(0, 1fr)",
  gap: "0.4rem 1.5rem",
  margin: "0 0 1.5rem",
  overflowWrap: "anywhere",
  "@media": {
    // A summary list on a phone: each term above its value.
    [STACKED]: { gridTemplateColumns: "minmax(0, 1fr)", gap: "0 0" },
  },
});

globalStyle(`${details} dt`, { fontWeight: 600, "@media": { [STACKED]: { marginTop: "0.6rem" } } });
globalStyle(`${details} dd`, { margin: 0 });

export const list = style({ listStyle: "none", padding: 0 });

export const listItem = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  alignItems: "center",
  gap: "0.5rem 1rem",
  padding: "0.6rem 0",
  borderBottom: `1px solid ${vars.surface.border}`,
});

export const badge = style({
  display: "inline-block",
  padding: "0 0.4rem",
  border: `1px solid ${vars.surface.text}`,
  borderRadius: 4,
  fontSize: "0.8rem",
  color: vars.surface.text,
});

/**
 * What every stacked table shares below 600 px, the invoices list's rows too: the header row
 * hidden from the eye but read (it names each cell), the table and its body plain blocks.
 */
export const stackedShell = style({});

/**
 * A table of money that becomes a stack of labelled blocks below 600 px (GOV.UK's and
 * Stripe's pattern): still a real <table> for screen readers, each cell showing its column's
 * name from `data-label`. WebKit drops table semantics from elements whose display changes, so
 * the markup states them too (role="table", "rowgroup", "row", "columnheader", "cell"). Mark
 * the row's title cell with `cellTitle` and its amounts with `cellAmount`: they come first,
 * and the amounts are larger.
 */
export const stacked = style([stackedShell]);

export const cellTitle = style({});

export const cellAmount = style({});

const narrow = (rules: CSSProperties): GlobalStyleRule => ({ "@media": { [STACKED]: rules } });

globalStyle(
  `${stackedShell} thead`,
  narrow({
    position: "absolute",
    width: 1,
    height: 1,
    overflow: "hidden",
    clip: "rect(0, 0, 0, 0)",
    whiteSpace: "nowrap",
  }),
);
globalStyle(`${stackedShell}, ${stackedShell} tbody`, narrow({ display: "block" }));
globalStyle(
  `${stacked} tr`,
  narrow({
    display: "flex",
    flexDirection: "column",
    margin: "0 0 0.75rem",
    padding: "0.5rem 0.75rem",
    border: `1px solid ${vars.surface.border}`,
    borderRadius: 8,
  }),
);
globalStyle(
  `${stacked} td`,
  narrow({
    display: "flex",
    flexWrap: "wrap",
    justifyContent: "space-between",
    alignItems: "baseline",
    gap: "0 1rem",
    padding: "0.3rem 0",
    border: 0,
    textAlign: "right",
    overflowWrap: "anywhere",
  }),
);
globalStyle(
  `${stacked} td::before`,
  narrow({
    // The label is for the eye: the cell is already announced with its column header, so the
    // generated text gets empty alternative text (browsers without that syntax use the first).
    content: ["attr(data-label)", 'attr(data-label) / ""'],
    fontSize: "0.9375rem",
    fontWeight: 600,
    color: vars.surface.mutedText,
    textAlign: "left",
  }),
);
globalStyle(`${stacked} td:empty`, narrow({ display: "none" }));
globalStyle(`${stacked} td${cellTitle}`, narrow({ order: -2, fontWeight: 700, fontSize: "1.0625rem" }));
globalStyle(`${stacked} td${cellAmount}`, narrow({ order: -1, fontWeight: 700, fontSize: "1.125rem" }));
