import { describe, expect, it } from "vitest";

import { BRAND_COLOUR_ROLES, deriveBrand, SURFACE_ROLES } from "~/lib/brand-colours";
import { vars } from "~/themes/contract.css";
import { THEME_NAMES } from "~/themes/names";
import { themeTokens, type ThemeTokens } from "~/themes/tokens";

import { brandCss } from "./brand-css.server";

function propertyName(reference: string): string {
  return reference.replace(/^var\(/, "").replace(/\)$/, "");
}

const ALL_PROPERTIES = [
  ...BRAND_COLOUR_ROLES.map((role) => propertyName(vars.color[role])),
  ...SURFACE_ROLES.map((role) => propertyName(vars.surface[role])),
];

const SHAPE = new RegExp(
  `^html\\.brand-custom \\{\\n(?:  --[A-Za-z0-9_-]+: #[0-9a-f]{6};\\n){${ALL_PROPERTIES.length}}\\}\\n$`,
);

function derived(colour: string): ThemeTokens {
  const result = deriveBrand(colour);
  if (!result.ok) throw new Error(`${colour} is refused`);
  return result.tokens;
}

function withColour(tokens: ThemeTokens, role: string, value: unknown): ThemeTokens {
  const copy = structuredClone(tokens) as unknown as {
    colors: Record<string, unknown>;
    surface: Record<string, unknown>;
  };
  if (role in copy.colors) copy.colors[role] = value;
  else copy.surface[role] = value;
  return copy as unknown as ThemeTokens;
}

describe("brandCss", () => {
  it("sets every contract custom property, once, to its token, for html.brand-custom", () => {
    const tokens = derived("#7c3aed");
    const css = brandCss(tokens);
    expect(css).toMatch(SHAPE);
    const declarations = [...css.matchAll(/^ {2}(--[A-Za-z0-9_-]+): (#[0-9a-f]{6});$/gm)].map((m) => [m[1], m[2]]);
    expect(declarations).toEqual([
      ...BRAND_COLOUR_ROLES.map((role) => [propertyName(vars.color[role]), tokens.colors[role]]),
      ...SURFACE_ROLES.map((role) => [propertyName(vars.surface[role]), tokens.surface[role]]),
    ]);
    expect(new Set(declarations.map(([name]) => name)).size).toBe(
      Object.keys(vars.color).length + Object.keys(vars.surface).length,
    );
  });

  it.each([...THEME_NAMES])("writes the %s theme's tokens too", (theme) => {
    expect(brandCss(themeTokens[theme])).toMatch(SHAPE);
  });

  it("ignores keys that are not roles", () => {
    const tokens = derived("#2b4c7e");
    const extra = { ...tokens, colors: { ...tokens.colors, evil: "red;} body{display:none" } } as ThemeTokens;
    expect(brandCss(extra)).toBe(brandCss(tokens));
  });

  it.each([
    ["primary", "red;}"],
    ["link", "#12345"],
    ["button", "#FFFFFF"],
    ["bannerText", "#fff"],
    ["page", "url(https://evil.example/x.png)"],
    ["text", "#000000;} html{background:url(//evil.example)"],
    ["focus", " #000000"],
    ["surface", null],
    ["buttonText", undefined],
    ["border", 0x123456],
  ])("refuses a token %s of %j rather than write it", (role, value) => {
    const tokens = withColour(derived("#2b4c7e"), role, value);
    expect(() => brandCss(tokens)).toThrow(/is not a #rrggbb colour/);
  });

  it("refuses tokens with a group missing", () => {
    const tokens = derived("#2b4c7e");
    expect(() => brandCss({ colors: tokens.colors } as ThemeTokens)).toThrow(/surface\.page/);
  });
});
