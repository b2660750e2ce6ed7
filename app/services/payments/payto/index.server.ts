import { createHmac } from "node:crypto";
import { createCircuitBreaker } from "../../platform/circuit-breaker.server";
import { getDb } from "../../platform/database.server";
import { getEnv } from "../../platform/env.server";
import { cachedFaultReader } from "../../platform/sandbox-faults.server";
import { guardPayToProvider, withPayToFaults } from "./guarded-provider.server";
import type { PayToProvider } from "./payto-provider.server";
import { createSandboxPayTo } from "./sandbox-provider.server";

let provider: PayToProvider | undefined;

/** The secret webhooks are signed with: PAYTO_WEBHOOK_SECRET, else derived from SESSION_SECRET. */
export function webhookSecret(): string {
  const env = getEnv();
  return (
    env.PAYTO_WEBHOOK_SECRET ?? createHmac("sha256", env.SESSION_SECRET).update("payto-webhook").digest("base64url")
  );
}

/**
 * The configured PayTo provider adapter (PAYTO_PROVIDER), made once per process, behind its
 * timeout and circuit breaker (decision 046). The sandbox also obeys the fault switch.
 */
export function getPayToProvider(): PayToProvider {
  if (provider) return provider;
  const env = getEnv();
  const breaker = createCircuitBreaker({
    name: "PayTo provider",
    timeoutMs: env.PAYTO_PROVIDER_TIMEOUT_MS,
    failureThreshold: env.PORT_BREAKER_FAILURES,
    windowMs: env.PORT_BREAKER_WINDOW_MS,
    cooldownMs: env.PORT_BREAKER_COOLDOWN_MS,
  });
  switch (env.PAYTO_PROVIDER) {
    case "sandbox": {
      const sandbox = createSandboxPayTo({ secret: webhookSecret() });
      provider = guardPayToProvider(withPayToFaults(sandbox, cachedFaultReader(getDb)), breaker);
      return provider;
    }
  }
}

export function setPayToProviderForTesting(replacement: PayToProvider | undefined) {
  provider = replacement;
}
