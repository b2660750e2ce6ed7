import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgreement, getAgreement, type AgreementActor } from "~/services/payments/payto/agreements.server";
import { setPayToProviderForTesting, webhookSecret } from "~/services/payments/payto/index.server";
import { createSandboxPayTo, signWebhook, type SandboxPayTo } from "~/services/payments/payto/sandbox-provider.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { action, loader } from "./webhook";

/**
 * POST /api/payTo/webhook as the provider meets it: the real route with real requests, the
 * sandbox delivering its own signed webhooks into it (the same bytes it would send over HTTP),
 * and everything a forger or a broken network could send instead.
 */
const HOST = "acme.localhost";
let handle: DatabaseHandle;
let sandbox: SandboxPayTo;
let actor: AgreementActor;
const answered: number[] = [];

const webhookRequest = (body: BodyInit, headers: Record<string, string>, host = HOST) =>
  new Request(`http://${host}/api/payTo/webhook`, {
    method: "POST",
    headers: { host, "content-type": "application/json", ...headers },
    body,
  });

async function post(body: BodyInit, headers: Record<string, string>, host = HOST) {
  const response = (await action({
    request: webhookRequest(body, headers, host),
    params: {},
    context: {},
  })) as Response;
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const signed = (body: string, at = Math.floor(Date.now() / 1000)) => ({
  "PayTo-Signature": signWebhook(webhookSecret(), body, at),
});

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  // The sandbox's deliveries go straight into the route's action: the provider's side of the wire.
  sandbox = createSandboxPayTo({
    secret: webhookSecret(),
    delayMs: 0,
    deliver: async (hostname, body, headers) => {
      const response = (await action({
        request: webhookRequest(body, headers, hostname),
        params: {},
        context: {},
      })) as Response;
      answered.push(response.status);
      return response.status;
    },
  });
  setPayToProviderForTesting(sandbox);
  const olivia = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", "olivia@coastal.example")
    .executeTakeFirstOrThrow();
  const account = await handle.db
    .selectFrom("accounts")
    .select("id")
    .where("number", "=", "ACME-1000")
    .executeTakeFirstOrThrow();
  actor = { businessId: olivia.business_id, accountId: account.id, contactId: olivia.id };
});
afterAll(async () => {
  setPayToProviderForTesting(undefined);
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function newAgreement() {
  const created = await createAgreement(
    actor,
    {
      requestGuid: randomUUID(),
      debtor: {
        partyType: "PERS",
        partyName: "Olivia Nguyen",
        ultimatePartyName: "",
        kind: "alias",
        aliasType: "EMAL",
        aliasValue: `olivia+${randomUUID().slice(0, 8)}@coastal.example`,
      },
    },
    { hostname: HOST },
  );
  if (!created.ok) throw new Error(created.reason);
  return created.agreement;
}

describe("POST /api/payTo/webhook", () => {
  it("takes the sandbox's own signed delivery: the payer approves at the bank, the portal's agreement is active", async () => {
    const agreement = await newAgreement();
    expect(agreement.status).toBe("CREATED");
    expect((await sandbox.payerApproves(agreement.providerAgreementId!)).ok).toBe(true);
    answered.length = 0;
    await sandbox.runDue();
    expect(answered).toEqual([200]);
    expect((await getAgreement(actor, agreement.id))?.status).toBe("ACTIVE");
  });

  it("answers 401 to a missing, forged, stale or non-UTF-8 signature and changes nothing", async () => {
    const agreement = await newAgreement();
    const body = JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: "agreement.updated",
      createdAt: new Date().toISOString(),
      data: {
        agreementId: agreement.providerAgreementId,
        idempotencyKey: `${actor.businessId}:${agreement.requestGuid}`,
        merchant: actor.businessId,
        status: "ACTIVE",
        version: 2,
        statusReason: null,
        maxAmountCents: 1_000_000,
        updatedAt: new Date().toISOString(),
      },
    });
    const forged = {
      "PayTo-Signature": signWebhook("a-forger-does-not-know-the-secret-0000", body, Date.now() / 1000),
    };
    for (const [raw, headers] of [
      [body, {}],
      [body, forged],
      [body, signed(body, Math.floor(Date.now() / 1000) - 600)],
      [body, { "PayTo-Signature": "t=1,v1=zz" }],
      [new Uint8Array([0xff, 0xfe, 0x00]), signed("x")],
    ] as const) {
      const answer = await post(raw, headers);
      expect(answer.status).toBe(401);
      expect(JSON.stringify(answer.body)).not.toMatch(/stack|Error:/);
    }
    expect((await getAgreement(actor, agreement.id))?.status).toBe("CREATED");
    // The same body, correctly signed, is applied once; its replay is a duplicate.
    expect(await post(body, signed(body))).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await post(body, signed(body))).toMatchObject({ status: 200, body: { duplicate: true } });
    expect((await getAgreement(actor, agreement.id))?.status).toBe("ACTIVE");
  });

  it("refuses a body larger than any webhook with 413, an unknown host with 404, and GET with 405", async () => {
    const big = JSON.stringify({ padding: "x".repeat(40_000) });
    expect((await post(big, signed(big))).status).toBe(413);
    const body = "{}";
    expect((await post(body, signed(body), "nobody.localhost")).status).toBe(404);
    expect((await loader()).status).toBe(405);
  });

  it("refuses with 404 a correctly signed event for a payment this business never made", async () => {
    const body = JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: "payment.updated",
      createdAt: new Date().toISOString(),
      data: {
        paymentId: "pmt_never",
        idempotencyKey: `${actor.businessId}:${randomUUID()}`,
        merchant: actor.businessId,
        agreementId: "pta_never",
        status: "SETTLED",
        version: 2,
        amountCents: 100,
        failureReason: null,
        updatedAt: new Date().toISOString(),
      },
    });
    const answer = await post(body, signed(body));
    expect(answer.status).toBe(404);
    const recorded = await handle.db.selectFrom("payto_webhook_events").select("event_id").execute();
    expect(recorded.map((r) => r.event_id)).not.toContain(JSON.parse(body).id);
  });
});
