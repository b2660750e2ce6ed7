import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/themes/contract.css";

/** Document-wide rules: system fonts (nothing to download), themed colours, visible focus. */
globalStyle("*, *::before, *::after", { boxSizing: "border-box" });

globalStyle("html", {
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontSize: "100%",
  lineHeight: 1.5,
  WebkitTextSizeAdjust: "100%",
  color: vars.surface.text,
  background: vars.surface.page,
});

globalStyle("body", { margin: 0, minHeight: "100vh", display: "flex", flexDirection: "column" });

globalStyle("h1, h2, h3", { lineHeight: 1.25, color: vars.color.primary, margin: "0 0 0.75rem" });
globalStyle("h1", { fontSize: "1.75rem" });
globalStyle("h2", { fontSize: "1.3rem", marginTop: "1.5rem" });
globalStyle("p, ul, ol", { margin: "0 0 1rem" });

globalStyle("a", { color: vars.color.link, textUnderlineOffset: "0.15em" });
globalStyle("a:hover", { color: vars.color.linkHover });

globalStyle(":focus-visible", {
  outline: `3px solid ${vars.surface.focus}`,
  outlineOffset: "2px",
});

globalStyle("img, svg", { maxWidth: "100%" });

// Form controls take the page's type: browsers give them a small font of their own (13.33px Arial
// in Chromium), which neither grows with the text nor matches it, and is one more font for a slow
// phone to resolve before its first layout. A component's own class still sets size and weight.
globalStyle("button, input, select, textarea", { font: "inherit" });

export const visuallyHidden = style({
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
});

/**
 * A card: a box of the surface colour, ruled and rounded, its content 1rem in. The dashboard's
 * figures, the PayID panel and the confirm step are cards; each adds its own layout and accent.
 */
export const card = style({
  padding: "1rem",
  border: `1px solid ${vars.surface.border}`,
  borderRadius: 8,
  background: vars.surface.surface,
  color: vars.surface.text,
});

/** The neutral look for pages served to unknown hosts: no brand at all. */
export const neutralDocument = style({
  vars: {
    [vars.surface.page]: "#ffffff",
    [vars.surface.text]: "#1f2933",
    [vars.surface.mutedText]: "#52606d",
    [vars.surface.buttonText]: "#ffffff",
    [vars.surface.border]: "#cbd2d9",
    [vars.surface.focus]: "#1f2933",
    [vars.surface.surface]: "#f5f7fa",
    [vars.color.primary]: "#1f2933",
    [vars.color.secondary]: "#3e4c59",
    [vars.color.tertiary]: "#52606d",
    [vars.color.link]: "#1f4e8c",
    [vars.color.linkHover]: "#163a69",
    [vars.color.button]: "#1f2933",
    [vars.color.buttonHover]: "#000000",
    [vars.color.bannerBackground]: "#1f2933",
    [vars.color.bannerText]: "#ffffff",
    [vars.color.bannerIcon]: "#ffffff",
    [vars.color.bannerIconBackground]: "#3e4c59",
  },
});

globalStyle("th, td", {
  padding: "0.5rem 0.6rem",
  textAlign: "left",
  borderBottom: `1px solid ${vars.surface.border}`,
});
globalStyle("thead th", { background: vars.surface.surface, color: vars.surface.text });

// Invoices, statements and receipts print without the portal's header, menus and footer.
globalStyle("header, footer, nav, a[href^='#main']", { "@media": { print: { display: "none" } } });
