import { createHmac } from "node:crypto";
import { getEnv } from "../../platform/env.server";
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

/** The configured PayTo provider adapter (PAYTO_PROVIDER), made once per process. */
export function getPayToProvider(): PayToProvider {
  if (provider) return provider;
  const env = getEnv();
  switch (env.PAYTO_PROVIDER) {
    case "sandbox":
      provider = createSandboxPayTo({ secret: webhookSecret() });
      return provider;
  }
}

export function setPayToProviderForTesting(replacement: PayToProvider | undefined) {
  provider = replacement;
}
