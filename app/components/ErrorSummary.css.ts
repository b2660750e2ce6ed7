import { style } from "@vanilla-extract/css";

/** Focused by script, never by Tab: no focus ring around the whole box (its role=alert is announced). */
export const summary = style({ maxWidth: "40rem", outline: "none" });

export const list = style({ margin: "0.5rem 0 0", paddingLeft: "1.25rem" });
