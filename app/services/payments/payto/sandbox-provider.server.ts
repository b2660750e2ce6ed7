import type { PayToProvider } from "./payto-provider.server";

/** Placeholder until the sandbox adapter lands (issue 13, helper "payto-sandbox"). */
export function createSandboxPayTo(_options: { secret: string }): PayToProvider {
  throw new Error("The PayTo sandbox adapter is not built yet");
}
