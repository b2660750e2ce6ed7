import { get } from "./resilience-http";

/** The pages every signed-in user cycles through (issue 18): dashboard, statements, invoices, pay. */
export const LOAD_PAGES = [
  { name: "dashboard", path: "/" },
  { name: "statements", path: "/statements" },
  { name: "invoices", path: "/customer/invoices-and-payments/invoices" },
  { name: "pay", path: "/customer/invoices-and-payments/pay?all=1" },
];

export type Sample = {
  page: string;
  status: number;
  ms: number;
  /** Milliseconds since the run started, when the answer came. */
  at: number;
  error?: string;
  /** A failed answer's page: its title, and whose it was (the portal's, or the proxy's own page). */
  title?: string;
};

/**
 * A closed loop per user: each signed-in user asks for the next page as soon as the last one
 * has arrived, for `seconds`. Every answer is kept (status, time, which process answered).
 */
export async function runLoad(options: {
  /** The proxy's port: every user's requests go through it. */
  port: number;
  host: string;
  /** The brand's name: whether a failed page was the portal's branded one. */
  brand: string;
  cookies: string[];
  seconds: number;
  /** Called once, `at` ms into the run (a fault to inject while the load runs). */
  during?: { at: number; run: () => Promise<unknown> };
}): Promise<{ samples: Sample[]; seconds: number; duringResult?: unknown }> {
  const samples: Sample[] = [];
  const started = performance.now();
  const end = started + options.seconds * 1000;
  const user = async (index: number) => {
    const port = options.port;
    let next = index % LOAD_PAGES.length;
    while (performance.now() < end) {
      const page = LOAD_PAGES[next++ % LOAD_PAGES.length]!;
      const sent = performance.now();
      try {
        const answer = await get(port, options.host, page.path, options.cookies[index], 60_000);
        samples.push({
          page: page.name,
          status: answer.status,
          ms: answer.ms,
          at: performance.now() - started,
          title: answer.status === 200 ? undefined : pageOf(answer.body, options.brand),
        });
      } catch (error) {
        samples.push({
          page: page.name,
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

/**
 * "portal: <title>" or "proxy: <title>": HAProxy's own 503 page (scripts/cluster-lib.ts) says "The
 * portal cannot answer just now"; every other page is the portal's, with the brand's name when the
 * portal could still read its host ("portal (no brand)" otherwise).
 */
export function pageOf(body: string, brand: string) {
  const title = /<title>([^<]*)<\/title>/.exec(body)?.[1] ?? "";
  if (body.includes("The portal cannot answer just now")) return `proxy: ${title}`;
  return `${body.includes(brand) ? "portal" : "portal (no brand)"}: ${title}`;
}
