import { getDb } from "../../platform/database.server";
import { getEnv } from "../../platform/env.server";
import type { CardGateway } from "./card-gateway.server";
import { createSandboxGateway } from "./sandbox-gateway.server";

let gateway: CardGateway | undefined;

/** The configured card gateway adapter (CARD_GATEWAY), made once per process. */
export function getCardGateway(): CardGateway {
  if (gateway) return gateway;
  const env = getEnv();
  switch (env.CARD_GATEWAY) {
    case "sandbox":
      gateway = createSandboxGateway({ db: getDb, delayMs: env.SANDBOX_GATEWAY_DELAY_MS });
      return gateway;
  }
}

export function setCardGatewayForTesting(replacement: CardGateway | undefined) {
  gateway = replacement;
}
