import { style } from "@vanilla-extract/css";

/** What a payer typed (up to 80 characters, maybe one long word): it wraps, never widens a phone's page. */
export const payerReference = style({ overflowWrap: "anywhere", minWidth: 0 });

/** The home's one message when nothing waits for the contact (decision 073): set apart, above everything else. */
export const empty = style({
  borderInlineStart: "4px solid currentColor",
  paddingInlineStart: "1rem",
  margin: "1rem 0 1.5rem",
});

/** A line under a row's title (an invoice's description): smaller, on its own line. */
export const secondary = style({ display: "block", fontWeight: "normal", fontSize: "0.875rem" });
