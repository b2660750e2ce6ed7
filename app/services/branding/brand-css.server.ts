/**
 * The stylesheet of a custom brand: every theme custom property (the `vars`
 * contract of app/themes/contract.css.ts) set for `html.brand-custom`.
 *
 * Served by us as a file because the CSP allows no inline styles. The
 * selector `html.brand-custom` (one class and one element) outranks the theme
 * class also on `<html>` (one class), whatever order the stylesheets load in.
 *
 * Only two kinds of text reach the output: property names taken from `vars`
 * (checked to be plain custom-property names) and colours that are canonical
 * `#rrggbb` (checked again here, whatever wrote them). Anything else throws:
 * stored tokens are validated when they are derived, so a bad value here is a
 * bug or a damaged row, never something to pass on to a browser.
 */
import { BRAND_COLOUR_ROLES, CUSTOM_BRAND_CLASS, isCanonicalColour, SURFACE_ROLES } from "~/lib/brand-colours";
import { vars } from "~/themes/contract.css";
import type { ThemeTokens } from "~/themes/tokens";

const CUSTOM_PROPERTY_REFERENCE = /^var\((--[A-Za-z0-9_-]+)\)$/;

function declaration(reference: string, value: unknown, role: string): string {
  const name = CUSTOM_PROPERTY_REFERENCE.exec(reference)?.[1];
  if (!name) throw new Error(`brandCss: unexpected custom property for ${role}`);
  if (!isCanonicalColour(value)) throw new Error(`brandCss: ${role} is not a #rrggbb colour`);
  return `  ${name}: ${value};`;
}

/** CSS text setting every `vars` custom property from `tokens`, for `html.brand-custom`. */
export function brandCss(tokens: ThemeTokens): string {
  const lines = [
    ...BRAND_COLOUR_ROLES.map((role) => declaration(vars.color[role], tokens.colors?.[role], `colors.${role}`)),
    ...SURFACE_ROLES.map((role) => declaration(vars.surface[role], tokens.surface?.[role], `surface.${role}`)),
  ];
  return `html.${CUSTOM_BRAND_CLASS} {\n${lines.join("\n")}\n}\n`;
}
