import { data } from "@remix-run/node";
import { z } from "zod";
import { fixedClock, now, setClockForTesting } from "./clock.server";
import { getEnv } from "./env.server";
import { apiError, apiJson, readApiBody } from "./http.server";
import { logger } from "./logger.server";
import { clientAddress } from "./request-context.server";

/**
 * The e2e suite's test clock (decision 035). Only with PORTAL_TEST_CLOCK=on, and only for callers
 * on this machine (loopback): otherwise every test route is "Page not found", exactly like a path
 * nobody serves. It moves the clock of this portal process (`now()`), which schedules, agreements
 * and the instalment runner read; card expiry, sessions and link tokens keep the system's time.
 */
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/;

/** 404 unless the test clock is on and the caller is on this machine. */
export function requireTestClock(request: Request) {
  if (getEnv().PORTAL_TEST_CLOCK !== "on") throw data({ reason: "no-route" }, { status: 404 });
  const caller = clientAddress(request);
  if (!LOOPBACK.test(caller)) {
    logger.warn("test clock refused a caller that is not on this machine", { caller });
    throw data({ reason: "no-route" }, { status: 404 });
  }
}

const MoveSchema = z
  .object({
    to: z.string().datetime({ offset: true, message: "to: give an ISO 8601 time, e.g. 2026-12-01T00:05:00+11:00" }),
    advanceDays: z.coerce.number().int().min(-3660).max(3660),
    advanceMinutes: z.coerce.number().int().min(-527_040).max(527_040),
    reset: z.union([z.literal(true), z.literal("true")]),
  })
  .partial()
  .strict();

let moved: ReturnType<typeof fixedClock> | undefined;

/** POST /__test/clock: `{to}` sets the time, `{advanceDays, advanceMinutes}` moves it, `{reset: true}` gives the system's back. */
export async function moveTestClock(request: Request) {
  const body = await readApiBody(request);
  const parsed = MoveSchema.safeParse(body);
  if (!parsed.success) return apiError(400, parsed.error.issues.map((issue) => issue.message).join("; "));
  const move = parsed.data;
  if (move.reset) {
    moved = undefined;
    setClockForTesting(undefined);
  } else {
    moved ??= fixedClock(now());
    if (move.to) moved.set(move.to);
    if (move.advanceDays) moved.advanceDays(move.advanceDays);
    if (move.advanceMinutes) moved.advanceMs(move.advanceMinutes * 60_000);
    setClockForTesting(moved);
  }
  logger.warn("test clock moved", { now: now().toISOString(), reset: Boolean(move.reset) });
  return apiJson({ now: now().toISOString(), moved: moved !== undefined });
}

export function readTestClock() {
  return apiJson({ now: now().toISOString(), moved: moved !== undefined });
}
