import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import * as payIdCall from "./payId";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

let handle: DatabaseHandle;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const [who, email, host] of [
    ["olivia", "olivia@coastal.example", "acme.localhost"],
    ["aroha", "aroha@orchards.example", "kiwi.localhost"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const request = new Request(`http://${host}/`, { headers: { host } });
    cookies[who] = (
      await createSession(request, {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
  }
  for (const number of ["ACME-1000", "ACME-2000", "KF-500"]) {
    ids[number] = (
      await handle.db.selectFrom("accounts").select("id").where("number", "=", number).executeTakeFirstOrThrow()
    ).id;
  }
  // An account of Acme that Olivia is not a contact of.
  const acme = await handle.db
    .selectFrom("accounts")
    .select("business_id")
    .where("id", "=", ids["ACME-1000"]!)
    .executeTakeFirstOrThrow();
  ids.stranger = (
    await handle.db
      .insertInto("accounts")
      .values({ business_id: acme.business_id, number: "ACME-9999", name: "Stranger Pty Ltd", parent_account_id: null })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function call(handler: Handler, method: string, path: string, who?: string) {
  const host = who === "aroha" ? "kiwi.localhost" : "acme.localhost";
  const headers: Record<string, string> = { host, ...(who ? { cookie: cookies[who]! } : {}) };
  const request = new Request(`http://${host}${path}`, { method, headers });
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

const get = (query: string, who?: string) => call(payIdCall.loader, "GET", `/api/payTo/payId${query}`, who);

describe("GET /api/payTo/payId", () => {
  it("answers 400 'Invalid request' without an account id", async () => {
    expect(await get("", "olivia")).toMatchObject({ status: 400, body: { status: 400, message: "Invalid request" } });
    expect(await get("?accountId=", "olivia")).toMatchObject({ status: 400, body: { message: "Invalid request" } });
  });

  it("answers 401 when signed out", async () => {
    expect((await get(`?accountId=${ids["ACME-2000"]}`)).status).toBe(401);
  });

  it("answers 404 for another account, another business's account or a malformed id, and registers nothing", async () => {
    for (const accountId of [ids.stranger!, ids["KF-500"]!, "' OR 1=1 --", "<b>x</b>", "0".repeat(5000)]) {
      const answer = await get(`?accountId=${encodeURIComponent(accountId)}`, "olivia");
      expect(answer).toMatchObject({ status: 404, body: { status: 404 } });
      expect(answer.text).not.toMatch(/stack|Error:/);
    }
    const stored = await handle.db.selectFrom("payto_payids").select("payid").execute();
    expect(stored).toEqual([]);
  });

  it("says PayID is not offered to a New Zealand business's accounts", async () => {
    expect(await get(`?accountId=${ids["KF-500"]}`, "aroha")).toEqual({
      status: 200,
      text: expect.any(String),
      body: { payId: null, enabled: false, reason: "not_offered" },
    });
  });

  it("gives the account its PayID, registering it once", async () => {
    const expected = {
      payId: "acme-2000@pay.acme.example",
      name: "Acme Plumbing Supplies",
      accountNumber: "ACME-2000",
      enabled: true,
    };
    expect(await get(`?accountId=${ids["ACME-2000"]}`, "olivia")).toMatchObject({ status: 200, body: expected });
    expect(await get(`?accountId=${ids["ACME-2000"]}`, "olivia")).toMatchObject({ status: 200, body: expected });
    const registered = await handle.db
      .selectFrom("sandbox_payto_payids")
      .select(["payid", "reference"])
      .where("payid", "=", expected.payId)
      .execute();
    expect(registered).toEqual([{ payid: expected.payId, reference: ids["ACME-2000"] }]);
  });

  it("refuses anything but GET", async () => {
    const answer = await call(payIdCall.action, "POST", `/api/payTo/payId?accountId=${ids["ACME-2000"]}`, "olivia");
    expect(answer.status).toBe(405);
  });
});
