import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../platform/db.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { GatewayTimeoutError } from "./card-gateway.server";
import { createSandboxGateway } from "./sandbox-gateway.server";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openSeededPglite();
});
afterAll(async () => {
  await handle.close();
});

const gateway = () => createSandboxGateway({ db: async () => handle.db, delayMs: 0 });
const context = { origin: "http://acme.localhost", clientIp: "127.0.0.1", extraData: {} };
const year = new Date().getUTCFullYear() + 1;
const tokenise = (cardNumber: string, cvn = "123") =>
  gateway().tokenise({ ...context, cardNumber, cvn, expiryMonth: 12, expiryYear: year, holderName: "T" });

describe("sandbox card gateway", () => {
  it("tokenises a good card and keeps no number", async () => {
    const result = await tokenise("4111 1111 1111 1111");
    expect(result).toMatchObject({ ok: true, value: { brand: "visa", firstDigit: "4", last4: "1111" } });
    const rows = JSON.stringify(await handle.db.selectFrom("sandbox_gateway_tokens").selectAll().execute());
    expect(rows).not.toContain("4111111111111111");
  });

  it.each([
    ["4000000000000002", "declined"],
    ["4000000000000069", "expired_card"],
    ["4000000000000127", "cvn_mismatch"],
    ["4000000000000408", "unavailable"],
    ["4111111111111112", "invalid_card"],
  ])("verification of %s → %s", async (number, refusal) => {
    expect(await tokenise(number)).toEqual({ ok: false, refusal });
  });

  it("charges once per idempotency key, and refunds", async () => {
    const token = await tokenise("5555555555554444");
    if (!token.ok) throw new Error("tokenise failed");
    const input = {
      ...context,
      token: token.value.token,
      amountCents: 12_345,
      currency: "AUD",
      idempotencyKey: "key-1",
    };
    const [a, b] = await Promise.all([gateway().charge(input), gateway().charge(input)]);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.value.chargeId).toBe(b.value.chargeId);
    const count = await handle.db
      .selectFrom("sandbox_gateway_charges")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("idempotency_key", "=", "key-1")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    const refund = await gateway().refund({ chargeId: a.value.chargeId, amountCents: 12_345 });
    expect(refund).toMatchObject({ ok: true, value: { status: "refunded", refundedCents: 12_345 } });
    expect((await gateway().refund({ chargeId: a.value.chargeId, amountCents: 1 })).ok).toBe(false);
  });

  it("refuses a charge for insufficient funds; times out after capturing, and the charge can be found", async () => {
    const poor = await tokenise("4000000000009995");
    if (!poor.ok) throw new Error("a $0 verification passes whatever the funds");
    expect(
      await gateway().charge({
        ...context,
        token: poor.value.token,
        amountCents: 500,
        currency: "AUD",
        idempotencyKey: "key-2",
      }),
    ).toEqual({
      ok: false,
      refusal: "insufficient_funds",
    });
    const slow = await tokenise("4000000000000119");
    if (!slow.ok) throw new Error("tokenise failed");
    await expect(
      gateway().charge({
        ...context,
        token: slow.value.token,
        amountCents: 700,
        currency: "AUD",
        idempotencyKey: "key-3",
      }),
    ).rejects.toBeInstanceOf(GatewayTimeoutError);
    expect(await gateway().findCharge("key-3")).toMatchObject({ status: "captured", amountCents: 700 });
    expect(await gateway().findCharge("never")).toBeNull();
  });

  it("removes a token from its vault: it can no longer be charged, and removing it again says so", async () => {
    const made = await tokenise("4242 4242 4242 4242");
    if (!made.ok) throw new Error("tokenise failed");
    const token = made.value.token;
    expect(await gateway().removeToken(token)).toBe(true);
    const left = await handle.db
      .selectFrom("sandbox_gateway_tokens")
      .select("token")
      .where("token", "=", token)
      .execute();
    expect(left).toEqual([]);
    expect(
      await gateway().charge({ ...context, token, amountCents: 100, currency: "AUD", idempotencyKey: "key-removed" }),
    ).toEqual({ ok: false, refusal: "invalid_card" });
    expect(await gateway().removeToken(token)).toBe(false);
  });
});
