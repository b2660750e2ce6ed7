import { data } from "@remix-run/node";
import { z } from "zod";
import { ISO_INSTANT_MAX } from "~/lib/input-bounds";
import { now, setClockForTesting } from "./clock.server";
import { getEnv } from "./env.server";
import { apiError, apiJson, readApiBody } from "./http.server";
import { logger } from "./logger.server";
import { clientAddress } from "./request-context.server";

/**
 * The e2e suite's test clock (decision 035). Only with PORTAL_TEST_CLOCK=on, and only for callers
 * on this machine (loopback): otherwise every test route is "Page not found", exactly like a path
 * nobody serves. It moves the clock of this portal process (`now()`), which every server date reads
 * (decision 068); card expiry, sessions, one-time tokens and link tokens keep the system's time.
 */
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/;

/** Headers a proxy adds: a request carrying one came through a proxy, from wherever. */
const PROXIED = ["x-forwarded-for", "forwarded", "x-real-ip", "x-forwarded-host"];

/**
 * 404 unless the test clock is on and the caller is on this machine. A request that came through
 * a proxy is refused too, whatever its peer address: behind a local proxy every caller's peer is
 * loopback. (The configuration refuses the test clock with TRUST_PROXY on: parseEnv.)
 */
export function requireTestClock(request: Request) {
  if (getEnv().PORTAL_TEST_CLOCK !== "on") throw data({ reason: "no-route" }, { status: 404 });
  const caller = clientAddress(request);
  if (PROXIED.some((name) => request.headers.has(name))) {
    logger.warn("test clock refused a request that came through a proxy", { caller });
    throw data({ reason: "no-route" }, { status: 404 });
  }
  if (!LOOPBACK.test(caller)) {
    logger.warn("test clock refused a caller that is not on this machine", { caller });
    throw data({ reason: "no-route" }, { status: 404 });
  }
}

const INSTANT_MESSAGE = "give an ISO 8601 time, e.g. 2026-12-01T00:05:00+11:00";
const instant = z.string().max(ISO_INSTANT_MAX, INSTANT_MESSAGE).datetime({ offset: true, message: INSTANT_MESSAGE });

const MoveSchema = z
  .object({
    to: instant,
    notBefore: instant,
    advanceDays: z.coerce.number().int().min(-3660).max(3660),
    advanceMinutes: z.coerce.number().int().min(-527_040).max(527_040),
    reset: z.union([z.literal(true), z.literal("true")]),
  })
  .partial()
  .strict();

/**
 * The test clock runs: the system's time plus an offset, so time still passes for everything else
 * the portal does (sessions, links, pollers) while the suite's journeys run in parallel.
 */
let offsetMs = 0;
const shifted = () => new Date(Date.now() + offsetMs);

/**
 * POST /__test/clock: `{to}` sets the time, `{notBefore}` moves it forward to at least then (never
 * back: parallel journeys that each need "at least their day" agree), `{advanceDays,
 * advanceMinutes}` move it, `{reset: true}` gives the system's time back.
 */
export async function moveTestClock(request: Request) {
  const body = await readApiBody(request);
  const parsed = MoveSchema.safeParse(body);
  if (!parsed.success) {
    return apiError(
      400,
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; "),
    );
  }
  const move = parsed.data;
  if (move.reset) offsetMs = 0;
  if (move.to) offsetMs = new Date(move.to).getTime() - Date.now();
  if (move.notBefore) offsetMs = Math.max(offsetMs, new Date(move.notBefore).getTime() - Date.now());
  if (move.advanceDays) offsetMs += move.advanceDays * 86_400_000;
  if (move.advanceMinutes) offsetMs += move.advanceMinutes * 60_000;
  setClockForTesting(offsetMs === 0 ? undefined : shifted);
  logger.warn("test clock moved", { now: now().toISOString(), offsetMs });
  return apiJson({ now: now().toISOString(), offsetMs });
}

export function readTestClock() {
  return apiJson({ now: now().toISOString(), offsetMs });
}
