import { keyframes, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

const grow = keyframes({
  "0%": { transform: "scaleX(0)" },
  "20%": { transform: "scaleX(0.3)" },
  "100%": { transform: "scaleX(0.9)" },
});

export const bar = style({
  position: "fixed",
  top: 0,
  left: 0,
  right: 0,
  height: 3,
  zIndex: 1000,
  transformOrigin: "left",
  background: vars.surface.focus,
  pointerEvents: "none",
  opacity: 0,
  transform: "scaleX(0)",
  selectors: {
    // Shown only when a request is slow enough to notice (150 ms), then creeps
    // towards the end; it never claims to be done before the server answers.
    '&[data-state="busy"]': {
      opacity: 1,
      animation: `${grow} 8s cubic-bezier(0.1, 0.6, 0.3, 1) 150ms both`,
    },
  },
  "@media": {
    "(prefers-reduced-motion: reduce)": {
      selectors: {
        '&[data-state="busy"]': { animation: "none", transform: "scaleX(1)", opacity: 0.8 },
      },
    },
  },
});
