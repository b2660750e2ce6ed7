import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPayToProviderForTesting } from "~/services/payments/payto/index.server";
import type { PayToDebtor, PayToProvider } from "~/services/payments/payto/payto-provider.server";
import { createSandboxPayTo, type SandboxPayTo } from "~/services/payments/payto/sandbox-provider.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { action, loader } from "./payto-bank";

/**
 * The sandbox bank page's loader and action with real requests, on the real sandbox provider:
 * what the payer sees, each step the payer takes, money sent to a PayID, and bad input.
 */
const HOST = "acme.localhost";
const MERCHANT = "bank-page-merchant";
let handle: DatabaseHandle;
let bank: SandboxPayTo;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  bank = createSandboxPayTo({ secret: "bank-page-secret-bank-page-secret-0123", delayMs: 0 });
  setPayToProviderForTesting(bank);
});
afterAll(async () => {
  setPayToProviderForTesting(undefined);
  setDatabaseForTesting(undefined);
  await handle.close();
});

const debtor = (aliasValue: string): PayToDebtor => ({
  partyType: "PERS",
  partyName: "Pat Payer",
  ultimatePartyName: "",
  kind: "alias",
  aliasType: "EMAL",
  aliasValue,
});

async function agreementFor(payer: string, description: string) {
  const created = await bank.createAgreement({
    idempotencyKey: randomUUID(),
    merchant: MERCHANT,
    hostname: HOST,
    debtor: debtor(payer),
    maxAmountCents: 123_456,
    description,
  });
  if (!created.ok) throw new Error(created.refusal);
  return created.value.agreementId;
}

type Loaded = Awaited<ReturnType<typeof loader>>;
const load = async (query: string) =>
  (await loader({
    request: new Request(`http://${HOST}/sandbox/payto-bank${query}`, { headers: { host: HOST } }),
    params: {},
    context: {},
  })) as Loaded;

