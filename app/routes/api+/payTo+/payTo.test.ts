import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import * as configuration from "./configuration";
import * as token from "./token";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

let handle: DatabaseHandle;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};
const HOSTS = { olivia: "acme.localhost", mia: "harbour.localhost", aroha: "kiwi.localhost" } as const;
type Who = keyof typeof HOSTS;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const [who, email] of [
    ["olivia", "olivia@coastal.example"],
    ["mia", "mia@harbour.example"],
    ["aroha", "aroha@orchards.example"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const host = HOSTS[who];
    const request = new Request(`http://${host}/`, { headers: { host } });
    cookies[who] = (
      await createSession(request, {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
  }
  for (const number of ["ACME-1000", "ACME-1001", "HE-9000", "KF-500"]) {
    ids[number] = (
      await handle.db.selectFrom("accounts").select("id").where("number", "=", number).executeTakeFirstOrThrow()
    ).id;
  }
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function call(
  handler: Handler,
  method: string,
  path: string,
  who?: Who,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const host = who ? HOSTS[who] : "acme.localhost";
  const all: Record<string, string> = { host, ...(who ? { cookie: cookies[who]! } : {}), ...headers };
  if (body !== undefined) all["content-type"] ??= "application/json";
  const request = new Request(`http://${host}${path}`, {
    method,
    headers: all,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  let response: Response;
  try {
    response = await handler({ request, params: {}, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : null };
}

const tokenRequest = (overrides: Record<string, unknown> = {}, debtor: Record<string, unknown> = {}) => ({
  requestGuid: randomUUID(),
  accountID: ids["ACME-1000"],
  payToDebtorInformation: {
    party_type: "PERS",
    party_name: "Olivia Nguyen",
    ultimate_party_name: "",
    account_alias_type_code: "EMAL",
    account_alias_identification: "olivia.route@payto.test",
    ...debtor,
  },
  ...overrides,
});

const agreements = async () =>
  Number(
    (
      await handle.db
        .selectFrom("payto_agreements")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("GET /api/payTo/configuration", () => {
  it("needs a session: 401 signed out, 405 for POST", async () => {
    expect((await call(configuration.loader, "GET", "/api/payTo/configuration")).status).toBe(401);
    expect((await call(configuration.action, "POST", "/api/payTo/configuration", "olivia")).status).toBe(405);
  });

  it("acme offers PayTo with its limit; harbour and kiwi do not", async () => {
    const acme = await call(configuration.loader, "GET", "/api/payTo/configuration", "olivia");
    expect(acme.status).toBe(200);
    expect(acme.body).toMatchObject({
      enabled: true,
      currency: "AUD",
      maxPaymentCents: 1_000_000,
      maxPaymentAmount: 10_000,
      accountAliasTypes: ["EMAL", "TELI", "AUBN", "ORGN"],
    });
    expect(typeof acme.body.providerName).toBe("string");
    for (const who of ["mia", "aroha"] as const) {
      const off = await call(configuration.loader, "GET", "/api/payTo/configuration", who);
      expect(off.status).toBe(200);
      expect(off.body).toMatchObject({ enabled: false, accountAliasTypes: [] });
    }
  });
});

describe("POST /api/payTo/token", () => {
  it("401 signed out, 405 for GET, 403 from another origin; nothing written", async () => {
    const before = await agreements();
    expect((await call(token.action, "POST", "/api/payTo/token", undefined, tokenRequest())).status).toBe(401);
    expect((await call(token.loader, "GET", "/api/payTo/token", "olivia")).status).toBe(405);
    const crossSite = await call(token.action, "POST", "/api/payTo/token", "olivia", tokenRequest(), {
      origin: "http://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(await agreements()).toBe(before);
  });

  it("another account's or business's id is a 404, nothing written", async () => {
    const before = await agreements();
    for (const accountID of [ids["HE-9000"], ids["KF-500"], randomUUID(), "' OR 1=1 --"]) {
      const answer = await call(token.action, "POST", "/api/payTo/token", "olivia", tokenRequest({ accountID }));
      expect(answer.status, String(accountID)).toBe(404);
    }
    expect(await agreements()).toBe(before);
  });

  it("harbour (PayTo off) is refused clearly, nothing written", async () => {
    const before = await agreements();
    const answer = await call(
      token.action,
      "POST",
      "/api/payTo/token",
      "mia",
      tokenRequest({ accountID: ids["HE-9000"] }),
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({
      ok: false,
      reason: "disabled",
      message: "PayTo is not offered by this business.",
    });
    expect(await agreements()).toBe(before);
  });

  it("bad fields are 422 with a message per field, nothing written, never a 500", async () => {
    const before = await agreements();
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [
        {},
        { account_alias_type_code: "AUBN", account_alias_identification: "51 824 753 557" },
        "account_alias_identification",
      ],
      [
        {},
        { account_alias_type_code: "TELI", account_alias_identification: "+64 21 123 4567" },
        "account_alias_identification",
      ],
      [{}, { account_alias_identification: "not-an-email" }, "account_alias_identification"],
      [
        {},
        {
          account_alias_type_code: undefined,
          account_identification_type_code: "BBAN",
          account_identification: "12345",
        },
        "account_identification",
      ],
      [{}, { party_name: "" }, "party_name"],
      [{}, { party_name: "x".repeat(141) }, "party_name"],
      [{}, { party_name: "<img src=x onerror=alert(1)>" }, "party_name"],
      [{ requestGuid: "1; DROP TABLE payto_agreements" }, {}, "requestGuid"],
    ];
    for (const [overrides, debtor, field] of cases) {
      const answer = await call(token.action, "POST", "/api/payTo/token", "olivia", tokenRequest(overrides, debtor));
      expect(answer.status, field).toBe(422);
      expect(answer.body.ok).toBe(false);
      expect(answer.body.reason).toBe("invalid");
      expect(typeof answer.body.errors[field], field).toBe("string");
      expect(answer.body.message).toBeTruthy();
    }
    for (const raw of ["{", "[]", "null", `{"payToDebtorInformation": 5}`]) {
      const answer = await call(token.action, "POST", "/api/payTo/token", "olivia", raw);
      expect(answer.status, raw).toBeGreaterThanOrEqual(400);
      expect(answer.status, raw).toBeLessThan(500);
    }
    expect(await agreements()).toBe(before);
  });

  it("creates the agreement (JSON or a form); a repeat answers the first result; other content is 409", async () => {
    const request = tokenRequest();
    const first = await call(token.action, "POST", "/api/payTo/token", "olivia", request);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ok: true,
      repeat: false,
      agreement: { status: "CREATED", maxAmountCents: 1_000_000 },
    });
    const again = await call(token.action, "POST", "/api/payTo/token", "olivia", request);
    expect(again.body).toMatchObject({ ok: true, repeat: true, agreement: { id: first.body.agreement.id } });
    const other = await call(
      token.action,
      "POST",
      "/api/payTo/token",
      "olivia",
      tokenRequest({ requestGuid: request.requestGuid }, { party_name: "Someone Else" }),
    );
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ ok: false, reason: "conflict" });

    const form = new URLSearchParams({
      requestGuid: randomUUID(),
      accountID: ids["ACME-1000"]!,
      party_name: "Olivia Nguyen",
      account_identification_type_code: "BBAN",
      account_identification: "000-000 12345678",
    });
    const fromForm = await call(token.action, "POST", "/api/payTo/token", "olivia", form.toString(), {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(fromForm.status).toBe(200);
    expect(fromForm.body.agreement).toMatchObject({ method: "bban", bsb: "000000", accountNumberLast3: "678" });
    expect(fromForm.text).not.toContain("12345678");
  });
});
