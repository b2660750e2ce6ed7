import { CallTimeoutError, CircuitOpenError, type CircuitBreaker } from "../../platform/circuit-breaker.server";
import { PortUnavailableError, sufferFault, type FaultReader } from "../../platform/sandbox-faults.server";
import { PayToTimeoutError, type PayToProvider, type ProviderResult } from "./payto-provider.server";

/**
 * A PayID is registered the first time a page shows it (payids.server.ts): the page must not wait
 * long for that, so this call gets at most this long. Registering is idempotent at the provider;
 * the next page asks again.
 */
export const PAGE_CALL_TIMEOUT_MS = 3_000;

/**
 * The PayTo provider behind a timeout and a circuit breaker (decision 046), with the same meanings
 * as the card gateway's (guarded-gateway.server.ts): open → nothing sent, a request answers the
 * "unavailable" refusal and a lookup throws; timeout → PayToTimeoutError, outcome unknown, asked
 * again by our key. Everything else the adapter offers (the sandbox's bank and clock) is passed on
 * untouched, so `asSandboxPayTo` still finds the sandbox behind the guard.
 */
export function guardPayToProvider<P extends PayToProvider>(inner: P, breaker: CircuitBreaker): P {
  const failed = (result: ProviderResult<unknown>) => !result.ok && result.refusal === "unavailable";

  async function request<T>(call: () => Promise<ProviderResult<T>>, timeoutMs?: number): Promise<ProviderResult<T>> {
    try {
      return await breaker.run(call, { failed, timeoutMs });
    } catch (error) {
      if (error instanceof CircuitOpenError) return { ok: false, refusal: "unavailable" };
      if (error instanceof CallTimeoutError) throw new PayToTimeoutError(error.message);
      throw error;
    }
  }

  async function lookup<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await breaker.run(call);
    } catch (error) {
      if (error instanceof CallTimeoutError) throw new PayToTimeoutError(error.message);
      throw error;
    }
  }

  return {
    ...inner,
    createAgreement: (input) => request(() => inner.createAgreement(input)),
    cancelAgreement: (id) => request(() => inner.cancelAgreement(id)),
    initiatePayment: (input) => request(() => inner.initiatePayment(input)),
    registerPayId: (input) => request(() => inner.registerPayId(input), PAGE_CALL_TIMEOUT_MS),
    getAgreement: (id) => lookup(() => inner.getAgreement(id)),
    findAgreement: (key) => lookup(() => inner.findAgreement(key)),
    getPayment: (key) => lookup(() => inner.getPayment(key)),
  } satisfies PayToProvider;
}

/** The sandbox provider obeying the fault switch, as withGatewayFaults does for the gateway. */
export function withPayToFaults<P extends PayToProvider>(inner: P, read: FaultReader): P {
  async function request<T>(call: () => Promise<ProviderResult<T>>): Promise<ProviderResult<T>> {
    if (await sufferFault(read, "payto")) return { ok: false, refusal: "unavailable" };
    return call();
  }
  async function lookup<T>(call: () => Promise<T>): Promise<T> {
    if (await sufferFault(read, "payto")) throw new PortUnavailableError("The PayTo provider is down (sandbox fault)");
    return call();
  }
  return {
    ...inner,
    createAgreement: (input) => request(() => inner.createAgreement(input)),
    cancelAgreement: (id) => request(() => inner.cancelAgreement(id)),
    initiatePayment: (input) => request(() => inner.initiatePayment(input)),
    registerPayId: (input) => request(() => inner.registerPayId(input)),
    getAgreement: (id) => lookup(() => inner.getAgreement(id)),
    findAgreement: (key) => lookup(() => inner.findAgreement(key)),
    getPayment: (key) => lookup(() => inner.getPayment(key)),
  } satisfies PayToProvider;
}
