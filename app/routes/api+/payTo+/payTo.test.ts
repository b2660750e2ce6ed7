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

/**
 * Every answer of the token call to bodies of every shape, written down before its body was read
 * through one zod schema (issue 30), so that the change is seen to change none. A created
 * agreement's answer names new ids: its status, repeat and message are what is kept.
 */
describe("POST /api/payTo/token: the answers to every shape of body", () => {
  const summary = (answer: Awaited<ReturnType<typeof call>>) =>
    answer.status === 200
      ? {
          status: 200,
          ok: answer.body.ok,
          repeat: answer.body.repeat,
          agreement: answer.body.agreement.status,
          kind: answer.body.agreement.method,
          message: answer.body.message,
        }
      : { status: answer.status, body: answer.body };
  const FORM = { "content-type": "application/x-www-form-urlencoded" };
  const send = async (body: unknown, headers: Record<string, string> = {}) =>
    summary(await call(token.action, "POST", "/api/payTo/token", "olivia", body, headers));
  const form = (fields: Record<string, string>) =>
    new URLSearchParams({ requestGuid: randomUUID(), accountID: ids["ACME-1000"]!, ...fields }).toString();
  const long = (text: string) => text.repeat(Math.ceil(5_000 / text.length));

  it("the request's own fields", async () => {
    const cases: [string, unknown, Record<string, string>?][] = [
      ["good JSON", tokenRequest()],
      ["good JSON, upper-case requestGuid", tokenRequest({ requestGuid: randomUUID().toUpperCase() })],
      ["unknown keys", tokenRequest({ extra: 1, more: { a: [1] } }, { extra: "x" })],
      [
        "good form, BBAN at the top level",
        form({
          party_name: "Olivia Nguyen",
          account_identification_type_code: "BBAN",
          account_identification: "000-000 12345678",
        }),
        FORM,
      ],
      [
        "good form, the debtor as JSON",
        form({
          payToDebtorInformation: JSON.stringify(tokenRequest().payToDebtorInformation),
        }),
        FORM,
      ],
      [
        "the debtor as broken JSON: the top level is read",
        form({
          payToDebtorInformation: "{",
          party_name: "Olivia Nguyen",
          account_alias_type_code: "EMAL",
          account_alias_identification: "top@payto.test",
        }),
        FORM,
      ],
      [
        "the debtor as JSON text in JSON",
        tokenRequest({ payToDebtorInformation: JSON.stringify(tokenRequest().payToDebtorInformation) }),
      ],
      ["the debtor as JSON null text", tokenRequest({ payToDebtorInformation: "null" })],
      ["the debtor as JSON number text", tokenRequest({ payToDebtorInformation: "5" })],
      ["the debtor a number", tokenRequest({ payToDebtorInformation: 5 })],
      ["the debtor null", tokenRequest({ payToDebtorInformation: null })],
      ["the debtor a list", tokenRequest({ payToDebtorInformation: [tokenRequest().payToDebtorInformation] })],
      ["the debtor true", tokenRequest({ payToDebtorInformation: true })],
      ["the debtor very long text", tokenRequest({ payToDebtorInformation: long("x") })],
      ["requestGuid missing", tokenRequest({ requestGuid: undefined })],
      ["requestGuid a number", tokenRequest({ requestGuid: 5 })],
      ["requestGuid in a list", tokenRequest({ requestGuid: [randomUUID()] })],
      ["requestGuid an object", tokenRequest({ requestGuid: {} })],
      ["requestGuid one too long", tokenRequest({ requestGuid: `${randomUUID()}0` })],
      ["requestGuid very long", tokenRequest({ requestGuid: long("a") })],
      ["party_type BUSI", tokenRequest({}, { party_type: "BUSI" })],
      ["party_type a number", tokenRequest({}, { party_type: 5 })],
      ["party_type an object", tokenRequest({}, { party_type: {} })],
      ["party_type null", tokenRequest({}, { party_type: null })],
      ["party_type empty", tokenRequest({}, { party_type: "" })],
      ["party_type very long", tokenRequest({}, { party_type: long("PERS") })],
      ["party_name a number", tokenRequest({}, { party_name: 12345 })],
      ["party_name a list", tokenRequest({}, { party_name: ["Olivia"] })],
      ["party_name missing", tokenRequest({}, { party_name: undefined })],
      ["party_name very long", tokenRequest({}, { party_name: long("a") })],
      ["party_name very long blank", tokenRequest({}, { party_name: long(" ") })],
      ["party_name very long markup", tokenRequest({}, { party_name: long("<") })],
      ["ultimate_party_name very long", tokenRequest({}, { ultimate_party_name: long("b") })],
      ["ultimate_party_name a number", tokenRequest({}, { ultimate_party_name: 7 })],
      ["ultimate_party_name an object", tokenRequest({}, { ultimate_party_name: {} })],
      [
        "both identifications",
        tokenRequest({}, { account_identification_type_code: "BBAN", account_identification: "000-000 12345678" }),
      ],
      ["neither identification", tokenRequest({}, { account_alias_type_code: undefined })],
      ["alias type empty", tokenRequest({}, { account_alias_type_code: "" })],
      ["alias type a number", tokenRequest({}, { account_alias_type_code: 0 })],
      ["alias type unknown", tokenRequest({}, { account_alias_type_code: "EMAX" })],
      ["alias type very long", tokenRequest({}, { account_alias_type_code: long("EMAL") })],
      ["alias type an object", tokenRequest({}, { account_alias_type_code: { EMAL: 1 } })],
      ["alias a number", tokenRequest({}, { account_alias_identification: 5 })],
      ["alias missing", tokenRequest({}, { account_alias_identification: undefined })],
      ["alias very long", tokenRequest({}, { account_alias_identification: long("c") })],
      ["alias very long blank", tokenRequest({}, { account_alias_identification: long(" ") })],
      [
        "a mobile very long",
        tokenRequest({}, { account_alias_type_code: "TELI", account_alias_identification: long("4") }),
      ],
      [
        "BBAN type unknown",
        tokenRequest({}, { account_alias_type_code: undefined, account_identification_type_code: "IBAN" }),
      ],
      [
        "BBAN type very long",
        tokenRequest({}, { account_alias_type_code: undefined, account_identification_type_code: long("BBAN") }),
      ],
      [
        "BBAN type a number",
        tokenRequest({}, { account_alias_type_code: undefined, account_identification_type_code: 5 }),
      ],
      [
        "BBAN a number",
        tokenRequest(
          {},
          {
            account_alias_type_code: undefined,
            account_identification_type_code: "BBAN",
            account_identification: 12345678,
          },
        ),
      ],
      [
        "BBAN very long blank",
        tokenRequest(
          {},
          {
            account_alias_type_code: undefined,
            account_identification_type_code: "BBAN",
            account_identification: long(" "),
          },
        ),
      ],
      [
        "BBAN very long",
        tokenRequest(
          {},
          {
            account_alias_type_code: undefined,
            account_identification_type_code: "BBAN",
            account_identification: long("1"),
          },
        ),
      ],
      [
        "everything wrong",
        {
          requestGuid: 1,
          accountID: ids["ACME-1000"],
          party_type: "X",
          party_name: "",
          account_alias_type_code: "Y",
          account_identification_type_code: "Z",
        },
      ],
    ];
    const answers: Record<string, unknown> = {};
    for (const [label, body, headers] of cases) answers[label] = await send(body, headers);
    expect(answers).toMatchInlineSnapshot(`
      {
        "BBAN a number": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification": "An account number has 4 to 9 digits.",
              },
              "message": "An account number has 4 to 9 digits.",
            },
            "errors": {
              "account_identification": "An account number has 4 to 9 digits.",
            },
            "message": "An account number has 4 to 9 digits.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "BBAN type a number": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              },
              "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "BBAN type unknown": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              },
              "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "BBAN type very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              },
              "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "BBAN very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification": "Enter the BSB and then the account number, digits only.",
              },
              "message": "Enter the BSB and then the account number, digits only.",
            },
            "errors": {
              "account_identification": "Enter the BSB and then the account number, digits only.",
            },
            "message": "Enter the BSB and then the account number, digits only.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "BBAN very long blank": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification": "Enter the BSB and account number.",
              },
              "message": "Enter the BSB and account number.",
            },
            "errors": {
              "account_identification": "Enter the BSB and account number.",
            },
            "message": "Enter the BSB and account number.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "a mobile very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_alias_identification": "Enter an Australian mobile number, like 0412 345 678.",
              },
              "message": "Enter an Australian mobile number, like 0412 345 678.",
            },
            "errors": {
              "account_alias_identification": "Enter an Australian mobile number, like 0412 345 678.",
            },
            "message": "Enter an Australian mobile number, like 0412 345 678.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias a number": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_alias_identification": "Enter an email address like name@example.com.",
              },
              "message": "Enter an email address like name@example.com.",
            },
            "errors": {
              "account_alias_identification": "Enter an email address like name@example.com.",
            },
            "message": "Enter an email address like name@example.com.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias missing": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_alias_identification": "Enter the email address that is your PayID.",
              },
              "message": "Enter the email address that is your PayID.",
            },
            "errors": {
              "account_alias_identification": "Enter the email address that is your PayID.",
            },
            "message": "Enter the email address that is your PayID.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias type a number": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_alias_type_code": "Choose what kind of PayID it is.",
              },
              "message": "Choose what kind of PayID it is.",
            },
            "errors": {
              "account_alias_type_code": "Choose what kind of PayID it is.",
            },
            "message": "Choose what kind of PayID it is.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias type an object": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              },
              "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias type empty": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              },
              "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias type unknown": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_alias_type_code": "Choose what kind of PayID it is.",
              },
              "message": "Choose what kind of PayID it is.",
            },
            "errors": {
              "account_alias_type_code": "Choose what kind of PayID it is.",
            },
            "message": "Choose what kind of PayID it is.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias type very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_alias_type_code": "Choose what kind of PayID it is.",
              },
              "message": "Choose what kind of PayID it is.",
            },
            "errors": {
              "account_alias_type_code": "Choose what kind of PayID it is.",
            },
            "message": "Choose what kind of PayID it is.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_alias_identification": "An email PayID can be at most 256 characters.",
              },
              "message": "An email PayID can be at most 256 characters.",
            },
            "errors": {
              "account_alias_identification": "An email PayID can be at most 256 characters.",
            },
            "message": "An email PayID can be at most 256 characters.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "alias very long blank": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_alias_identification": "Enter the email address that is your PayID.",
              },
              "message": "Enter the email address that is your PayID.",
            },
            "errors": {
              "account_alias_identification": "Enter the email address that is your PayID.",
            },
            "message": "Enter the email address that is your PayID.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "both identifications": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              },
              "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "everything wrong": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
                "party_name": "Enter the account holder's name.",
                "party_type": "party_type must be PERS.",
                "requestGuid": "The request id is missing or malformed: reload the page and try again.",
              },
              "message": "The request id is missing or malformed: reload the page and try again.",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              "party_name": "Enter the account holder's name.",
              "party_type": "party_type must be PERS.",
              "requestGuid": "The request id is missing or malformed: reload the page and try again.",
            },
            "message": "The request id is missing or malformed: reload the page and try again.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "good JSON": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "good JSON, upper-case requestGuid": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "good form, BBAN at the top level": {
          "agreement": "CREATED",
          "kind": "bban",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "good form, the debtor as JSON": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "neither identification": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              },
              "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            },
            "message": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_name a list": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_name a number": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "party_name missing": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_name very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_name": "The name can be at most 140 characters.",
              },
              "message": "The name can be at most 140 characters.",
            },
            "errors": {
              "party_name": "The name can be at most 140 characters.",
            },
            "message": "The name can be at most 140 characters.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_name very long blank": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_name very long markup": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_name": "The name can be at most 140 characters.",
              },
              "message": "The name can be at most 140 characters.",
            },
            "errors": {
              "party_name": "The name can be at most 140 characters.",
            },
            "message": "The name can be at most 140 characters.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_type BUSI": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_type": "party_type must be PERS.",
              },
              "message": "party_type must be PERS.",
            },
            "errors": {
              "party_type": "party_type must be PERS.",
            },
            "message": "party_type must be PERS.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_type a number": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_type": "party_type must be PERS.",
              },
              "message": "party_type must be PERS.",
            },
            "errors": {
              "party_type": "party_type must be PERS.",
            },
            "message": "party_type must be PERS.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_type an object": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "party_type empty": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_type": "party_type must be PERS.",
              },
              "message": "party_type must be PERS.",
            },
            "errors": {
              "party_type": "party_type must be PERS.",
            },
            "message": "party_type must be PERS.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "party_type null": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "party_type very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "party_type": "party_type must be PERS.",
              },
              "message": "party_type must be PERS.",
            },
            "errors": {
              "party_type": "party_type must be PERS.",
            },
            "message": "party_type must be PERS.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "requestGuid a number": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "requestGuid": "The request id is missing or malformed: reload the page and try again.",
              },
              "message": "The request id is missing or malformed: reload the page and try again.",
            },
            "errors": {
              "requestGuid": "The request id is missing or malformed: reload the page and try again.",
            },
            "message": "The request id is missing or malformed: reload the page and try again.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "requestGuid an object": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "requestGuid": "The request id is missing or malformed: reload the page and try again.",
              },
              "message": "The request id is missing or malformed: reload the page and try again.",
            },
            "errors": {
              "requestGuid": "The request id is missing or malformed: reload the page and try again.",
            },
            "message": "The request id is missing or malformed: reload the page and try again.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "requestGuid in a list": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "requestGuid": "The request id is missing or malformed: reload the page and try again.",
              },
              "message": "The request id is missing or malformed: reload the page and try again.",
            },
            "errors": {
              "requestGuid": "The request id is missing or malformed: reload the page and try again.",
            },
            "message": "The request id is missing or malformed: reload the page and try again.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "requestGuid missing": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "requestGuid": "The request id is missing or malformed: reload the page and try again.",
              },
              "message": "The request id is missing or malformed: reload the page and try again.",
            },
            "errors": {
              "requestGuid": "The request id is missing or malformed: reload the page and try again.",
            },
            "message": "The request id is missing or malformed: reload the page and try again.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "requestGuid one too long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "requestGuid": "The request id is missing or malformed: reload the page and try again.",
              },
              "message": "The request id is missing or malformed: reload the page and try again.",
            },
            "errors": {
              "requestGuid": "The request id is missing or malformed: reload the page and try again.",
            },
            "message": "The request id is missing or malformed: reload the page and try again.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "requestGuid very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "requestGuid": "The request id is missing or malformed: reload the page and try again.",
              },
              "message": "The request id is missing or malformed: reload the page and try again.",
            },
            "errors": {
              "requestGuid": "The request id is missing or malformed: reload the page and try again.",
            },
            "message": "The request id is missing or malformed: reload the page and try again.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "the debtor a list": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "the debtor a number": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "the debtor as JSON null text": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "the debtor as JSON number text": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "the debtor as JSON text in JSON": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "the debtor as broken JSON: the top level is read": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "the debtor null": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "the debtor true": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "the debtor very long text": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
                "party_name": "Enter the account holder's name.",
              },
              "message": "Enter the account holder's name.",
            },
            "errors": {
              "account_identification_type_code": "Give either account_identification_type_code BBAN or an account_alias_type_code (EMAL, TELI, AUBN or ORGN).",
              "party_name": "Enter the account holder's name.",
            },
            "message": "Enter the account holder's name.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "ultimate_party_name a number": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "ultimate_party_name an object": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "ultimate_party_name very long": {
          "body": {
            "error": {
              "code": "invalid",
              "fields": {
                "ultimate_party_name": "The name can be at most 140 characters.",
              },
              "message": "The name can be at most 140 characters.",
            },
            "errors": {
              "ultimate_party_name": "The name can be at most 140 characters.",
            },
            "message": "The name can be at most 140 characters.",
            "ok": false,
            "reason": "invalid",
            "status": 422,
          },
          "status": 422,
        },
        "unknown keys": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
      }
    `);
  });

  it("the account it names, and bodies that are no request", async () => {
    const cases: [string, unknown, Record<string, string>?][] = [
      ["accountID missing", tokenRequest({ accountID: undefined })],
      ["accountId spelled so", tokenRequest({ accountID: undefined, accountId: ids["ACME-1000"] })],
      ["accountID null, accountId given", tokenRequest({ accountID: null, accountId: ids["ACME-1000"] })],
      ["accountID empty, accountId given", tokenRequest({ accountID: "", accountId: ids["ACME-1000"] })],
      ["accountID null", tokenRequest({ accountID: null })],
      ["accountID empty", tokenRequest({ accountID: "" })],
      ["accountID a number", tokenRequest({ accountID: 5 })],
      ["accountID false", tokenRequest({ accountID: false })],
      ["accountID in a list", tokenRequest({ accountID: [ids["ACME-1000"]] })],
      ["accountID an object", tokenRequest({ accountID: { id: ids["ACME-1000"] } })],
      ["accountID upper case", tokenRequest({ accountID: ids["ACME-1000"]!.toUpperCase() })],
      ["accountID very long", tokenRequest({ accountID: `${ids["ACME-1000"]}${"0".repeat(10_000)}` })],
      ["accountID missing, fields wrong", tokenRequest({ accountID: undefined, requestGuid: 5 })],
      ["accountID another's, fields wrong", tokenRequest({ accountID: ids["HE-9000"], requestGuid: 5 })],
      ["empty JSON body", ""],
      ["empty form body", "", FORM],
      ["an array body", "[]"],
      ["a JSON null body", "null"],
    ];
    const answers: Record<string, unknown> = {};
    for (const [label, body, headers] of cases) answers[label] = await send(body, headers);
    expect(answers).toMatchInlineSnapshot(`
      {
        "a JSON null body": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "The request body must be a JSON object.",
            },
            "message": "The request body must be a JSON object.",
            "status": 400,
          },
          "status": 400,
        },
        "accountID a number": {
          "body": {
            "error": {
              "code": "not_found",
              "message": "Account not found",
            },
            "message": "Account not found",
            "status": 404,
          },
          "status": 404,
        },
        "accountID an object": {
          "body": {
            "error": {
              "code": "not_found",
              "message": "Account not found",
            },
            "message": "Account not found",
            "status": 404,
          },
          "status": 404,
        },
        "accountID another's, fields wrong": {
          "body": {
            "error": {
              "code": "not_found",
              "message": "Account not found",
            },
            "message": "Account not found",
            "status": 404,
          },
          "status": 404,
        },
        "accountID empty": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "Invalid request",
            },
            "message": "Invalid request",
            "status": 400,
          },
          "status": 400,
        },
        "accountID empty, accountId given": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "Invalid request",
            },
            "message": "Invalid request",
            "status": 400,
          },
          "status": 400,
        },
        "accountID false": {
          "body": {
            "error": {
              "code": "not_found",
              "message": "Account not found",
            },
            "message": "Account not found",
            "status": 404,
          },
          "status": 404,
        },
        "accountID in a list": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "accountID missing": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "Invalid request",
            },
            "message": "Invalid request",
            "status": 400,
          },
          "status": 400,
        },
        "accountID missing, fields wrong": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "Invalid request",
            },
            "message": "Invalid request",
            "status": 400,
          },
          "status": 400,
        },
        "accountID null": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "Invalid request",
            },
            "message": "Invalid request",
            "status": 400,
          },
          "status": 400,
        },
        "accountID null, accountId given": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "accountID upper case": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "accountID very long": {
          "body": {
            "error": {
              "code": "not_found",
              "message": "Account not found",
            },
            "message": "Account not found",
            "status": 404,
          },
          "status": 404,
        },
        "accountId spelled so": {
          "agreement": "CREATED",
          "kind": "payid",
          "message": "Waiting for you to approve it in your banking app.",
          "ok": true,
          "repeat": false,
          "status": 200,
        },
        "an array body": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "The request body must be a JSON object.",
            },
            "message": "The request body must be a JSON object.",
            "status": 400,
          },
          "status": 400,
        },
        "empty JSON body": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "The request body is not valid JSON.",
            },
            "message": "The request body is not valid JSON.",
            "status": 400,
          },
          "status": 400,
        },
        "empty form body": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "Invalid request",
            },
            "message": "Invalid request",
            "status": 400,
          },
          "status": 400,
        },
      }
    `);
  });
});
