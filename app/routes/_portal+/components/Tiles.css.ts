import { style } from "@vanilla-extract/css";
import { button } from "~/components/Button.css";
import { card } from "~/styles/global.css";
import { vars } from "~/themes/contract.css";

/**
 * The dashboard (issue 31, decision 072): the amount due and "Pay now" first, then the tiles. On a
 * 360 × 740 phone the heading, the account and the whole "Amount due" card fit the first screen
 * under the brand's bar.
 */
export const heading = style({ margin: "0 0 0.25rem" });

export const due = style([
  card,
  {
    display: "grid",
    gap: "0.5rem",
    maxWidth: "40rem",
    margin: "0 0 1.5rem",
    borderTop: `4px solid ${vars.color.primary}`,
  },
]);

export const dueLabel = style({ margin: 0, fontSize: "1rem", fontWeight: 600 });

export const dueValue = style({
  margin: 0,
  fontSize: "2rem",
  fontWeight: 700,
  lineHeight: 1.15,
  fontVariantNumeric: "tabular-nums",
});

export const dueNote = style({ margin: 0, color: vars.surface.mutedText, fontSize: "0.95rem" });
export const overdueNote = style({ color: vars.surface.text });

/** The primary action: the portal's button, the card's full width, at least 48 px tall (WCAG 2.5.5 asks 44). */
export const payNow = style([button, { display: "flex", minHeight: 48, fontSize: "1.125rem", fontWeight: 700 }]);

export const calm = style({ margin: 0, fontSize: "1.05rem", color: vars.surface.text });

export const tiles = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(13rem, 1fr))",
  gap: "1rem",
  listStyle: "none",
  margin: "0 0 1.5rem",
  padding: 0,
});

export const tile = style([card, { display: "grid", gap: "0.25rem", height: "100%" }]);

/** A tile that names something opens it: the whole tile is the link. */
export const tileLink = style({
  textDecoration: "none",
  selectors: {
    "&:hover": { borderColor: vars.color.link },
  },
});

export const tileLabel = style({ fontWeight: 600 });
export const tileValue = style({
  fontSize: "1.6rem",
  fontWeight: 700,
  fontVariantNumeric: "tabular-nums",
});
export const tileNote = style({ color: vars.surface.mutedText, fontSize: "0.95rem" });
export const tileHint = style({ color: vars.color.link, textDecoration: "underline", fontWeight: 600 });
