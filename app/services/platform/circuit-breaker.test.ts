import { describe, expect, it, vi } from "vitest";
import { CallTimeoutError, CircuitOpenError, createCircuitBreaker } from "./circuit-breaker.server";

function breakerAt(start = 1_000_000) {
  let time = start;
  const breaker = createCircuitBreaker({
    name: "test port",
    timeoutMs: 50,
    failureThreshold: 3,
    windowMs: 10_000,
    cooldownMs: 5_000,
    now: () => time,
  });
  return { breaker, advance: (ms: number) => (time += ms) };
}

const boom = () => Promise.reject(new Error("refused"));
const never = () => new Promise<never>(() => {});

describe("circuit breaker", () => {
  it("passes answers through while closed, and a success clears the failures", async () => {
    const { breaker } = breakerAt();
    await expect(breaker.run(boom)).rejects.toThrow("refused");
    await expect(breaker.run(boom)).rejects.toThrow("refused");
    expect(await breaker.run(async () => 42)).toBe(42);
    await expect(breaker.run(boom)).rejects.toThrow("refused");
    await expect(breaker.run(boom)).rejects.toThrow("refused");
    expect(breaker.state()).toBe("closed");
  });

  it("times a call out, and the timeout counts as a failure", async () => {
    const { breaker } = breakerAt();
    // Fake timers: the call is given exactly its 50 ms of (virtual) time, whatever the machine's load.
    vi.useFakeTimers();
    try {
      let settled = false;
      const call = breaker.run(never).catch((error: unknown) => error);
      void call.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      expect(await call).toBeInstanceOf(CallTimeoutError);
    } finally {
      vi.useRealTimers();
    }
    await expect(breaker.run(never, { timeoutMs: 10 })).rejects.toBeInstanceOf(CallTimeoutError);
    await expect(breaker.run(never)).rejects.toBeInstanceOf(CallTimeoutError);
    expect(breaker.state()).toBe("open");
  });

  it("opens after the threshold in a row, fails fast without calling, probes after the cool-down", async () => {
    const { breaker, advance } = breakerAt();
    for (let i = 0; i < 3; i++) await expect(breaker.run(boom)).rejects.toThrow("refused");
    expect(breaker.state()).toBe("open");
    let calls = 0;
    const counted = async () => {
      calls++;
      return "ok";
    };
    await expect(breaker.run(counted)).rejects.toBeInstanceOf(CircuitOpenError);
    advance(4_999);
    await expect(breaker.run(counted)).rejects.toBeInstanceOf(CircuitOpenError);
    expect(calls).toBe(0);
    advance(1);
    expect(breaker.state()).toBe("half-open");
    // One probe at a time: a second caller while it is out fails fast.
    let release!: (value: string) => void;
    const probe = breaker.run(() => new Promise<string>((resolve) => (release = resolve)));
    await expect(breaker.run(counted)).rejects.toBeInstanceOf(CircuitOpenError);
    release("back");
    expect(await probe).toBe("back");
    expect(breaker.state()).toBe("closed");
    expect(await breaker.run(counted)).toBe("ok");
    expect(calls).toBe(1);
  });

  it("a failed probe opens it for another cool-down", async () => {
    const { breaker, advance } = breakerAt();
    for (let i = 0; i < 3; i++) await expect(breaker.run(boom)).rejects.toThrow();
    advance(5_000);
    await expect(breaker.run(never)).rejects.toBeInstanceOf(CallTimeoutError);
    expect(breaker.state()).toBe("open");
    advance(4_000);
    await expect(breaker.run(async () => 1)).rejects.toBeInstanceOf(CircuitOpenError);
    advance(1_000);
    expect(await breaker.run(async () => 1)).toBe(1);
  });

  it("counts only failures within the window, and answers the caller calls failures", async () => {
    const { breaker, advance } = breakerAt();
    await expect(breaker.run(boom)).rejects.toThrow();
    await expect(breaker.run(boom)).rejects.toThrow();
    advance(10_000);
    await expect(breaker.run(boom)).rejects.toThrow();
    expect(breaker.state()).toBe("closed");
    const unavailable = { ok: false as const, refusal: "unavailable" };
    const failed = (value: { ok: boolean }) => !value.ok;
    expect(await breaker.run(async () => unavailable, { failed })).toBe(unavailable);
    expect(await breaker.run(async () => unavailable, { failed })).toBe(unavailable);
    expect(breaker.state()).toBe("open");
  });

  it("a call that throws before it starts is a failure, not a crash", async () => {
    const { breaker } = breakerAt();
    await expect(
      breaker.run(() => {
        throw new Error("sync");
      }),
    ).rejects.toThrow("sync");
  });
});
