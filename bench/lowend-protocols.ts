/**
 * The low-end phone by protocol (issue 33, decision 083): `BENCH_ONLY=lowend-h2 npm run bench`.
 *
 * The same low-end page list as step 7 (400 ms round trip, 400 kbps, CPU 6×, applied through
 * DevTools), loaded in up to three ways ("legs"), each recorded with the protocol Chromium reports
 * for every response (CDP `Network.responseReceived`) and the number of script files a page fetched:
 * - `h1`: one process, as `npm run bench` runs it (embedded database), plain HTTP/1.1 — today's figure;
 * - `h1-tls`: through the cluster's TLS listener with Chromium's HTTP/2 turned off (`--disable-http2`):
 *   HTTP/1.1 on the very processes, database and proxy of the `h2` leg, so that the two differ by the
 *   protocol alone;
 * - `h2`: through the cluster's TLS listener (two processes on PostgreSQL behind HAProxy), HTTP/2.
 * The legs take turns: each page's runs are made in rounds of one load per leg, the leg that starts a
 * round moving on by one each round, so a burst of other work on a shared machine falls on every leg
 * alike (as the server-load step's rounds do). Every server is warmed before the first round.
 * `BENCH_LOWEND_LEGS` (comma-separated; default all three) and `BENCH_LOWEND_PAGES` (page names;
 * default every `mobile` page) narrow it; `BENCH_PROTOCOL_PROFILE=mobile` loads them with Lighthouse's
 * mobile profile instead. Needs TEST_DATABASE_URL: a PostgreSQL it may create a database on
 * (`portal_bench_h2_<random>`, dropped at the end), HAProxy and openssl. Writes
 * bench/results/lowend-h2.json (mobile-h2.json). Never part of the test suite, and no budget reads it.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import pg from "pg";
import { createDatabaseIfMissing, startCluster, type Cluster } from "../scripts/cluster-lib";
import {
  BENCH_PORT,
  cookieFor,
  DEMO_ADMIN_LOGIN,
  DEMO_HOST,
  DEMO_LOGIN,
  LOW_END,
  MOBILE,
  type BenchCookies,
  type BenchPage,
} from "./config";
import { request } from "./lib/http";
import {
  launchBenchBrowser,
  loadOnce,
  mobileResult,
  type AppliedProfile,
  type LoadTarget,
  type MobileResult,
  type MobileRun,
} from "./mobile";
import { prepareBenchDatabase } from "./seed";

/**
 * The network and CPU profile the legs are loaded with: the low-end phone (the default), or, with
 * BENCH_PROTOCOL_PROFILE=mobile, Lighthouse's mobile one (150 ms, 1.6 Mbps, CPU 4×), where round
 * trips weigh more against the bytes. Each has its results file.
 */
export function protocolProfileFromEnvironment(value = process.env.BENCH_PROTOCOL_PROFILE) {
  if (value === undefined || value === "" || value === "lowend")
    return { name: "lowend", profile: LOW_END, file: "bench/results/lowend-h2.json" } as const;
  if (value === "mobile") return { name: "mobile", profile: MOBILE, file: "bench/results/mobile-h2.json" } as const;
  throw new Error(`BENCH_PROTOCOL_PROFILE is lowend or mobile, not ${JSON.stringify(value)}`);
}
export const PROTOCOL_LEGS = ["h1", "h1-tls", "h2"] as const;
export type ProtocolLegName = (typeof PROTOCOL_LEGS)[number];

export type ProtocolLeg = {
  leg: ProtocolLegName;
  /** What served the pages, and how. */
  served: string;
  origin: string;
  /** Every protocol Chromium reported over all runs of all pages, with its count of responses. */
  protocols: Record<string, number>;
  pages: MobileResult[];
};

export type LowEndProtocolResults = {
  generatedAt: string;
  durationSeconds: number;
  machine: { cpus: number; node: string };
  /** `lowend` (the low-end phone) or `mobile` (Lighthouse's mobile profile): BENCH_PROTOCOL_PROFILE. */
  profileName: "lowend" | "mobile";
  profile: AppliedProfile;
  cssDelivery: string;
  legs: ProtocolLeg[];
};

/** The cluster's ports, next to the bench's own: plain HTTP, TLS, then one per process. */
export const benchClusterPorts = () => ({ proxy: BENCH_PORT + 10, tls: BENCH_PORT + 11, base: BENCH_PORT + 12 });

