import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

/**
 * The admin home and the admins screen (issue 32). Phone first: one column at 360 px; each task
 * and each admin is a block whose whole title is the link (at least 44 px tall).
 */
export const section = style({ margin: "0 0 2rem", maxWidth: "40rem" });

export const tasks = style({
  display: "grid",
  gap: "1rem",
  margin: "0 0 2rem",
  padding: 0,
  listStyle: "none",
  maxWidth: "40rem",
});

export const task = style({
  padding: "0.75rem 1rem",
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 6,
  background: vars.surface.surface,
});

export const taskTitle = style({ margin: 0, fontSize: "1.25rem" });

export const taskLink = style({ display: "inline-flex", alignItems: "center", minHeight: 44 });

export const taskBody = style({ margin: "0.25rem 0 0" });

export const people = style({ display: "grid", gap: "0.5rem", margin: "0 0 1rem", padding: 0, listStyle: "none" });

export const person = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: "0.5rem 1rem",
  padding: "0.5rem 0.75rem",
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 6,
});

export const personText = style({ display: "grid", gap: "0.125rem", minWidth: 0, overflowWrap: "anywhere" });

export const personName = style({ fontWeight: 600 });

export const personNote = style({ color: vars.surface.mutedText, fontSize: "0.9375rem" });

export const you = style({ fontWeight: 600, color: vars.surface.mutedText });

export const form = style({ display: "grid", gap: "1rem", maxWidth: "30rem" });
