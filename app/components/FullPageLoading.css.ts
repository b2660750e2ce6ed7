import { keyframes, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

const spin = keyframes({ to: { transform: "rotate(360deg)" } });

export const overlay = style({
  position: "fixed",
  inset: 0,
  zIndex: 900,
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  justifyContent: "center",
  gap: "1rem",
  background: vars.surface.page,
  color: vars.surface.text,
  fontSize: "1.125rem",
});

export const spinner = style({
  width: 48,
  height: 48,
  borderRadius: "50%",
  border: `4px solid ${vars.surface.border}`,
  borderTopColor: vars.color.primary,
  animation: `${spin} 0.9s linear infinite`,
  "@media": {
    "(prefers-reduced-motion: reduce)": { animationDuration: "3s" },
  },
});
