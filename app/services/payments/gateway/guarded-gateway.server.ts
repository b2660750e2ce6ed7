import { CallTimeoutError, CircuitOpenError, type CircuitBreaker } from "../../platform/circuit-breaker.server";
import { PortUnavailableError, sufferFault, type FaultReader } from "../../platform/sandbox-faults.server";
import { GatewayTimeoutError, type CardGateway, type GatewayResult } from "./card-gateway.server";

/**
 * The card gateway behind a timeout and a circuit breaker (decision 046). What each outcome
 * means to the payment engine (submit.server.ts, reconcile.server.ts), which must move money once:
 * - the breaker is open → nothing was sent: a money call answers the "unavailable" refusal (the
 *   payment fails at once, its invoices are freed, the contact is told to try again shortly);
 *   a lookup throws, and the reconciler simply asks again on its next sweep;
 * - the call timed out → it may have been carried out: GatewayTimeoutError, which the engine
 *   records as outcome-unknown and settles later from the gateway's record by its key — never a
 *   decline, never a second charge;
 * - the gateway itself answers "unavailable", throws, or times out → a failure for the breaker;
 *   a decline is an answer like any other (the gateway is working).
 */
export function guardCardGateway(inner: CardGateway, breaker: CircuitBreaker): CardGateway {
  const failed = (result: GatewayResult<unknown>) => !result.ok && result.refusal === "unavailable";

  async function money<T>(call: () => Promise<GatewayResult<T>>): Promise<GatewayResult<T>> {
    try {
      return await breaker.run(call, { failed });
    } catch (error) {
      if (error instanceof CircuitOpenError) return { ok: false, refusal: "unavailable" };
      if (error instanceof CallTimeoutError) throw new GatewayTimeoutError(error.message);
      throw error;
    }
  }

  async function lookup<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await breaker.run(call);
    } catch (error) {
      if (error instanceof CallTimeoutError) throw new GatewayTimeoutError(error.message);
      throw error;
    }
  }

  return {
    name: inner.name,
    tokenise: (input) => money(() => inner.tokenise(input)),
    updateToken: (input) => money(() => inner.updateToken(input)),
    charge: (input) => money(() => inner.charge(input)),
    refund: (input) => money(() => inner.refund(input)),
    removeToken: (token) => lookup(() => inner.removeToken(token)),
    findCharge: (key) => lookup(() => inner.findCharge(key)),
  };
}

/**
 * The sandbox gateway obeying the fault switch (sandbox-faults.server.ts): slow waits before the
 * gateway does anything (so a charge that our side gave up on is still made, late, as a real slow
 * gateway would), down refuses everything without doing anything.
 */
export function withGatewayFaults(inner: CardGateway, read: FaultReader): CardGateway {
  async function money<T>(call: () => Promise<GatewayResult<T>>): Promise<GatewayResult<T>> {
    if (await sufferFault(read, "gateway")) return { ok: false, refusal: "unavailable" };
    return call();
  }
  async function lookup<T>(call: () => Promise<T>): Promise<T> {
    if (await sufferFault(read, "gateway")) throw new PortUnavailableError("The card gateway is down (sandbox fault)");
    return call();
  }
  return {
    name: inner.name,
    tokenise: (input) => money(() => inner.tokenise(input)),
    updateToken: (input) => money(() => inner.updateToken(input)),
    charge: (input) => money(() => inner.charge(input)),
    refund: (input) => money(() => inner.refund(input)),
    removeToken: (token) => lookup(() => inner.removeToken(token)),
    findCharge: (key) => lookup(() => inner.findCharge(key)),
  };
}