type Answer = { status: number; location: string | null; body: Record<string, unknown> };
async function post(fields: Record<string, string>, origin = `http://${HOST}`): Promise<Answer> {
  const request = new Request(`http://${HOST}/sandbox/payto-bank`, {
    method: "POST",
    headers: { host: HOST, origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  let answer: unknown;
  try {
    answer = await action({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: null, body: {} };
    throw thrown;
  }
  if (answer instanceof Response) {
    return { status: answer.status, location: answer.headers.get("location"), body: {} };
  }
  const { data, init } = answer as { data: Record<string, unknown>; init: { status?: number } | null };
  return { status: init?.status ?? 200, location: null, body: data };
}

describe("the sandbox bank page", () => {
  it("opens an agreement's payer and lists their agreements, pending first, with the payer's buttons", async () => {
    const payer = `bank-${randomUUID()}@example.com`;
    const older = await agreementFor(payer, "Acme — account 1");
    await bank.payerApproves(older);
    const newer = await agreementFor(payer, "Acme — account 2");
    await agreementFor(`someone-else-${randomUUID()}@example.com`, "Not theirs");

    const page = await load(`?agreement=${encodeURIComponent(older)}`);
    expect(page.payer).toBe(payer);
    expect(page.agreements.map((a) => [a.agreementId, a.statusLabel, a.actions.map((x) => x.label)])).toEqual([
      [newer, "Waiting for your answer", ["Approve", "Decline"]],
      [older, "Active", ["Suspend", "Cancel"]],
    ]);
    expect(page.agreements[0]).toMatchObject({
      maxAmount: "$1,234.56",
      hostname: HOST,
      description: "Acme — account 2",
    });

    // The same list by the payer's PayID, typed in any case.
    const byPayer = await load(`?payer=${encodeURIComponent(payer.toUpperCase())}`);
    expect(byPayer.agreements.map((a) => a.agreementId)).toEqual([newer, older]);
  });

  it("takes the payer's steps by POST/redirect/GET and refuses impossible ones with a message", async () => {
    const id = await agreementFor(`steps-${randomUUID()}@example.com`, "Steps");
    const approved = await post({ intent: "approve", agreementId: id });
    expect(approved).toMatchObject({ status: 302, location: `/sandbox/payto-bank?agreement=${id}&done=approve` });
    expect((await bank.getAgreement(id))?.status).toBe("ACTIVE");
    expect((await load(`?agreement=${id}&done=approve`)).notice).toBe("You approved the agreement.");

    const again = await post({ intent: "approve", agreementId: id });
    expect(again).toMatchObject({
      status: 409,
      body: { formError: "This agreement is active: it cannot be approved now." },
    });

    expect(await post({ intent: "suspend", agreementId: id })).toMatchObject({ status: 302 });
    expect(await post({ intent: "resume", agreementId: id })).toMatchObject({ status: 302 });
    expect(await post({ intent: "cancel", agreementId: id })).toMatchObject({ status: 302 });
    const after = await bank.getAgreement(id);
    expect(after).toMatchObject({ status: "CANCELLED", version: 5 });
    expect(await post({ intent: "resume", agreementId: id })).toMatchObject({ status: 409 });
  });

  it("sends money to a registered PayID, and refuses bad details without recording anything", async () => {
    const payId = `${randomUUID().slice(0, 8)}@acme.payto.test`;
    await bank.registerPayId({ payId, merchant: MERCHANT, hostname: HOST, reference: "acct-7", name: "Acme" });
    const count = async () =>
      Number(
        (
          await handle.db
            .selectFrom("sandbox_payto_incoming")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("payid", "=", payId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    const bad = [
      [{ payId, amount: "12.345", payerName: "Pat" }, { amount: "Use at most two decimal places" }],
      [{ payId, amount: "-5", payerName: "Pat" }, { amount: "Enter an amount that isn't negative" }],
      [{ payId, amount: "0", payerName: "Pat" }, { amount: "Enter an amount of at least 0.01." }],
      [{ payId, amount: "1e3", payerName: "Pat" }, { amount: "Enter an amount like 125.50" }],
      [{ payId, amount: "5", payerName: "   " }, { payerName: "Enter the name the business will see." }],
      [{ payId: "", amount: "5", payerName: "Pat" }, { payId: "Enter the PayID to pay, like 10042@acme.payto.test." }],
      [
        { payId: "<script>@x.test", amount: "5", payerName: "Pat" },
        { payId: "No business has registered this PayID." },
      ],
      [{ payId: `' OR 1=1 --`, amount: "5", payerName: "Pat" }, { payId: "No business has registered this PayID." }],
    ] as const;
    for (const [fields, errors] of bad) {
      const answer = await post({ intent: "send", ...fields });
      expect(answer).toMatchObject({ status: 400, body: { sendErrors: errors } });
    }
    expect(await count()).toBe(0);

    const sent = await post({ intent: "send", payId: payId.toUpperCase(), amount: "$1,234.50", payerName: "Pat" });
    expect(sent).toMatchObject({ status: 302, location: "/sandbox/payto-bank?done=sent" });
    const row = await handle.db
      .selectFrom("sandbox_payto_incoming")
      .selectAll()
      .where("payid", "=", payId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ amount_cents: 123_450, payer_name: "Pat" });
  });

  it("says plainly when the payer or agreement is unknown or the input is not a PayID", async () => {
    expect(await load("?payer=nobody-here%40example.com")).toMatchObject({
      payer: "nobody-here@example.com",
      agreements: [],
      lookupError: null,
    });
    expect(await load("?payer=%3Cscript%3Ealert(1)%3C%2Fscript%3E")).toMatchObject({
      payer: null,
      lookupError: expect.stringContaining("Enter a PayID"),
    });
    expect(await load("?agreement=agr_sbx_unknown")).toMatchObject({
      missing: expect.stringContaining("no such agreement"),
    });
    expect(await load(`?agreement=${"x".repeat(5000)}`)).toMatchObject({ agreements: [] });
    expect(await post({ intent: "approve", agreementId: "agr_sbx_unknown" })).toMatchObject({ status: 404 });
    expect(await post({ intent: "approve", agreementId: "" })).toMatchObject({ status: 404 });
    expect(await post({ intent: "steal" })).toMatchObject({ status: 400 });
  });

  it("answers a body that is not a form (JSON, oversized, a null byte) with a 4xx, not a 500", async () => {
    const send = async (body: string, type: string) => {
      const request = new Request(`http://${HOST}/sandbox/payto-bank`, {
        method: "POST",
        headers: { host: HOST, origin: `http://${HOST}`, "content-type": type },
        body,
      });
      try {
        const answer = await action({ request, params: {}, context: {} });
        return answer instanceof Response ? answer.status : 200;
      } catch (thrown) {
        if (thrown instanceof Response) return thrown.status;
        throw thrown;
      }
    };
    expect(await send(JSON.stringify({ intent: "send" }), "application/json")).toBe(415);
    expect(await send(`intent=send&payerName=${"x".repeat(70_000)}`, "application/x-www-form-urlencoded")).toBe(413);
    expect(await send("intent=send&payerName=a%00b", "application/x-www-form-urlencoded")).toBe(400);
  });

  it("refuses a cross-site POST before doing anything", async () => {
    const id = await agreementFor(`xsite-${randomUUID()}@example.com`, "Cross-site");
    expect(await post({ intent: "approve", agreementId: id }, "http://evil.example")).toMatchObject({ status: 403 });
    expect((await bank.getAgreement(id))?.status).toBe("CREATED");
  });

  it("does not exist with another provider", async () => {
    const other: PayToProvider = { ...bank, sandbox: undefined } as unknown as PayToProvider;
    setPayToProviderForTesting(other);
    try {
      await expect(load("")).rejects.toMatchObject({ status: 404 });
      expect(await post({ intent: "approve", agreementId: "x" })).toMatchObject({ status: 404 });
    } finally {
      setPayToProviderForTesting(bank);
    }
  });
});
