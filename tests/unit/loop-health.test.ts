import { describe, expect, it } from "vitest";
import {
  BEAT_EVERY_MS,
  checkEveryFor,
  createLagTracker,
  createStallDetector,
  LAG_HOLD_MS,
  lagThresholdFor,
  parseWatchdogTimeout,
} from "../../scripts/loop-health.js";
import { givenHeapLimit, heapLimitArgs, parseHeapLimit } from "../../scripts/heap-limit.js";

/**
 * The event-loop watchdog's decisions (decision 058) over an injected clock: when the main
 * thread counts as stalled (the watchdog ends the process), and when /ready says 503.
 */
function clock(start = 1_000) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

describe("parseWatchdogTimeout", () => {
  it("defaults to 10 s and takes whole milliseconds from 1000 to 120000", () => {
    expect(parseWatchdogTimeout(undefined)).toEqual({ ms: 10_000 });
    expect(parseWatchdogTimeout(" ")).toEqual({ ms: 10_000 });
    expect(parseWatchdogTimeout("1000")).toEqual({ ms: 1_000 });
    expect(parseWatchdogTimeout(" 120000 ")).toEqual({ ms: 120_000 });
    for (const wrong of ["999", "120001", "0", "-5", "5s", "1e4", "1000.5", "9999999"]) {
      expect(parseWatchdogTimeout(wrong).error, wrong).toMatch(/WATCHDOG_TIMEOUT_MS: .*1000 to 120000/);
    }
  });
});

describe("parseHeapLimit and the flag", () => {
  it("defaults to 1024 MB and takes whole megabytes from 256 to 32768", () => {
    expect(parseHeapLimit(undefined)).toEqual({ mb: 1024 });
    expect(parseHeapLimit("")).toEqual({ mb: 1024 });
    expect(parseHeapLimit("512")).toEqual({ mb: 512 });
    for (const wrong of ["255", "32769", "1G", "1024MB", "-1"]) {
      expect(parseHeapLimit(wrong).error, wrong).toMatch(/PORTAL_MAX_HEAP_MB: .*256 to 32768/);
    }
    expect(heapLimitArgs({ PORTAL_MAX_HEAP_MB: "768" })).toEqual(["--max-old-space-size=768"]);
    expect(() => heapLimitArgs({ PORTAL_MAX_HEAP_MB: "lots" })).toThrow(/PORTAL_MAX_HEAP_MB/);
  });

  it("reads the limit Node was given: the command line over NODE_OPTIONS, the last one of each", () => {
    expect(givenHeapLimit([], undefined)).toBeNull();
    expect(givenHeapLimit(["--max-old-space-size=512"], "--max-old-space-size=4096")).toBe(512);
    expect(givenHeapLimit(["--inspect"], "--max_old_space_size=2048 --enable-source-maps")).toBe(2048);
    expect(givenHeapLimit(["--max-old-space-size=512", "--max-old-space-size=700"], "")).toBe(700);
    expect(givenHeapLimit(["--max-semi-space-size=64"], undefined)).toBeNull();
  });
});

