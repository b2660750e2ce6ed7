import { globalStyle, style } from "@vanilla-extract/css";
import { STACKED } from "~/components/breakpoints";
import { stackedShell, table as moneyTable } from "~/components/Table.css";
import { vars } from "~/themes/contract.css";

/**
 * The invoices list's rows (issue 31, decision 072). A table on a wide screen; below 600 px one
 * compact two-line block per invoice. Each payable row is its checkbox's label: the label's
 * `::after` is stretched over the row (the row is its containing block), so the whole row is the
 * target; the invoice number's link sits above it. The table is a table of money (Table.css.ts)
 * whose header row and body give way below 600 px as a stacked table's do.
 */
export const table = style([moneyTable, stackedShell]);

// Left-aligned and vertically centred as every table cell is (global.css.ts and the browser's own);
// figures take the tables' own `number` class (Table.css.ts), right-aligned.
globalStyle(`${table} th, ${table} td`, {
  padding: "0.6rem 0.5rem",
  borderBottom: `1px solid ${vars.surface.border}`,
});
globalStyle(`${table} th`, { fontWeight: 600, whiteSpace: "nowrap" });

export const row = style({
  position: "relative",
  // At least a 44 px target on every screen (WCAG 2.5.5).
  height: "2.75rem",
  "@media": {
    [STACKED]: {
      display: "grid",
      gridTemplateColumns: "1.75rem minmax(0, 1fr) auto",
      gridTemplateAreas: `"pick title balance" "pick due due" "pick status status"`,
      alignItems: "baseline",
      gap: "0.15rem 0.5rem",
      height: "auto",
      minHeight: "2.75rem",
      padding: "0.6rem 0.5rem",
      borderBottom: `1px solid ${vars.surface.border}`,
    },
  },
});

export const payableRow = style({
  selectors: {
    "&:hover": { background: vars.surface.surface },
    "&:has(input:checked)": { background: vars.surface.surface, boxShadow: `inset 4px 0 0 ${vars.color.primary}` },
  },
});

export const overdueRow = style({});

globalStyle(`${row} > td`, {
  "@media": { [STACKED]: { display: "block", padding: 0, border: 0, minWidth: 0, overflowWrap: "anywhere" } },
});

export const pickHeader = style({ width: "2.5rem" });

export const pick = style({
  width: "2.5rem",
  "@media": { [STACKED]: { gridArea: "pick", alignSelf: "center" } },
});

/** Above the stretched label too: a tap on the box itself reaches the box (and its focus ring shows whole). */
export const checkbox = style({ position: "relative", zIndex: 1, display: "block", margin: 0, cursor: "pointer" });

/** The checkbox's label, its text for screen readers; its box covers the whole row. */
export const rowLabel = style({
  selectors: {
    "&::after": { content: '""', position: "absolute", inset: 0, cursor: "pointer" },
  },
});

export const title = style({
  fontWeight: 700,
  "@media": { [STACKED]: { gridArea: "title", fontSize: "1.0625rem" } },
});

/** Above the stretched label: the number opens the invoice. */
export const link = style({ position: "relative", zIndex: 1 });

export const status = style({
  "@media": { [STACKED]: { gridArea: "status", color: vars.surface.mutedText } },
});
globalStyle(`${overdueRow} ${status}`, { fontWeight: 600, color: vars.surface.text });

export const due = style({
  whiteSpace: "nowrap",
  "@media": { [STACKED]: { gridArea: "due", color: vars.surface.mutedText } },
});
globalStyle(`${due}::before`, { "@media": { [STACKED]: { content: 'attr(data-label) " "' } } });

export const balance = style({
  fontWeight: 700,
  "@media": { [STACKED]: { gridArea: "balance", fontSize: "1.0625rem" } },
});

/** Left out below 600 px, header and cell alike (over the row's `td` rule above). */
export const wideOnly = style({});
globalStyle(`${table} ${wideOnly}`, { "@media": { [STACKED]: { display: "none" } } });

/**
 * The form's foot: "Pay selected invoices" sticks to the bottom of the screen while the list
 * scrolls, with how many are ticked counted by CSS (no script on this page, decision 052).
 */
export const form = style({ counterReset: "chosen" });
globalStyle(`${form} input[name="invoice"]:checked`, { counterIncrement: "chosen" });

export const bar = style({
  position: "sticky",
  bottom: 0,
  zIndex: 2,
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: "0.5rem 1rem",
  margin: "0 -1rem 1rem",
  padding: "0.75rem 1rem calc(0.75rem + env(safe-area-inset-bottom, 0px))",
  background: vars.surface.page,
  borderTop: `1px solid ${vars.surface.border}`,
  boxShadow: "0 -2px 8px rgb(0 0 0 / 0.08)",
});

/**
 * A checkbox reached by Tab is scrolled above the bar, never under it (WCAG 2.2 2.4.11): a margin on
 * the form's controls, not a `:has()` on the root (decision 086, as the pay form's).
 */
globalStyle(`${form} :is(input, select, button, summary, a):not(${bar} *)`, { scrollMarginBottom: "6rem" });

export const count = style({ fontWeight: 600 });
globalStyle(`${count}::after`, { content: '" " counter(chosen)' });

export const barButton = style({ flex: "1 1 12rem" });

export const payAll = style({ display: "grid", justifyItems: "start", gap: "0.4rem" });
export const leftOut = style({ color: vars.surface.mutedText });
