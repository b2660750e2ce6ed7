import { style } from "@vanilla-extract/css";
import { card } from "~/styles/global.css";
import { vars } from "~/themes/contract.css";
import { actions as formActions } from "./Form.css";

export const panel = style([
  card,
  {
    display: "grid",
    gap: "0.5rem",
    margin: "1rem 0 1.5rem",
    borderLeft: `4px solid ${vars.color.primary}`,
    // A long PayID must wrap inside the panel, never push the page sideways on a phone.
    minWidth: 0,
    maxWidth: "40rem",
  },
]);

export const heading = style({ margin: 0, fontSize: "1.15rem" });

export const payId = style({
  margin: 0,
  // Large, yet a usual PayID still fits one line of a 360 px phone.
  fontSize: "clamp(1.05rem, 4.6vw, 1.35rem)",
  fontWeight: 700,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  overflowWrap: "anywhere",
  // One click selects the whole PayID, so it can be copied without the button (or without JS).
  userSelect: "all",
});

export const name = style({ margin: 0 });

export const how = style({ margin: 0, color: vars.surface.mutedText });

export const actions = style([formActions, { "@media": { print: { display: "none" } } }]);

export const status = style({ margin: 0, fontWeight: 600 });