describe("createStallDetector (the watchdog thread)", () => {
  const timeoutMs = 10_000;
  const checkEveryMs = checkEveryFor(timeoutMs);

  it("is never stalled while the beat counter moves", () => {
    const time = clock();
    const detector = createStallDetector({ timeoutMs, checkEveryMs, now: time.now });
    for (let beat = 0; beat < 200; beat++) {
      time.advance(checkEveryMs);
      expect(detector.observe(beat).stalled).toBe(false);
    }
  });

  it("is stalled once the counter has stood still for the timeout, not a check before", () => {
    const time = clock();
    const detector = createStallDetector({ timeoutMs, checkEveryMs, now: time.now });
    detector.observe(41);
    time.advance(checkEveryMs);
    detector.observe(42);
    const checksBefore = timeoutMs / checkEveryMs - 1;
    for (let check = 0; check < checksBefore; check++) {
      time.advance(checkEveryMs);
      expect(detector.observe(42)).toEqual({ stalled: false, silentMs: (check + 1) * checkEveryMs });
    }
    time.advance(checkEveryMs);
    expect(detector.observe(42)).toEqual({ stalled: true, silentMs: timeoutMs });
  });

  it("counts a stall from start-up when the main thread never beats at all", () => {
    const time = clock();
    const detector = createStallDetector({ timeoutMs: 1_000, checkEveryMs: 250, now: time.now });
    let outcome = detector.observe(0);
    for (let check = 0; check < 4; check++) {
      time.advance(250);
      outcome = detector.observe(0);
    }
    expect(outcome).toEqual({ stalled: true, silentMs: 1_000 });
  });

  it("starts the wait again after a beat, so only an unbroken silence counts", () => {
    const time = clock();
    const detector = createStallDetector({ timeoutMs, checkEveryMs, now: time.now });
    detector.observe(1);
    for (let check = 0; check < 19; check++) {
      time.advance(checkEveryMs);
      detector.observe(1);
    }
    time.advance(checkEveryMs);
    expect(detector.observe(2).stalled).toBe(false);
    time.advance(checkEveryMs);
    expect(detector.observe(2)).toEqual({ stalled: false, silentMs: checkEveryMs });
  });

  it("does not end a process that slept with the watchdog (the machine suspended, the thread starved)", () => {
    const time = clock();
    const detector = createStallDetector({ timeoutMs, checkEveryMs, now: time.now });
    detector.observe(7);
    time.advance(60_000);
    expect(detector.observe(7)).toEqual({ stalled: false, silentMs: 0 });
    // From then on, the main thread has the whole timeout again.
    time.advance(checkEveryMs);
    expect(detector.observe(7).stalled).toBe(false);
  });
});

describe("createLagTracker (GET /ready)", () => {
  const thresholdMs = lagThresholdFor(10_000);

  it("stays ready while beats come on time or a little late", () => {
    const time = clock();
    const lag = createLagTracker({ thresholdMs, now: time.now });
    for (let beat = 0; beat < 50; beat++) {
      time.advance(BEAT_EVERY_MS + thresholdMs);
      expect(lag.beat()).toBe(thresholdMs);
      expect(lag.state()).toEqual({ lagging: false, lagMs: 0 });
    }
  });

  it("is not ready for LAG_HOLD_MS after a beat late past the threshold, then ready again", () => {
    const time = clock();
    const lag = createLagTracker({ thresholdMs, now: time.now });
    time.advance(BEAT_EVERY_MS);
    lag.beat();
    // The loop was blocked for 3 s: the next beat comes 3 s late.
    time.advance(BEAT_EVERY_MS + 3_000);
    expect(lag.beat()).toBe(3_000);
    expect(lag.state()).toEqual({ lagging: true, lagMs: 3_000 });
    // Beats on time since: still not ready until the hold has passed.
    let waited = 0;
    while (waited + BEAT_EVERY_MS < LAG_HOLD_MS) {
      time.advance(BEAT_EVERY_MS);
      waited += BEAT_EVERY_MS;
      lag.beat();
      expect(lag.state().lagging).toBe(true);
    }
    time.advance(LAG_HOLD_MS - waited);
    expect(lag.state()).toEqual({ lagging: false, lagMs: 0 });
  });

  it("holds from the latest late beat when the loop keeps stalling", () => {
    const time = clock();
    const lag = createLagTracker({ thresholdMs, holdMs: 5_000, now: time.now });
    time.advance(BEAT_EVERY_MS + 2_000);
    lag.beat();
    time.advance(BEAT_EVERY_MS);
    lag.beat();
    time.advance(BEAT_EVERY_MS + 1_500);
    lag.beat();
    time.advance(4_999);
    expect(lag.state()).toEqual({ lagging: true, lagMs: 1_500 });
    time.advance(1);
    expect(lag.state().lagging).toBe(false);
  });

  it("derives its threshold and the watchdog's check interval from the timeout", () => {
    expect(lagThresholdFor(10_000)).toBe(1_000);
    expect(lagThresholdFor(2_000)).toBe(500);
    expect(checkEveryFor(10_000)).toBe(500);
    expect(checkEveryFor(1_000)).toBe(250);
  });
});
