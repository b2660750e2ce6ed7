import { afterEach, describe, expect, it, vi } from "vitest";
import { now, setClockForTesting } from "~/services/platform/clock.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import { CLIENT_ADDRESS_HEADER } from "~/services/platform/request-log.server";
import { action, loader } from "./[__test].clock";
import { action as runDue } from "./[__test].run-due-instalments";

/**
 * The e2e suite's test clock (decision 035): "Page not found" unless PORTAL_TEST_CLOCK=on, and
 * then only for callers on this machine; it moves `now()` and puts it back; bad bodies are 400s.
 */
const call = async (
  fn: typeof action,
  init: { body?: unknown; from?: string; method?: string; headers?: Record<string, string> } = {},
) => {
  const request = new Request("http://acme.localhost/__test/clock", {
    method: init.method ?? "POST",
    headers: {
      host: "acme.localhost",
      "content-type": "application/json",
      [CLIENT_ADDRESS_HEADER]: init.from ?? "127.0.0.1",
      ...init.headers,
    },
    ...(init.method === "GET" ? {} : { body: JSON.stringify(init.body ?? {}) }),
  });
  try {
    const response = (await fn({ request, params: {}, context: {} })) as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch (thrown) {
    const status =
      thrown instanceof Response ? thrown.status : ((thrown as { init?: { status?: number } }).init?.status ?? 500);
    return { status, body: {} };
  }
};

const setSwitch = (value: string | undefined) => {
  if (value === undefined) delete process.env.PORTAL_TEST_CLOCK;
  else process.env.PORTAL_TEST_CLOCK = value;
  resetEnvForTesting();
};

afterEach(() => {
  vi.useRealTimers();
  setSwitch(undefined);
  setClockForTesting(undefined);
});

describe("/__test/clock", () => {
  it("is Page not found when PORTAL_TEST_CLOCK is not on, whatever is asked", async () => {
    setSwitch(undefined);
    expect((await call(action, { body: { advanceDays: 3 } })).status).toBe(404);
    expect((await call(loader as typeof action, { method: "GET" })).status).toBe(404);
    expect((await call(runDue)).status).toBe(404);
    setSwitch("off");
    expect((await call(action, { body: { advanceDays: 3 } })).status).toBe(404);
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(5_000);
  });

  it("refuses a caller that is not on this machine", async () => {
    setSwitch("on");
    expect((await call(action, { body: { advanceDays: 3 }, from: "203.0.113.9" })).status).toBe(404);
    expect((await call(runDue, { from: "10.0.0.2" })).status).toBe(404);
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(5_000);
  });

  it("refuses a request that came through a proxy, though its peer is loopback", async () => {
    setSwitch("on");
    const proxied: Record<string, string>[] = [
      { "x-forwarded-for": "127.0.0.1" },
      { forwarded: "for=127.0.0.1" },
      { "x-real-ip": "127.0.0.1" },
      { "x-forwarded-host": "acme.localhost" },
    ];
    for (const headers of proxied) {
      expect((await call(action, { body: { advanceDays: 3 }, headers })).status).toBe(404);
      expect((await call(runDue, { headers })).status).toBe(404);
    }
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(5_000);
  });

  it("sets, moves and resets the portal's clock for a local caller; time goes on passing", async () => {
    setSwitch("on");
    // The system's time stands still (fake Date only: no timer is faked) and moves when the test says, so
    // every instant is exact however long the calls take; the test clock is that time plus its offset.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-01T00:00:00Z"));
    const near = (iso: unknown, expected: string) => expect(new Date(String(iso)).toISOString()).toBe(expected);
    const set = await call(action, { body: { to: "2027-03-01T00:05:00+11:00" } });
    expect(set.status).toBe(200);
    near(set.body.now, "2027-02-28T13:05:00.000Z");
    const moved = await call(action, { body: { advanceDays: 3, advanceMinutes: 10 }, from: "::1" });
    near(moved.body.now, "2027-03-03T13:15:00.000Z");
    near(now().toISOString(), "2027-03-03T13:15:00.000Z");
    // Time goes on passing on the moved clock.
    vi.setSystemTime(new Date("2026-12-01T00:01:00Z"));
    near(now().toISOString(), "2027-03-03T13:16:00.000Z");
    near((await call(loader as typeof action, { method: "GET" })).body.now, "2027-03-03T13:16:00.000Z");
    // notBefore never moves it back.
    near((await call(action, { body: { notBefore: "2027-03-01T00:00:00Z" } })).body.now, "2027-03-03T13:16:00.000Z");
    near((await call(action, { body: { notBefore: "2027-04-01T00:00:00Z" } })).body.now, "2027-04-01T00:00:00.000Z");
    const reset = await call(action, { body: { reset: true } });
    expect(reset.body.offsetMs).toBe(0);
    expect(now().toISOString()).toBe("2026-12-01T00:01:00.000Z");
  });

  it("answers bad bodies with 400 and leaves the clock alone", async () => {
    setSwitch("on");
    for (const body of [{ to: "tomorrow" }, { advanceDays: 1.5 }, { advanceDays: "1; DROP TABLE" }, { when: 1 }]) {
      expect((await call(action, { body })).status).toBe(400);
    }
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(5_000);
  });
});
