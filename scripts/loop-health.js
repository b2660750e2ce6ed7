/**
 * When is the event loop stalled, and when is the process not ready (issue 28, decision 058)?
 * Pure decisions over a clock the caller passes in (`now()`, milliseconds): scripts/watchdog.js
 * and scripts/watchdog-worker.js feed them real time, the tests an injected one.
 */

/** How often the main thread beats (and measures how late its own beat was). */
export const BEAT_EVERY_MS = 500;
export const WATCHDOG_TIMEOUT_DEFAULT_MS = 10_000;
export const WATCHDOG_TIMEOUT_MIN_MS = 1_000;
export const WATCHDOG_TIMEOUT_MAX_MS = 120_000;
/**
 * After a beat this late, GET /ready answers 503 for LAG_HOLD_MS: a process that stalls again and
 * again answers its health check quickly in between, and would otherwise stay in the balancer.
 * HAProxy takes a server out after 3 failed checks a second apart (scripts/cluster-lib.ts).
 */
export const LAG_HOLD_MS = 10_000;

/**
 * WATCHDOG_TIMEOUT_MS: how long the main thread may miss its beats before the watchdog ends the
 * process. Unset or empty: the default. Returns `{ ms }` or `{ error }` (the caller says it and exits).
 */
export function parseWatchdogTimeout(value) {
  if (value === undefined || value.trim() === "") return { ms: WATCHDOG_TIMEOUT_DEFAULT_MS };
  const ms = /^\d{1,6}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(ms >= WATCHDOG_TIMEOUT_MIN_MS && ms <= WATCHDOG_TIMEOUT_MAX_MS)) {
    return {
      error: `WATCHDOG_TIMEOUT_MS: must be a whole number of milliseconds, ${WATCHDOG_TIMEOUT_MIN_MS} to ${WATCHDOG_TIMEOUT_MAX_MS}`,
    };
  }
  return { ms };
}

/** A beat later than this (past its due time) makes the process unready: a quarter of the timeout, at most 1 s. */
export function lagThresholdFor(timeoutMs) {
  return Math.min(1_000, Math.floor(timeoutMs / 4));
}

/** How often the watchdog looks at the beat counter: often enough to act within a quarter of the timeout. */
export function checkEveryFor(timeoutMs) {
  return Math.min(BEAT_EVERY_MS, Math.floor(timeoutMs / 4));
}

/**
 * The watchdog's view (in its own thread). `observe(beats)` is called every `checkEveryMs` with
 * the main thread's beat counter; the answer is `{ stalled: true, silentMs }` once the counter has
 * not moved for `timeoutMs`. When the watchdog itself was not running for a while (the machine
 * was suspended, or starved of CPU), its silence says nothing about the main thread: the wait
 * starts again rather than ending a process that merely slept with it.
 */
export function createStallDetector({ timeoutMs, checkEveryMs, now }) {
  let lastBeats = null;
  let lastChangeAt = now();
  let lastObservedAt = lastChangeAt;
  return {
    observe(beats) {
      const at = now();
      const watchdogAsleep = at - lastObservedAt > checkEveryMs * 4 + 1_000;
      lastObservedAt = at;
      if (beats !== lastBeats || watchdogAsleep) {
        lastBeats = beats;
        lastChangeAt = at;
        return { stalled: false, silentMs: 0 };
      }
      const silentMs = at - lastChangeAt;
      return { stalled: silentMs >= timeoutMs, silentMs };
    },
  };
}

/**
 * The main thread's view, for GET /ready. `beat()` runs on a timer every `beatEveryMs`: a beat
 * that comes more than `thresholdMs` after it was due means the loop was blocked that long, and
 * the process reports itself not ready until `holdMs` after that beat.
 */
export function createLagTracker({ beatEveryMs = BEAT_EVERY_MS, thresholdMs, holdMs = LAG_HOLD_MS, now }) {
  let lastBeatAt = now();
  let unreadyUntil = -Infinity;
  let lastLagMs = 0;
  return {
    /** Returns how late this beat was (ms). */
    beat() {
      const at = now();
      const lagMs = Math.max(0, at - lastBeatAt - beatEveryMs);
      lastBeatAt = at;
      if (lagMs > thresholdMs) {
        lastLagMs = lagMs;
        unreadyUntil = at + holdMs;
      }
      return lagMs;
    },
    /** `{ lagging: true, lagMs }` while a recent beat was late past the threshold. */
    state() {
      return now() < unreadyUntil ? { lagging: true, lagMs: lastLagMs } : { lagging: false, lagMs: 0 };
    },
  };
}
