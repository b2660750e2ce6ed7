import { style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";
import { WIDE } from "~/components/breakpoints";

/**
 * The emails of a brand preview (issue 32): each email's two frames stack on a phone and sit side
 * by side from 900 px. A frame is drawn at its true width (360 px, a phone's mail app; 800 px, a
 * desktop reading pane) and scaled down to fit, as the pages' frames are.
 */
export const section = style({ margin: "0 0 2rem" });

export const email = style({ margin: "0 0 1.5rem" });

export const frames = style({
  display: "grid",
  gap: "1rem",
  "@media": { [WIDE]: { gridTemplateColumns: "auto minmax(0, 1fr)", alignItems: "start" } },
});

export const figure = style({ margin: 0, display: "grid", gap: "0.3rem" });

export const caption = style({ fontWeight: 600 });

const box = {
  overflow: "hidden",
  border: `1px solid ${vars.surface.mutedText}`,
  borderRadius: 4,
  background: "#ffffff",
} as const;

export const phoneBox = style({
  ...box,
  width: 270,
  height: 480,
  "@media": { [WIDE]: { width: 360, height: 640 } },
});

export const desktopBox = style({
  ...box,
  width: 320,
  height: 256,
  "@media": { [WIDE]: { width: 400, height: 320 } },
});

export const phoneFrame = style({
  width: 360,
  height: 640,
  border: 0,
  transformOrigin: "0 0",
  transform: "scale(0.75)",
  "@media": { [WIDE]: { transform: "none" } },
});

export const desktopFrame = style({
  width: 800,
  height: 640,
  border: 0,
  transformOrigin: "0 0",
  transform: "scale(0.4)",
  "@media": { [WIDE]: { transform: "scale(0.5)" } },
});
