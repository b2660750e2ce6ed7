/**
 * The shell's two layouts (docs/decisions/021-compact-shell.md): phone first, and from 900 px
 * a full horizontal bar. Tables stack into labelled blocks below 600 px.
 */
export const WIDE = "screen and (min-width: 56.25rem)";
export const NARROW = "screen and (max-width: 56.1875rem)";
export const STACKED = "screen and (max-width: 37.4375rem)";
