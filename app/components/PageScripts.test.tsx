import { JSDOM } from "jsdom";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { PageScripts } from "~/components/PageScripts";
import { RESTORE_SCROLL, START_SCRIPTS } from "~/components/PageScripts.server";

/** A document as the server sends it (decision 087): Remix's output in the template, our script after it. */
function page({ visual = true, state = null as unknown, stored = null as string | null } = {}) {
  const html = `<!doctype html><html><body><main>Pay</main>
    <script nonce="n0nce">${RESTORE_SCROLL}</script>
    <template id="page-scripts">
      <link rel="modulepreload" href="/build/entry.js" fetchpriority="low">
      <link rel="modulepreload" href="/build/root.js" fetchpriority="low">
      <link rel="modulepreload" href="/build/entry.js">
      <link rel="modulepreload" href="/build/root.js">
      <script nonce="n0nce">window.__remixContext = { runs: (window.__remixContext?.runs ?? 0) + 1 };</script>
      <script nonce="n0nce" type="module" async="">import "/build/root.js";</script>
    </template>
    <script nonce="n0nce">${START_SCRIPTS}</script>
    <script>window.streamed = window.__remixContext.runs;</script>
  </body></html>`;
  const scrolled: number[] = [];
  const reads: string[] = [];
  const dom = new JSDOM(html, {
    url: "http://acme.localhost/customer/invoices-and-payments/pay",
    runScripts: "dangerously",
    pretendToBeVisual: visual,
    beforeParse(window) {
      if (state !== null) window.history.replaceState(state, "");
      if (stored !== null) window.sessionStorage.setItem("positions", stored);
      window.scrollTo = ((_x: number, y: number) => {
        scrolled.push(y);
      }) as typeof window.scrollTo;
      const getItem = window.Storage.prototype.getItem;
      window.Storage.prototype.getItem = function (this: Storage, key: string) {
        reads.push(key);
        return getItem.call(this, key);
      };
    },
  });
  const { window } = dom;
  const added = () =>
    [...window.document.body.children]
      .filter(
        (node) => node.tagName === "LINK" || (node.tagName === "SCRIPT" && node.getAttribute("type") === "module"),
      )
      .map((node) =>
        node.tagName === "LINK" ? `${node.getAttribute("href")} ${node.getAttribute("fetchpriority")}` : "module",
      );
  return { window, added, scrolled, reads };
}

describe("the document's scripts (decision 087)", () => {
  it("runs Remix's data script at once, before the data streamed after it", () => {
    const { window } = page();
    const context = window as unknown as { __remixContext: { runs: number }; streamed: number };
    expect(context.__remixContext.runs).toBe(1);
    expect(context.streamed).toBe(1);
  });

  it("asks for no module before the first paint, then for each once, at its first priority, and the module script last", async () => {
    const { window, added } = page();
    expect(added()).toEqual([]);
    // jsdom reports no paint: the script falls back to the next animation frame.
    await vi.waitFor(() => expect(added()).toHaveLength(3));
    expect(added()).toEqual(["/build/entry.js low", "/build/root.js low", "module"]);
    const module = [...window.document.body.querySelectorAll('script[type="module"]')].at(-1) as HTMLScriptElement;
    expect(module.nonce).toBe("n0nce");
    expect(module.hasAttribute("async")).toBe(true);
    expect(module.text).toBe('import "/build/root.js";');
    // The history entry has its key before any module runs (Remix's router saves positions under it).
    expect((window.history.state as { key?: string }).key).toMatch(/^[0-9a-v]+$/);
  });

  it("starts without waiting for a paint in a document that is not visible, which paints nothing", async () => {
    // No animation frames either in this document (jsdom has none without `pretendToBeVisual`).
    const { window, added } = page({ visual: false });
    expect(window.document.visibilityState).not.toBe("visible");
    await vi.waitFor(() => expect(added()).toEqual(["/build/entry.js low", "/build/root.js low", "module"]));
  });

  it("reads no stored position on a first visit, and restores one on a return", () => {
    const first = page({ stored: JSON.stringify({ abc: 300 }) });
    expect(first.reads).toEqual([]);
    expect(first.scrolled).toEqual([]);

    const back = page({ state: { key: "abc", usr: null }, stored: JSON.stringify({ abc: 300, other: 9 }) });
    expect(back.reads).toEqual(["positions"]);
    expect(back.scrolled).toEqual([300]);
    // A key it already had is kept.
    expect((back.window.history.state as { key: string }).key).toBe("abc");
  });

  it("renders nothing of its own without entry.server's scripts", () => {
    expect(renderToString(<PageScripts nonce="n0nce" />)).toBe("");
  });
});
