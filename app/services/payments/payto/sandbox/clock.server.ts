import { logger } from "../../../platform/logger.server";
import { getPayToProvider } from "../index.server";
import { asSandboxPayTo } from "../sandbox-provider.server";

/**
 * Runs the sandbox's clock in this process (expiry, the banks' own answers, settlement,
 * webhook delivery). Several processes may run it at once: every step is guarded. Unref'd,
 * so it never keeps the process alive.
 */
export function startSandboxClock(
  intervalMs = 1_000,
  // eslint-disable-next-line no-restricted-syntax -- the sandbox PayTo provider stands in for the banks, whose clock is real, not the portal's test clock
  tick: () => Promise<unknown> = async () => asSandboxPayTo(getPayToProvider())?.runDue(new Date()),
) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch((error: unknown) => logger.error("sandbox payto clock failed", { error }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
