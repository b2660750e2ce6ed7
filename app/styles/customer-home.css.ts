import { style } from "@vanilla-extract/css";

/** What a payer typed (up to 80 characters, maybe one long word): it wraps, never widens a phone's page. */
export const payerReference = style({ overflowWrap: "anywhere", minWidth: 0 });
