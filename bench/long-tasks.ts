import type { Browser } from "@playwright/test";
import { BENCH_PORT, cookieFor, DEMO_HOST, LOW_END, type BenchCookies, type BenchPage } from "./config";
import { median, round } from "./lib/stats";
import { launchBenchBrowser, newMobileContext, throttle } from "./mobile";

/**
 * What the main thread did in its long tasks (issue 33): each page loaded on the low-end phone
 * (400 ms, 400 kbps, CPU 6×) with a Chromium trace, every task of the page's main thread over 50 ms
 * listed with what ran inside it — a script's evaluation and by which file, hydration's work in
 * React's scheduler, style and layout, garbage collection. The page's own `longtask` entries say how
 * long; the trace says why, and moves far less from run to run than the sum does (it is the work
 * itself, not when other programs on a shared machine let it run). Never part of a budget: read by
 * a person deciding what to split.
 */
export type TaskPart = { name: string; detail: string; ms: number };
export type LongTask = { startMs: number; ms: number; afterFcp: boolean; parts: TaskPart[] };
export type LongTaskRun = { fcpMs: number; tbtMs: number; tasks: LongTask[] };
export type LongTaskResult = { page: string; path: string; runs: LongTaskRun[]; medianTbtMs: number };

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; frame?: string };
};

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "blink.user_timing",
  "loading",
  "toplevel",
];

/** The pieces worth naming inside a task: each is summed by name and file. */
const PARTS = new Set([
  "EvaluateScript",
  "v8.evaluateModule",
  "v8.compileModule",
  "v8.compile",
  "FunctionCall",
  "TimerFire",
  "EventDispatch",
  "RunMicrotasks",
  "FireAnimationFrame",
  "ParseHTML",
  "UpdateLayoutTree",
  "Layout",
  "Paint",
  "PrePaint",
  "MajorGC",
  "MinorGC",
  "V8.GC_SCAVENGER",
  "V8.GC_MARK_COMPACTOR",
  "HandlePostMessage",
]);

function fileOf(data: Record<string, unknown> | undefined): string {
  const url = typeof data?.url === "string" ? data.url : typeof data?.fileName === "string" ? data.fileName : "";
  const name = typeof data?.functionName === "string" && data.functionName ? ` ${data.functionName}()` : "";
  const type = typeof data?.type === "string" ? data.type : "";
  if (!url) return `${type}${name}`.trim();
  try {
    return `${new URL(url).pathname.replace(/^\/build\//, "")}${name}`;
  } catch {
    return `${url}${name}`;
  }
}

/** The tasks of one renderer main thread over 50 ms, each with its named parts (outermost first). */
export function longTasksOf(
  events: readonly TraceEvent[],
  main: { pid: number; tid: number },
  fcpTs: number,
  navigationTs: number,
): LongTask[] {
  const mainEvents = events.filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === "X");
  const tasks = mainEvents.filter((event) => event.name === "RunTask" && (event.dur ?? 0) >= 50_000);
  return tasks.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const inside = mainEvents.filter(
      (event) => event !== task && event.ts >= task.ts && event.ts + (event.dur ?? 0) <= end && PARTS.has(event.name),
    );
    // Only the outermost named parts: a FunctionCall inside an EvaluateScript is the same time.
    const outer = inside.filter(
      (event) =>
        !inside.some(
          (other) =>
            other !== event &&
            other.ts <= event.ts &&
            other.ts + (other.dur ?? 0) >= event.ts + (event.dur ?? 0) &&
            (other.ts < event.ts || (other.dur ?? 0) > (event.dur ?? 0)),
        ),
    );
    const sums = new Map<string, TaskPart>();
    for (const event of outer) {
      const detail = fileOf(event.args?.data);
      const key = `${event.name}|${detail}`;
      const part = sums.get(key) ?? { name: event.name, detail, ms: 0 };
      part.ms += (event.dur ?? 0) / 1000;
      sums.set(key, part);
    }
    const parts = [...sums.values()].map((part) => ({ ...part, ms: round(part.ms) })).sort((a, b) => b.ms - a.ms);
    return {
      startMs: round((task.ts - navigationTs) / 1000),
      ms: round((task.dur ?? 0) / 1000),
      afterFcp: task.ts >= fcpTs,
      parts,
    };
  });
}

async function traceOnce(browser: Browser, url: string, cookie: string | undefined): Promise<LongTaskRun> {
  const context = await newMobileContext(browser, { javaScriptEnabled: true, cookie });
  try {
    const page = await context.newPage();
    await throttle(context, page, LOW_END);
    await browser.startTracing(page, { categories: CATEGORIES });
    const response = await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    if (!response || response.status() !== 200) throw new Error(`${url}: HTTP ${response?.status()}`);
    await page.waitForLoadState("networkidle", { timeout: 30_000 });
    const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };
    const events = trace.traceEvents;
    // The page's own renderer: the one that painted it (the first navigation's blank page may have had another).
    const fcp = events.find((event) => event.name === "firstContentfulPaint");
    if (!fcp) throw new Error(`${url}: no first contentful paint in the trace`);
    const navigation = events.find(
      (event) =>
        event.name === "navigationStart" &&
        event.pid === fcp.pid &&
        event.args?.data?.isLoadingMainFrame &&
        String(event.args.data.documentLoaderURL ?? "").startsWith("http"),
    );
    const navigationTs = navigation?.ts ?? fcp.ts;
    const tasks = longTasksOf(events, fcp, fcp.ts, navigationTs);
    const tbtMs = tasks.filter((task) => task.afterFcp).reduce((sum, task) => sum + Math.max(0, task.ms - 50), 0);
    return { fcpMs: round((fcp.ts - navigationTs) / 1000), tbtMs: round(tbtMs), tasks };
  } finally {
    await context.close();
  }
}

export async function measureLongTasks(
  pages: BenchPage[],
  cookies: BenchCookies,
  runs: number,
  onPage: (name: string) => void = () => {},
): Promise<LongTaskResult[]> {
  const browser = await launchBenchBrowser();
  const results: LongTaskResult[] = [];
  try {
    for (const page of pages) {
      onPage(page.name);
      const url = `http://${DEMO_HOST}:${BENCH_PORT}${page.path}`;
      const pageRuns: LongTaskRun[] = [];
      for (let i = 0; i < runs; i += 1) pageRuns.push(await traceOnce(browser, url, cookieFor(page, cookies)));
      results.push({
        page: page.name,
        path: page.path,
        runs: pageRuns,
        medianTbtMs: median(pageRuns.map((run) => run.tbtMs)),
      });
    }
  } finally {
    await browser.close();
  }
  return results;
}

export function formatLongTasks(results: readonly LongTaskResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    const tbts = result.runs.map((run) => run.tbtMs).join(" / ");
    lines.push(`${result.page}: TBT from the trace ${tbts} ms (median ${result.medianTbtMs})`);
    result.runs.forEach((run, index) => {
      for (const task of run.tasks) {
        const when = task.afterFcp ? "after FCP" : "before FCP";
        const parts = task.parts
          .slice(0, 4)
          .map((part) => `${part.name}${part.detail ? ` ${part.detail}` : ""} ${part.ms}`)
          .join("; ");
        lines.push(`  run ${index + 1}: ${task.ms} ms at ${task.startMs} (${when}): ${parts}`);
      }
    });
  }
  return lines.join("\n");
}
