import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";
import { actions as formActions, choice } from "./Form.css";

/** The preference centre: one column of topics, each a bordered group, phone first. */
export const page = style({ maxWidth: "40rem" });

export const lead = style({ maxWidth: "40rem", overflowWrap: "anywhere" });

export const topics = style({ display: "grid", gap: "1rem", maxWidth: "40rem", margin: "0 0 1.5rem" });

export const topic = style({
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 8,
  padding: "0.75rem 1rem 1rem",
  margin: 0,
  display: "grid",
  gap: "0.5rem",
  minWidth: 0,
});

export const topicName = style({ fontWeight: 700, fontSize: "1.05rem", padding: "0 0.25rem" });

export const channels = style({ display: "flex", flexWrap: "wrap", gap: "0.5rem 1.5rem" });

export const channel = choice;

export const always = style([
  topic,
  {
    background: vars.surface.surface,
  },
]);

export const alwaysTitle = style({ margin: 0, fontSize: "1.05rem" });

export const history = style({ listStyle: "none", padding: 0, margin: "0 0 1.5rem", maxWidth: "40rem" });

export const historyItem = style({
  padding: "0.6rem 0",
  borderBottom: `1px solid ${vars.surface.border}`,
  display: "grid",
  gap: "0.15rem",
});

export const historyMeta = style({ color: vars.surface.mutedText, fontSize: "0.9rem" });

/** In place of a box a link may not tick (news and offers): how to choose it signed in. */
export const optIn = style({ margin: 0, maxWidth: "34rem", overflowWrap: "anywhere" });

export const actions = style([formActions, { margin: "1rem 0" }]);