/** Which legs a run makes: BENCH_LOWEND_LEGS, else all three. */
export function legsFromEnvironment(value = process.env.BENCH_LOWEND_LEGS): ProtocolLegName[] {
  if (!value) return [...PROTOCOL_LEGS];
  const legs = value.split(",").map((leg) => leg.trim());
  for (const leg of legs) {
    if (!(PROTOCOL_LEGS as readonly string[]).includes(leg)) {
      throw new Error(`BENCH_LOWEND_LEGS names ${JSON.stringify(leg)}: the legs are ${PROTOCOL_LEGS.join(", ")}`);
    }
  }
  if (new Set(legs).size !== legs.length) throw new Error(`BENCH_LOWEND_LEGS names a leg twice: ${value}`);
  return legs as ProtocolLegName[];
}

/** The pages a run loads: BENCH_LOWEND_PAGES (names), else every page `mobile: true`. */
export function lowEndPages(all: BenchPage[], value = process.env.BENCH_LOWEND_PAGES): BenchPage[] {
  const mobile = all.filter((page) => page.mobile);
  if (!value) return mobile;
  const names = value.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !mobile.some((page) => page.name === name));
  if (unknown.length) throw new Error(`BENCH_LOWEND_PAGES: no mobile page named ${unknown.join(", ")}`);
  return mobile.filter((page) => names.includes(page.name));
}

/** All responses of a leg by protocol: what the table's "protocol" column says. */
function protocolsOf(pages: MobileResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const page of pages) {
    for (const run of page.runs) {
      for (const [protocol, count] of Object.entries(run.protocols ?? {})) {
        counts[protocol] = (counts[protocol] ?? 0) + count;
      }
    }
  }
  return counts;
}

/** How one leg loads a page: its server, its origin, its browser's flags and its signed-in cookies. */
export type LegPlan = {
  leg: ProtocolLegName;
  served: string;
  origin: string;
  chromiumArgs: string[];
  cookies: BenchCookies;
  /**
   * Each page's path on this leg's server, read when its database was seeded: a signed link (the
   * preference centre's) is signed with that server's secret, and the next seed replaces the global.
   */
  paths: Map<string, string>;
};

const pathsOf = (pages: BenchPage[]) => new Map(pages.map((page) => [page.name, page.path]));

/** The `h1` leg: the bench's own portal (already started, seeded and signed in), its pages' documents fetched twice first. */
export async function singleProcessLeg(pages: BenchPage[], cookies: BenchCookies): Promise<LegPlan> {
  for (const page of pages) {
    for (let i = 0; i < 2; i += 1) {
      const answer = await request(DEMO_HOST, page.path, { cookie: cookieFor(page, cookies) });
      if (answer.status !== 200) throw new Error(`${page.path} on one process: HTTP ${answer.status}`);
    }
  }
  return {
    leg: "h1",
    served: "one process, embedded database, plain HTTP/1.1 (as `npm run bench`)",
    origin: `http://${DEMO_HOST}:${BENCH_PORT}`,
    chromiumArgs: [],
    cookies,
    paths: pathsOf(pages),
  };
}

/**
 * The cluster the TLS legs run against: a database of its own on TEST_DATABASE_URL's server with the
 * bench's data, two processes sharing one session secret, HAProxy with its TLS listener.
 */
