import { get } from "./resilience-http";
import { percentile, round } from "./stats";
import type { Portals } from "./resilience-portals";

/** The pages every signed-in user cycles through (issue 18): dashboard, statements, invoices, pay. */
export const LOAD_PAGES = [
  { name: "dashboard", path: "/" },
  { name: "statements", path: "/statements" },
  { name: "invoices", path: "/customer/invoices-and-payments/invoices" },
  { name: "pay", path: "/customer/invoices-and-payments/pay?all=1" },
];

export type Sample = {
  page: string;
  process: string;
  status: number;
  ms: number;
  /** Milliseconds since the run started, when the answer came. */
  at: number;
  error?: string;
  /** A 503's page title, to show it was the portal's own page and not a proxy's. */
  title?: string;
};

/**
 * A closed loop per user: each signed-in user asks for the next page as soon as the last one
 * has arrived, for `seconds`. Every answer is kept (status, time, which process answered).
 */
export async function runLoad(options: {
  portals: Portals;
  host: string;
  cookies: string[];
  seconds: number;
  /** Called once, `at` ms into the run (a fault to inject while the load runs). */
  during?: { at: number; run: () => Promise<unknown> };
}): Promise<{ samples: Sample[]; seconds: number; duringResult?: unknown }> {
  const samples: Sample[] = [];
  const started = performance.now();
  const end = started + options.seconds * 1000;
  const user = async (index: number) => {
    const port = options.portals.portFor(index);
    let next = index % LOAD_PAGES.length;
    while (performance.now() < end) {
      const page = LOAD_PAGES[next++ % LOAD_PAGES.length]!;
      const sent = performance.now();
      try {
        const answer = await get(port, options.host, page.path, options.cookies[index], 30_000);
        samples.push({
          page: page.name,
          process: options.portals.processOf(port, answer.headers),
          status: answer.status,
          ms: answer.ms,
          at: performance.now() - started,
          title: answer.status === 200 ? undefined : /<title>([^<]*)<\/title>/.exec(answer.body)?.[1],
        });
      } catch (error) {
        samples.push({
          page: page.name,
          process: options.portals.processOf(port, {}),
          status: 0,
          ms: performance.now() - sent,
          at: performance.now() - started,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
  let duringResult: unknown;
  const during = options.during
    ? new Promise((resolve) => setTimeout(resolve, options.during!.at))
        .then(() => options.during!.run())
        .then((result) => {
          duringResult = result;
        })
    : Promise.resolve();
  await Promise.all([...options.cookies.map((_, i) => user(i)), during]);
  return { samples, seconds: (performance.now() - started) / 1000, duringResult };
}

export type LoadRow = {
  process: string;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
};

/** Per process, then all together: requests, errors (anything but a 200), p50/p99 and throughput. */
export function summarise(samples: Sample[], seconds: number, isError = (s: Sample) => s.status !== 200): LoadRow[] {
  const groups = new Map<string, Sample[]>();
  for (const sample of samples) {
    groups.set(sample.process, [...(groups.get(sample.process) ?? []), sample]);
  }
  const row = (process: string, group: Sample[]): LoadRow => {
    const ok = group.filter((s) => s.status === 200).map((s) => s.ms);
    return {
      process,
      requests: group.length,
      errors: group.filter(isError).length,
      p50Ms: round(percentile(ok, 50), 1),
      p99Ms: round(percentile(ok, 99), 1),
      perSecond: round(group.length / seconds, 1),
    };
  };
  const rows = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, group]) => row(name, group));
  if (rows.length > 1) rows.push(row("all", samples));
  return rows;
}
