import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

/**
 * The agreement pages (decision 036): the text reads as a document, phone first (one column,
 * long words and hashes break instead of widening the page), and prints as one — the browser's
 * Print leaves out the shell (global.css.ts), the decision form, the buttons and the downloads.
 */
export const meta = style({ color: vars.surface.mutedText, margin: "0 0 0.5rem", overflowWrap: "anywhere" });

export const text = style({
  maxWidth: "44rem",
  margin: "0 0 1.5rem",
  padding: "0.25rem 1rem",
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 6,
  background: vars.surface.page,
  overflowWrap: "anywhere",
  "@media": {
    print: { border: 0, padding: 0, maxWidth: "none" },
  },
});

globalStyle(`${text} h2`, { fontSize: "1.25rem", margin: "1rem 0 0.5rem" });
globalStyle(`${text} h3`, { fontSize: "1.1rem", margin: "1rem 0 0.4rem" });
globalStyle(`${text} h4`, { fontSize: "1rem", margin: "0.8rem 0 0.3rem" });
globalStyle(`${text} li`, { margin: "0.2rem 0" });

/** What is for the screen only: the form, the buttons, the downloads, the skip link. */
export const noPrint = style({ "@media": { print: { display: "none" } } });

export const actions = style([
  noPrint,
  { display: "flex", flexWrap: "wrap", gap: "0.75rem", alignItems: "center", margin: "0 0 1.5rem" },
]);

export const decision = style([noPrint, { margin: "0 0 2rem" }]);

export const errorList = style({ margin: "0.5rem 0 0", paddingLeft: "1.25rem" });