export async function startBenchCluster(
  adminUrl: string,
  env: Record<string, string>,
): Promise<{ cluster: Cluster; drop: () => Promise<void> }> {
  const name = `portal_bench_h2_${randomBytes(4).toString("hex")}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const drop = async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
  const sessionSecret = randomBytes(32).toString("base64url");
  try {
    await createDatabaseIfMissing(databaseUrl);
    await prepareBenchDatabase({ databaseUrl, sessionSecret });
    const ports = benchClusterPorts();
    const cluster = await startCluster({
      processes: 2,
      basePort: ports.base,
      proxyPort: ports.proxy,
      tlsPort: ports.tls,
      databaseUrl,
      seed: false,
      env: { ...env, SESSION_SECRET: sessionSecret },
    });
    return { cluster, drop };
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
}

/** One request through the cluster's TLS listener (HTTP/1.1), its certificate the only CA. */
function tlsRequest(
  cluster: Cluster,
  path: string,
  options: { cookie?: string; form?: Record<string, string> } = {},
): Promise<{ status: number; setCookie: string[] }> {
  const tls = cluster.tls!;
  const host = `${DEMO_HOST}:${tls.port}`;
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port: tls.port,
        path,
        method: body === undefined ? "GET" : "POST",
        servername: DEMO_HOST,
        ca: fs.readFileSync(tls.certificate.certPath),
        agent: false,
        timeout: 30_000,
        headers: {
          host,
          ...(body === undefined
            ? {}
            : { "content-type": "application/x-www-form-urlencoded", origin: `https://${host}` }),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers["set-cookie"] ?? [] }));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${path}: no answer in 30 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

async function signInOverTls(cluster: Cluster, login: { email: string; password: string }) {
  const answer = await tlsRequest(cluster, "/auth/signin", { form: { ...login, callbackUrl: "/" } });
  const cookie = answer.setCookie.map((line) => line.split(";")[0]!).join("; ");
  if (answer.status !== 302 || !cookie.startsWith("__Host-")) {
    throw new Error(`Signing in ${login.email} through the cluster's TLS failed: HTTP ${answer.status}, ${cookie}`);
  }
  return cookie;
}

/**
 * The `h1-tls` and `h2` legs asked for, through the cluster's TLS listener: signed in there (https
 * cookies, `__Host-portal_session`), each page's document fetched four times first (twice per process).
 */
export async function clusterLegs(cluster: Cluster, legs: ProtocolLegName[], pages: BenchPage[]): Promise<LegPlan[]> {
  const cookies: BenchCookies = {
    customer: await signInOverTls(cluster, DEMO_LOGIN),
    hostAdmin: await signInOverTls(cluster, DEMO_ADMIN_LOGIN),
  };
  for (const page of pages) {
    for (let i = 0; i < 2 * cluster.processes.length; i += 1) {
      const answer = await tlsRequest(cluster, page.path, { cookie: cookieFor(page, cookies) });
      if (answer.status !== 200) throw new Error(`${page.path} through the cluster: HTTP ${answer.status}`);
    }
  }
  const origin = `https://${DEMO_HOST}:${cluster.tls!.port}`;
  const paths = pathsOf(pages);
  const served = (protocol: string) =>
    `${cluster.processes.length} processes on PostgreSQL behind HAProxy, TLS, ${protocol}`;
  return legs.flatMap((leg): LegPlan[] => {
    if (leg === "h1-tls") {
      const chromiumArgs = ["--disable-http2"];
      return [{ leg, served: served("HTTP/1.1 (Chromium's HTTP/2 off)"), origin, chromiumArgs, cookies, paths }];
    }
    if (leg === "h2") return [{ leg, served: served("HTTP/2"), origin, chromiumArgs: [], cookies, paths }];
    return [];
  });
}

/**
 * Every page on every leg, the legs taking turns: `profile.runs` rounds per page, one load per leg in
 * each, the first leg of a round moving on by one each round. A browser per leg (its own flags).
 */
export async function measureLegsInTurn(
  plans: LegPlan[],
  pages: BenchPage[],
  profile: AppliedProfile,
  step: (text: string) => void,
): Promise<ProtocolLeg[]> {
  const browsers = await Promise.all(plans.map((plan) => launchBenchBrowser(plan.chromiumArgs)));
  const results = plans.map(() => [] as MobileResult[]);
  try {
    for (const [index, page] of pages.entries()) {
      step(`${index + 1}/${pages.length} ${page.name}: ${plans.map((plan) => plan.leg).join(", ")} in turn`);
      const runs = plans.map(() => [] as MobileRun[]);
      for (let round = 0; round < profile.runs; round += 1) {
        for (let turn = 0; turn < plans.length; turn += 1) {
          const which = (round + turn) % plans.length;
          const plan = plans[which]!;
          const target: LoadTarget = { origin: plan.origin, requireSamePath: true };
          const url = `${plan.origin}${plan.paths.get(page.name) ?? page.path}`;
          runs[which]!.push(await loadOnce(browsers[which]!, url, cookieFor(page, plan.cookies), profile, target));
        }
      }
      plans.forEach((plan, which) => {
        const path = plan.paths.get(page.name) ?? page.path;
        results[which]!.push(mobileResult({ name: page.name, path }, runs[which]!));
      });
    }
  } finally {
    await Promise.all(browsers.map((browser) => browser.close()));
  }
  return plans.map((plan, which) => ({
    leg: plan.leg,
    served: plan.served,
    origin: plan.origin,
    protocols: protocolsOf(results[which]!),
    pages: results[which]!,
  }));
}
