import { logger } from "./logger.server";

/**
 * A circuit breaker with a per-call timeout, for the ports to outside parties (the card gateway,
 * the PayTo provider; decision 046). Closed, it lets calls through and counts failures in a row
 * (a thrown error, a timeout, or an answer the port calls a failure, such as "unavailable");
 * `failureThreshold` of them within `windowMs` open it. Open, every call fails at once with
 * CircuitOpenError — nothing is sent — until `cooldownMs` has passed; then one call goes through
 * as a probe (half-open) while the others still fail fast: its success closes the breaker, its
 * failure opens it for another cool-down.
 *
 * One breaker per port per process: each portal process learns for itself that a party is down,
 * after a handful of calls, which is cheaper than sharing the state and as quick.
 */
export type BreakerState = "closed" | "open" | "half-open";

export type BreakerOptions = {
  name: string;
  timeoutMs: number;
  failureThreshold: number;
  windowMs: number;
  cooldownMs: number;
  /** Injected in tests; Date.now otherwise. */
  now?: () => number;
};

/** The breaker refused the call before anything was sent. */
export class CircuitOpenError extends Error {
  constructor(name: string) {
    super(`${name} is unavailable (circuit open): not called`);
    this.name = "CircuitOpenError";
  }
}

/** The call did not answer within the timeout. It may still have been carried out. */
export class CallTimeoutError extends Error {
  constructor(name: string, timeoutMs: number) {
    super(`${name} did not answer within ${timeoutMs} ms`);
    this.name = "CallTimeoutError";
  }
}

export type CircuitBreaker = {
  readonly name: string;
  state(): BreakerState;
  /**
   * Runs `call` under the breaker and the timeout (`timeoutMs` overrides the breaker's, for a
   * call that must be quicker). `failed` says whether an answer counts as a failure.
   */
  run<T>(call: () => Promise<T>, options?: { timeoutMs?: number; failed?: (value: T) => boolean }): Promise<T>;
  /** Back to closed with no history (tests). */
  reset(): void;
};

export function createCircuitBreaker(options: BreakerOptions): CircuitBreaker {
  const now = options.now ?? Date.now;
  let state: BreakerState = "closed";
  let failures: number[] = [];
  let openedAt = 0;
  let probing = false;

  function open() {
    if (state !== "open") logger.warn("circuit breaker opened", { port: options.name, failures: failures.length });
    state = "open";
    openedAt = now();
    probing = false;
  }

  function succeeded() {
    if (state !== "closed") logger.info("circuit breaker closed", { port: options.name });
    state = "closed";
    failures = [];
    probing = false;
  }

  function failedOnce() {
    if (state === "half-open") return open();
    const at = now();
    failures = failures.filter((time) => at - time < options.windowMs);
    failures.push(at);
    if (failures.length >= options.failureThreshold) open();
  }

  function currentState(): BreakerState {
    if (state === "open" && now() - openedAt >= options.cooldownMs) {
      state = "half-open";
      probing = false;
    }
    return state;
  }

  async function run<T>(
    call: () => Promise<T>,
    callOptions: { timeoutMs?: number; failed?: (value: T) => boolean } = {},
  ): Promise<T> {
    const current = currentState();
    if (current === "open") throw new CircuitOpenError(options.name);
    if (current === "half-open") {
      if (probing) throw new CircuitOpenError(options.name);
      probing = true;
    }
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const attempt = (async () => call())();
    // The call goes on after a timeout (it may still be carried out): its late end is not ours.
    attempt.catch(() => {});
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CallTimeoutError(options.name, timeoutMs)), timeoutMs);
    });
    try {
      const value = await Promise.race([attempt, timeout]);
      if (callOptions.failed?.(value)) failedOnce();
      else succeeded();
      return value;
    } catch (error) {
      failedOnce();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    name: options.name,
    state: currentState,
    run,
    reset() {
      state = "closed";
      failures = [];
      probing = false;
    },
  };
}
