import type { CardBrand } from "~/lib/payment-method-types";

/**
 * The card gateway port (ARCHITECTURE: "External parties"). The portal hands the card number
 * and CVN to the gateway through this interface and keeps only what comes back: a token and
 * the card's public facts. Adapters: the sandbox (default, `CARD_GATEWAY=sandbox`) and, in a
 * deployment, the business's real gateway behind the same interface.
 */

/** Why a gateway refused, in the words the portal shows (each has a message key). */
export type GatewayRefusal =
  "declined" | "insufficient_funds" | "expired_card" | "cvn_mismatch" | "invalid_card" | "unavailable";

/** Who is paying from where: the spec's gatewayOrigin and gatewayExtraData, and the client address. */
export type GatewayContext = {
  origin: string;
  clientIp: string;
  extraData: Record<string, string>;
};

export type TokeniseInput = GatewayContext & {
  cardNumber: string;
  cvn: string;
  expiryMonth: number;
  expiryYear: number;
  holderName: string;
};

export type TokenisedCard = { token: string; brand: CardBrand; firstDigit: string; last4: string };

export type UpdateTokenInput = GatewayContext & {
  token: string;
  expiryMonth: number;
  expiryYear: number;
  holderName: string;
  cvn?: string;
};

export type ChargeInput = GatewayContext & {
  token: string;
  amountCents: number;
  currency: string;
  /** Ours (the payment's requestGuid): a repeat with the same key returns the first charge. */
  idempotencyKey: string;
};

export type GatewayCharge = {
  chargeId: string;
  idempotencyKey: string;
  status: "captured" | "declined" | "refunded";
  amountCents: number;
  refundedCents: number;
  declineCode: GatewayRefusal | null;
};

export type GatewayResult<T> = { ok: true; value: T } | { ok: false; refusal: GatewayRefusal };

/**
 * The gateway did not answer in time. The operation may or may not have happened: callers
 * that move money must ask `findCharge` by their idempotency key before trying again.
 */
export class GatewayTimeoutError extends Error {
  constructor(message = "The card gateway did not answer in time") {
    super(message);
    this.name = "GatewayTimeoutError";
  }
}

export interface CardGateway {
  readonly name: string;
  tokenise(input: TokeniseInput): Promise<GatewayResult<TokenisedCard>>;
  updateToken(input: UpdateTokenInput): Promise<GatewayResult<{ token: string }>>;
  /**
   * Deletes a token from the gateway's vault, so it can never be charged. For a token the
   * portal made but could not record (the card was not saved after all). False when the
   * gateway does not know it (already removed): removing twice is not an error.
   */
  removeToken(token: string): Promise<boolean>;
  charge(input: ChargeInput): Promise<GatewayResult<GatewayCharge>>;
  refund(input: { chargeId: string; amountCents: number }): Promise<GatewayResult<GatewayCharge>>;
  findCharge(idempotencyKey: string): Promise<GatewayCharge | null>;
}
