import { createCircuitBreaker } from "../../platform/circuit-breaker.server";
import { getDb } from "../../platform/database.server";
import { getEnv } from "../../platform/env.server";
import { cachedFaultReader } from "../../platform/sandbox-faults.server";
import type { CardGateway } from "./card-gateway.server";
import { guardCardGateway, withGatewayFaults } from "./guarded-gateway.server";
import { createSandboxGateway } from "./sandbox-gateway.server";

let gateway: CardGateway | undefined;

/**
 * The configured card gateway adapter (CARD_GATEWAY), made once per process, behind its timeout
 * and circuit breaker (decision 046). The sandbox also obeys the fault switch.
 */
export function getCardGateway(): CardGateway {
  if (gateway) return gateway;
  const env = getEnv();
  const breaker = createCircuitBreaker({
    name: "card gateway",
    timeoutMs: env.CARD_GATEWAY_TIMEOUT_MS,
    failureThreshold: env.PORT_BREAKER_FAILURES,
    windowMs: env.PORT_BREAKER_WINDOW_MS,
    cooldownMs: env.PORT_BREAKER_COOLDOWN_MS,
  });
  switch (env.CARD_GATEWAY) {
    case "sandbox": {
      const sandbox = createSandboxGateway({ db: getDb, delayMs: env.SANDBOX_GATEWAY_DELAY_MS });
      gateway = guardCardGateway(withGatewayFaults(sandbox, cachedFaultReader(getDb)), breaker);
      return gateway;
    }
  }
}

export function setCardGatewayForTesting(replacement: CardGateway | undefined) {
  gateway = replacement;
}
