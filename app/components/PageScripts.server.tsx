import { Scripts } from "@remix-run/react";
import { ScriptPreloads } from "~/components/ScriptPreloads";

/**
 * The page's scripts, started after its first paint (decision 087).
 *
 * In the server's document: the page's module preloads and Remix's `<Scripts>` inside a `<template>`,
 * which the browser's preload scanner does not read and whose elements are inert, then one small
 * inline script that
 * - runs Remix's classic script (the page's data, `window.__remixContext`) at once, where Remix would
 *   have run it: the data that streams in after the document needs it;
 * - once the first paint has happened, adds the preloads and the module script, so the modules are
 *   asked for only then. The page is whole HTML before any of it runs (its forms post; decision
 *   084), so nothing on the first screen waits for a module, and no module competes with the first
 *   paint for the link or the processor.
 *
 * In the browser none of this renders (`PageScripts`): React leaves nodes it did not render at the end
 * of `<body>` alone when it hydrates, as it does for the shared conveniences' script. Remix's own
 * `<ScrollRestoration>` renders in the browser for its hook; in the document, its restoring script
 * is ours, which does the same without touching storage on a first visit (see RESTORE_SCROLL).
 */
const PAGE_SCRIPTS_ID = "page-scripts";

/**
 * Remix's restoring script, reading the stored position only when the history entry has a key (a
 * reload or a return). A first visit's entry has none, so no stored position can be its own, and
 * the first read of `sessionStorage` waits on the browser's process: 7–39 ms in Lighthouse's traces,
 * inside the task that paints first. The key Remix's script gives such an entry is given by
 * START_SCRIPTS instead, before any module runs.
 */
export const RESTORE_SCROLL = `(() => {
  const key = window.history.state && window.history.state.key;
  if (!key) return;
  try {
    const storedY = JSON.parse(sessionStorage.getItem("positions") || "{}")[key];
    if (typeof storedY === "number") window.scrollTo(0, storedY);
  } catch (error) {
    console.error(error);
    sessionStorage.removeItem("positions");
  }
})()`;

/** The inline script after the template (see PageScripts). */
export const START_SCRIPTS = `(() => {
  const self = document.currentScript;
  const template = document.getElementById(${JSON.stringify(PAGE_SCRIPTS_ID)});
  if (!(template instanceof HTMLTemplateElement)) return;
  const copy = (node) => {
    if (node.tagName !== "SCRIPT") return document.importNode(node, true);
    const script = document.createElement("script");
    script.nonce = self.nonce;
    for (const name of ["type", "async"]) if (node.hasAttribute(name)) script.setAttribute(name, node.getAttribute(name));
    script.text = node.text;
    return script;
  };
  const later = [];
  const preloaded = new Set();
  for (const node of template.content.children) {
    if (node.tagName === "SCRIPT" && node.type !== "module") self.before(copy(node));
    else if (node.tagName !== "LINK") later.push(node);
    else if (!preloaded.has(node.href)) {
      preloaded.add(node.href);
      later.push(node);
    }
  }
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const state = window.history.state;
    if (!state || !state.key) window.history.replaceState({ ...state, key: Math.random().toString(32).slice(2) }, "");
    let next = 0;
    const some = () => {
      const until = performance.now() + 4;
      while (next < later.length && performance.now() < until) document.body.append(copy(later[next++]));
      if (next < later.length) setTimeout(some, 0);
    };
    setTimeout(some, 0);
  };
  const afterPaint = () => setTimeout(start, 0);
  if (document.visibilityState !== "visible") return start();
  document.addEventListener("visibilitychange", start, { once: true });
  if (typeof PerformanceObserver === "function" && (PerformanceObserver.supportedEntryTypes || []).includes("paint")) {
    new PerformanceObserver((list, observer) => {
      observer.disconnect();
      afterPaint();
    }).observe({ type: "paint", buffered: true });
  } else requestAnimationFrame(afterPaint);
})()`;

/** The server's part of `PageScripts`: in the document only (a `.server` module, so no browser downloads it). */
export function documentScripts(nonce: string | undefined) {
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: RESTORE_SCROLL }} />
      <template id={PAGE_SCRIPTS_ID}>
        <ScriptPreloads />
        <Scripts nonce={nonce} />
      </template>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: START_SCRIPTS }} />
    </>
  );
}
