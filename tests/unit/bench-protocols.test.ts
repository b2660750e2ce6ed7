import { describe, expect, it } from "vitest";
import { LOW_END, MOBILE, PAGES } from "../../bench/config";
import {
  legsFromEnvironment,
  lowEndPages,
  PROTOCOL_LEGS,
  protocolProfileFromEnvironment,
  type LowEndProtocolResults,
  type ProtocolLeg,
} from "../../bench/lowend-protocols";
import type { MobileResult } from "../../bench/mobile";
import { formatLowEndProtocols } from "../../bench/report";

/** BENCH_ONLY=lowend-h2's switches and its table (decision 083); the run itself is the bench's, never a test's. */
describe("the low-end protocol comparison's switches", () => {
  it("makes every leg unless BENCH_LOWEND_LEGS names some, and refuses a leg it does not know or twice", () => {
    expect(legsFromEnvironment(undefined)).toEqual([...PROTOCOL_LEGS]);
    expect(legsFromEnvironment("h2, h1")).toEqual(["h2", "h1"]);
    expect(() => legsFromEnvironment("h1,h3")).toThrow(/BENCH_LOWEND_LEGS names "h3"/);
    expect(() => legsFromEnvironment("h2,h1,h2")).toThrow(/names a leg twice/);
  });

  it("loads with the low-end phone unless BENCH_PROTOCOL_PROFILE says mobile, each into its own file", () => {
    expect(protocolProfileFromEnvironment(undefined)).toMatchObject({
      profile: LOW_END,
      file: "bench/results/lowend-h2.json",
    });
    expect(protocolProfileFromEnvironment("mobile")).toMatchObject({
      profile: MOBILE,
      file: "bench/results/mobile-h2.json",
    });
    expect(() => protocolProfileFromEnvironment("3g")).toThrow(/lowend or mobile/);
  });

  it("loads every mobile page unless BENCH_LOWEND_PAGES names some, and refuses a page that is not one", () => {
    const mobile = PAGES.filter((page) => page.mobile).map((page) => page.name);
    expect(lowEndPages(PAGES, undefined).map((page) => page.name)).toEqual(mobile);
    expect(lowEndPages(PAGES, "pay,sign-in").map((page) => page.name)).toEqual(["sign-in", "pay"]);
    // accounts is a page, but not one the phone runs load.
    expect(() => lowEndPages(PAGES, "pay,accounts")).toThrow(/no mobile page named accounts/);
  });
});

const result = (page: string, load: number, scriptsEnd: number, scripts: number): MobileResult => {
  const run = { fcp: 700, lcp: 900, tbt: 0, cls: 0, load, scripts, scriptsEnd, transferred: 151_234, protocols: {} };
  return { page, path: `/${page}`, runs: [run], median: run };
};

describe("the side-by-side table", () => {
  const leg = (name: ProtocolLeg["leg"], pages: MobileResult[], protocols: Record<string, number>): ProtocolLeg => ({
    leg: name,
    served: `served ${name}`,
    origin: `https://acme.localhost:74${name.length}`,
    protocols,
    pages,
  });
  const results = (legs: ProtocolLeg[]): LowEndProtocolResults => ({
    generatedAt: "2026-12-04T22:00:00.000Z",
    durationSeconds: 1,
    machine: { cpus: 2, node: "v20" },
    profileName: "lowend",
    profile: { latencyMs: 400, downloadBitsPerSecond: 400_000, uploadBitsPerSecond: 400_000, cpuSlowdown: 6, runs: 3 },
    cssDelivery: "inline",
    legs,
  });

  it("shows each page's files and bytes, each leg's load event, scripts' arrival and LCP, and h2 − h1", () => {
    const text = formatLowEndProtocols(
      results([
        leg("h1", [result("sign-in", 4_000, 3_000, 16), result("pay", 5_000, 4_100, 19)], { "http/1.1": 70 }),
        leg("h2", [result("sign-in", 3_100, 2_200, 16), result("pay", 3_600, 2_900, 19)], { h2: 70, "http/1.1": 1 }),
      ]),
    );
    const lines = text.split("\n");
    expect(lines.find((line) => line.startsWith("page"))?.split(/\s{2,}/)).toEqual([
      "page",
      "files",
      "KB",
      "h1 load",
      "h1 scripts in",
      "h1 LCP",
      "h2 load",
      "h2 scripts in",
      "h2 LCP",
      "h2 − h1 load",
    ]);
    expect(lines.find((line) => line.startsWith("pay"))?.split(/\s+/)).toEqual([
      "pay",
      "19",
      "151.2",
      "5000",
      "4100",
      "900",
      "3600",
      "2900",
      "900",
      "-1400",
    ]);
    expect(text).toContain("400 ms, 400 kbps, 6× CPU");
    expect(text).toContain("h2: served h2; https://acme.localhost:742; responses by protocol: h2 70, http/1.1 1");
  });

  it("names each leg's file count when the legs loaded different files, and has no difference column without h2", () => {
    const text = formatLowEndProtocols(
      results([leg("h1", [result("pay", 5_000, 4_100, 19)], {}), leg("h1-tls", [result("pay", 5_100, 4_200, 18)], {})]),
    );
    const row = text.split("\n").find((line) => line.startsWith("pay"));
    expect(row?.split(/\s{2,}/).slice(0, 2)).toEqual(["pay", "19 / 18"]);
    expect(text).not.toContain("h2 − h1");
  });
});
