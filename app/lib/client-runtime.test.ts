import { describe, expect, it } from "vitest";
import {
  ENHANCED_PAGE,
  hydrateOnlyWhen,
  pageEnhanced,
  pageIsStatic,
  STATIC_PAGE,
  staticWhen,
  type HydrateHandle,
} from "./client-runtime";
import { SCHEDULE_PAGE_HANDLE } from "./schedule-pages";

/** A matched route as `useMatches()` gives it: the root first, then the routes below it. */
const root = { id: "root", handle: undefined, data: { brand: {} } };
const route = (handle: HydrateHandle | undefined, data: unknown = {}, id = "routes/page") => ({ id, handle, data });

describe("pageIsStatic (decision 049)", () => {
  it("is true when the only route below the root is read-only", () => {
    expect(pageIsStatic([root, route(STATIC_PAGE)])).toBe(true);
  });

  it("is false for a route that says nothing: the default keeps today's enhancement", () => {
    expect(pageIsStatic([root, route(undefined)])).toBe(false);
    expect(pageIsStatic([root, route({})])).toBe(false);
    expect(pageIsStatic([root, route({ hydrate: true })])).toBe(false);
  });

  it("ignores handles that are not about hydrating (the sandbox bank's `standalone`)", () => {
    expect(pageIsStatic([root, route({ standalone: true } as HydrateHandle)])).toBe(false);
  });

  it("needs every matched route below the root to agree: one that hydrates keeps the scripts", () => {
    expect(pageIsStatic([root, route(STATIC_PAGE, {}, "routes/a"), route(STATIC_PAGE, {}, "routes/b")])).toBe(true);
    expect(pageIsStatic([root, route(undefined, {}, "routes/layout"), route(STATIC_PAGE)])).toBe(false);
    expect(pageIsStatic([root, route(STATIC_PAGE, {}, "routes/layout"), route(undefined)])).toBe(false);
  });

  it("never lets the root decide, and a page with only the root (its error page) keeps the scripts", () => {
    expect(pageIsStatic([{ ...root, handle: STATIC_PAGE }])).toBe(false);
    expect(pageIsStatic([])).toBe(false);
    expect(pageIsStatic([{ ...root, handle: { hydrate: true } }, route(STATIC_PAGE)])).toBe(true);
  });

  it("asks a function handle with the route's own loader data", () => {
    const seen: unknown[] = [];
    const handle: HydrateHandle = {
      hydrate: (data) => {
        seen.push(data);
        return (data as { kind?: string }).kind === "open";
      },
    };
    expect(pageIsStatic([root, route(handle, { kind: "open" })])).toBe(false);
    expect(pageIsStatic([root, route(handle, { kind: "paid" })])).toBe(true);
    expect(seen).toEqual([{ kind: "open" }, { kind: "paid" }]);
  });
});

describe("handles by the loader data's kind", () => {
  it("hydrateOnlyWhen: only the listed kinds get script; other kinds and no data (an error) do not", () => {
    const handle = hydrateOnlyWhen("open");
    expect(pageIsStatic([root, route(handle, { kind: "open" })])).toBe(false);
    for (const data of [{ kind: "closed" }, { kind: "record" }, {}, undefined, null, "open"]) {
      expect(pageIsStatic([root, route(handle, data)]), JSON.stringify(data)).toBe(true);
    }
  });

  it("staticWhen: only the listed kinds go without; other kinds and no data keep the runtime", () => {
    const handle = staticWhen("closed");
    expect(pageIsStatic([root, route(handle, { kind: "closed" })])).toBe(true);
    for (const data of [{ kind: "open" }, { kind: "review" }, {}, undefined, null]) {
      expect(pageIsStatic([root, route(handle, data)]), JSON.stringify(data)).toBe(false);
    }
  });
});

describe("pageEnhanced (decision 084)", () => {
  it("a schedule's page: the shared file while open, React only with a new card to pay a declined instalment, nothing once closed", () => {
    const page = (data: unknown) => [root, route(SCHEDULE_PAGE_HANDLE, data)];
    for (const data of [{ kind: "review" }, { kind: "progress", rescue: null }, { kind: "progress" }]) {
      expect(pageIsStatic(page(data)), JSON.stringify(data)).toBe(true);
      expect(pageEnhanced(page(data)), JSON.stringify(data)).toBe(true);
    }
    const rescue = { kind: "progress", rescue: { instalmentId: "i1", seq: 1 } };
    expect(pageIsStatic(page(rescue))).toBe(false);
    expect(pageEnhanced(page(rescue))).toBe(false);
    for (const data of [{ kind: "closed" }, { kind: "closed", rescue: {} }, {}, undefined, null]) {
      expect(pageIsStatic(page(data)), JSON.stringify(data)).toBe(true);
      expect(pageEnhanced(page(data)), JSON.stringify(data)).toBe(false);
    }
  });

  it("loads the small shared file on a page without the runtime that asks for it", () => {
    expect(pageEnhanced([root, route(ENHANCED_PAGE)])).toBe(true);
    expect(pageIsStatic([root, route(ENHANCED_PAGE)])).toBe(true);
  });

  it("not on a static page that does not ask, nor on a page that hydrates", () => {
    expect(pageEnhanced([root, route(STATIC_PAGE)])).toBe(false);
    expect(pageEnhanced([root, route(undefined)])).toBe(false);
    expect(pageEnhanced([root, route({ hydrate: true, enhance: true })])).toBe(false);
    expect(pageEnhanced([root, route(ENHANCED_PAGE, {}, "routes/a"), route(undefined, {}, "routes/b")])).toBe(false);
  });

  it("the root cannot ask for it", () => {
    expect(pageEnhanced([{ ...root, handle: ENHANCED_PAGE }, route(STATIC_PAGE)])).toBe(false);
  });
});
