import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import * as bankAccounts from "./sample+/bank-accounts";
import * as creditCards from "./sample+/credit-cards";
import * as removeBank from "./sample+/remove-bank-account";
import * as removeCard from "./sample+/remove-credit-card";
import * as saveBank from "./sample+/save-bank-account";
import * as saveCard from "./sample+/save-credit-card";
import * as updateCard from "./sample+/update-credit-card";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

let handle: DatabaseHandle;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};
const nextYear = new Date().getUTCFullYear() + 1;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const [who, email, host] of [
    ["olivia", "olivia@coastal.example", "acme.localhost"],
    ["sam", "sam@coastal.example", "acme.localhost"],
    ["aroha", "aroha@orchards.example", "kiwi.localhost"],
    ["liam", "liam@tasman.example", "kiwi.localhost"],
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
  for (const number of ["ACME-1000", "ACME-2000", "KF-500", "KF-700"]) {
    ids[number] = (
      await handle.db.selectFrom("accounts").select("id").where("number", "=", number).executeTakeFirstOrThrow()
    ).id;
  }
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function call(handler: Handler, method: string, path: string, who?: string, body?: unknown) {
  const host = who === "aroha" || who === "liam" ? "kiwi.localhost" : "acme.localhost";
  const headers: Record<string, string> = { host, ...(who ? { cookie: cookies[who]! } : {}) };
  if (body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://${host}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
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

const card = (overrides: Record<string, unknown> = {}) => ({
  accountId: ids["ACME-2000"],
  cardNumber: "4111 1111 1111 1111",
  cardHolderName: "Olivia Nguyen",
  cvn: "123",
  expiryMonth: 12,
  expiryYear: nextYear,
  creditCardTypeID: 1,
  authorityReference: "CONSENT-API-1",
  gatewayOrigin: "http://acme.localhost",
  gatewayExtraData: { device: "test" },
  ...overrides,
});

const cardCount = async () =>
  Number(
    (
      await handle.db
        .selectFrom("cards")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("spec §5 messages", () => {
  it.each([
    [removeCard.action, "DELETE", "/api/sample/remove-credit-card?accountId=x", "missing credit card ID"],
    [removeBank.action, "DELETE", "/api/sample/remove-bank-account?accountId=x", "missing bank account ID"],
    [creditCards.loader, "GET", "/api/sample/credit-cards", "Invalid request"],
    [bankAccounts.loader, "GET", "/api/sample/bank-accounts", "Invalid request"],
  ] as [Handler, string, string, string][])("%#: %s %s → 400 %s", async (handler, method, path, message) => {
    const { status, body } = await call(handler, method, path, "olivia");
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });

  it("answers 401 without a session and 405 for the wrong method", async () => {
    expect(
      (await call(creditCards.loader, "GET", `/api/sample/credit-cards?accountId=${ids["ACME-1000"]}`)).status,
    ).toBe(401);
    expect((await call(saveCard.loader, "GET", "/api/sample/save-credit-card", "olivia")).status).toBe(405);
    expect(
      (await call(removeCard.action, "POST", "/api/sample/remove-credit-card?creditCardId=x", "olivia")).status,
    ).toBe(405);
  });
});

describe("cards", () => {
  let cardId: string;

  it("saves a card: 201, masked, the number and CVN nowhere in the answer or the database", async () => {
    const { status, body, text } = await call(
      saveCard.action,
      "POST",
      "/api/sample/save-credit-card",
      "olivia",
      card({ cvn: "319" }),
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({
      creditCardType: "visa",
      creditCardTypeId: 1,
      last4: "1111",
      firstDigit: "4",
      isDefault: true,
      expiryYear: nextYear,
    });
    expect(body.maskedCardNumber).toBe("4••• •••• •••• 1111");
    expect(text).not.toContain("4111111111111111");
    expect(text).not.toContain("319");
    cardId = body.creditCardId;
    const list = await call(
      creditCards.loader,
      "GET",
      `/api/sample/credit-cards?accountId=${ids["ACME-2000"]}`,
      "olivia",
    );
    expect(list.body.map((c: { creditCardId: string }) => c.creditCardId)).toContain(cardId);
    const stored = await handle.db.selectFrom("cards").selectAll().where("id", "=", cardId).executeTakeFirstOrThrow();
    expect(stored.authority_reference).toBe("CONSENT-API-1");
    expect(stored.consented_by).not.toBeNull();
    const token = await handle.db
      .selectFrom("sandbox_gateway_tokens")
      .selectAll()
      .where("token", "=", stored.gateway_token)
      .executeTakeFirstOrThrow();
    // gatewayOrigin and gatewayExtraData reached the gateway; the client address came from the request.
    expect(token.origin).toBe("http://acme.localhost");
    expect(token.extra_data).toMatchObject({ device: "test" });
    for (const table of ["cards", "sandbox_gateway_tokens", "audit_events", "sessions"] as const) {
      const rows = await handle.db.selectFrom(table).selectAll().execute();
      const dump = JSON.stringify(rows);
      expect(dump, table).not.toContain("4111111111111111");
      expect(dump, table).not.toMatch(/"319"|:319\b/);
    }
  });

  it("accepts 2- and 4-digit years, spaces and dashes, and `expiry` as MM/YY", async () => {
    for (const overrides of [
      { cardNumber: "5555-5555-5555-4444", expiryYear: String(nextYear).slice(2), creditCardTypeID: 2 },
      {
        cardNumber: "378282246310005",
        cvn: "1234",
        expiryMonth: undefined,
        expiryYear: undefined,
        expiry: `07/${String(nextYear).slice(2)}`,
        creditCardTypeID: 3,
      },
    ]) {
      const { status, body } = await call(
        saveCard.action,
        "POST",
        "/api/sample/save-credit-card",
        "olivia",
        card(overrides),
      );
      expect(status, JSON.stringify(body)).toBe(201);
    }
  });

  it.each([
    ["wrong Luhn", { cardNumber: "4111 1111 1111 1112" }, "cardNumber", /valid card number/],
    ["letters in the number", { cardNumber: "4111 1111 1111 111a" }, "cardNumber", /valid card number/],
    ["past expiry", { expiryMonth: 1, expiryYear: 2020 }, "expiryYear", /expired/],
    ["3-digit year", { expiryYear: "202" }, "expiryYear", /2 digits/],
    ["month 13", { expiryMonth: 13 }, "expiryMonth", /1 to 12/],
    ["HTML in the holder name", { cardHolderName: "<script>alert(1)</script>" }, "cardHolderName", /letters, numbers/],
    ["SQL in the holder name", { cardHolderName: "x'; DROP TABLE cards;--" }, "cardHolderName", /letters, numbers/],
    ["over-long holder name", { cardHolderName: "A".repeat(101) }, "cardHolderName", /100 characters/],
    ["no holder name", { cardHolderName: undefined }, "cardHolderName", /name on the card/],
    ["a 3-digit CVN on Amex", { cardNumber: "378282246310005", cvn: "123", creditCardTypeID: 3 }, "cvn", /4-digit/],
    ["card type that is not the number's", { creditCardTypeID: 2 }, "creditCardTypeID", /Visa, Mastercard/],
    ["no authority reference", { authorityReference: undefined }, "authorityReference", /authority/],
    [
      "a card number in gatewayExtraData",
      { gatewayExtraData: { note: "4111 1111 1111 1111" } },
      "gatewayExtraData",
      /./,
    ],
    ["a number as an object", { cardNumber: { n: 4111 } }, "cardNumber", /./],
  ])("%s → 400 on its field, nothing stored", async (_name, overrides, field, message) => {
    const before = await cardCount();
    const { status, body, text } = await call(
      saveCard.action,
      "POST",
      "/api/sample/save-credit-card",
      "olivia",
      card(overrides),
    );
    expect(status).toBe(400);
    expect(body.errors[field]).toMatch(message);
    expect(text).not.toContain("4111 1111 1111 111");
    expect(await cardCount()).toBe(before);
  });

  it.each([
    ["4000 0000 0000 0002", 422, "declined"],
    ["4000 0000 0000 0069", 422, "expired_card"],
    ["4000 0000 0000 0127", 422, "cvn_mismatch"],
    ["4000 0000 0000 0408", 503, "unavailable"],
  ])("gateway refusal %s → %i %s, nothing stored", async (cardNumber, status, code) => {
    const before = await cardCount();
    const result = await call(saveCard.action, "POST", "/api/sample/save-credit-card", "olivia", card({ cardNumber }));
    expect(result.status).toBe(status);
    expect(result.body.code).toBe(code);
    expect(await cardCount()).toBe(before);
  });

  it("malformed and oversized bodies are 400/413/415, never 500", async () => {
    const host = "acme.localhost";
    const send = (body: string, type: string) =>
      saveCard
        .action({
          request: new Request(`http://${host}/api/sample/save-credit-card`, {
            method: "POST",
            headers: { host, cookie: cookies.olivia!, "content-type": type },
            body,
          }),
          params: {},
          context: {},
        })
        .catch((r: Response) => r);
    expect((await send("{not json", "application/json")).status).toBe(400);
    expect((await send("x".repeat(20_000), "application/json")).status).toBe(413);
    expect((await send("<xml/>", "text/xml")).status).toBe(415);
  });

  it("updates expiry and name; refuses another number; another business's id is a 404", async () => {
    const ok = await call(updateCard.action, "PUT", "/api/sample/update-credit-card", "olivia", {
      creditCardId: cardId,
      accountId: ids["ACME-2000"],
      expiryMonth: "03",
      expiryYear: nextYear + 2,
      cardHolderName: "O. Nguyen",
      cvn: "123",
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ expiryMonth: 3, expiryYear: nextYear + 2, cardHolderName: "O. Nguyen" });
    const other = await call(updateCard.action, "PUT", "/api/sample/update-credit-card", "olivia", {
      creditCardId: cardId,
      accountId: ids["ACME-2000"],
      expiryMonth: 3,
      expiryYear: nextYear + 2,
      cardNumber: "5555555555554444",
    });
    expect(other.status).toBe(400);
    const business = await call(updateCard.action, "PUT", "/api/sample/update-credit-card", "olivia", {
      creditCardId: cardId,
      accountId: ids["ACME-2000"],
      businessId: "00000000-0000-0000-0000-000000000000",
      expiryMonth: 3,
      expiryYear: nextYear + 2,
    });
    expect(business.status).toBe(404);
    expect(
      (
        await call(updateCard.action, "PUT", "/api/sample/update-credit-card", "olivia", {
          accountId: ids["ACME-2000"],
          expiryMonth: 3,
          expiryYear: nextYear,
        })
      ).body.message,
    ).toBe("missing credit card ID");
  });

  it("another contact's, business's or account's ids are 404 and change nothing", async () => {
    const path = (accountId: string) => `/api/sample/credit-cards?accountId=${accountId}`;
    expect((await call(creditCards.loader, "GET", path(ids["ACME-2000"]!), "sam")).status).toBe(404); // no portal permission
    expect((await call(creditCards.loader, "GET", path(ids["ACME-2000"]!), "aroha")).status).toBe(404); // another business
    expect((await call(creditCards.loader, "GET", path(ids["KF-500"]!), "liam")).status).toBe(404); // another contact's account
    expect((await call(creditCards.loader, "GET", path("not-a-uuid"), "olivia")).status).toBe(404);
    // The card exists, but not on the account named: not found, and it stays.
    const wrongAccount = await call(
      removeCard.action,
      "DELETE",
      `/api/sample/remove-credit-card?creditCardId=${cardId}&accountId=${ids["ACME-1000"]}`,
      "olivia",
    );
    expect(wrongAccount.status).toBe(404);
    const saveOther = await call(
      saveCard.action,
      "POST",
      "/api/sample/save-credit-card",
      "liam",
      card({ accountId: ids["KF-500"] }),
    );
    expect(saveOther.status).toBe(404);
    const update = await call(updateCard.action, "PUT", "/api/sample/update-credit-card", "aroha", {
      creditCardId: cardId,
      accountId: ids["ACME-2000"],
      expiryMonth: 1,
      expiryYear: nextYear,
    });
    expect(update.status).toBe(404);
    const still = await handle.db
      .selectFrom("cards")
      .select(["removed_at", "expiry_month"])
      .where("id", "=", cardId)
      .executeTakeFirstOrThrow();
    expect(still.removed_at).toBeNull();
    expect(still.expiry_month).toBe(3);
  });

  it("removes a card; a second remove is a 404", async () => {
    const path = `/api/sample/remove-credit-card?creditCardId=${cardId}&accountId=${ids["ACME-2000"]}`;
    expect((await call(removeCard.action, "DELETE", path, "olivia")).status).toBe(200);
    expect((await call(removeCard.action, "DELETE", path, "olivia")).status).toBe(404);
  });
});

describe("bank accounts", () => {
  it("Australia: BSB and 4–9 digits, shown masked; letters refused", async () => {
    const saved = await call(saveBank.action, "POST", "/api/sample/save-bank-account", "olivia", {
      accountId: ids["ACME-2000"],
      accountName: "Coastal Ops",
      accountRouting: "062-000",
      accountNumber: "12345678",
      description: "Main",
      authorityReference: "DDR-1",
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({ country: "AU", accountRouting: "062000", accountNumber: "•••••678" });
    expect(saved.text).not.toContain("12345678");
    for (const [routing, number, field] of [
      ["06A-000", "12345678", "accountRouting"],
      ["062-000", "123", "accountNumber"],
      ["062-000", "1234567890", "accountNumber"],
    ]) {
      const bad = await call(saveBank.action, "POST", "/api/sample/save-bank-account", "olivia", {
        accountId: ids["ACME-1000"],
        accountName: "X",
        accountRouting: routing,
        accountNumber: number,
        authorityReference: "DDR-1",
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toContain(field);
    }
    const list = await call(
      bankAccounts.loader,
      "GET",
      `/api/sample/bank-accounts?accountId=${ids["ACME-2000"]}`,
      "olivia",
    );
    expect(list.body).toHaveLength(1);
    const other = await call(
      removeBank.action,
      "DELETE",
      `/api/sample/remove-bank-account?bankAccountId=${saved.body.bankAccountId}&accountId=${ids["ACME-2000"]}`,
      "aroha",
    );
    expect(other.status).toBe(404);
    const wrongAccount = await call(
      removeBank.action,
      "DELETE",
      `/api/sample/remove-bank-account?bankAccountId=${saved.body.bankAccountId}&accountId=${ids["ACME-1000"]}`,
      "olivia",
    );
    expect(wrongAccount.status).toBe(404);
    const removed = await call(
      removeBank.action,
      "DELETE",
      `/api/sample/remove-bank-account?bankAccountId=${saved.body.bankAccountId}&accountId=${ids["ACME-2000"]}`,
      "olivia",
    );
    expect(removed.status).toBe(200);
  });

  it("New Zealand: bank-branch and account-suffix with the check digit", async () => {
    const body = (accountNumber: string, accountRouting = "01-0242") => ({
      accountId: ids["KF-500"],
      accountName: "Orchard Ops",
      accountRouting,
      accountNumber,
      authorityReference: "DDR-NZ",
    });
    const ok = await call(saveBank.action, "POST", "/api/sample/save-bank-account", "aroha", body("0100194-00"));
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ country: "NZ", accountRouting: "01-0242", accountNumber: "••••194-00" });
    const checksum = await call(saveBank.action, "POST", "/api/sample/save-bank-account", "aroha", body("0100195-00"));
    expect(checksum.status).toBe(400);
    expect(checksum.body.message).toMatch(/not a valid New Zealand account number/);
    expect(
      (await call(saveBank.action, "POST", "/api/sample/save-bank-account", "aroha", body("0100194-00", "99-0242")))
        .body.message,
    ).toMatch(/no New Zealand bank/);
    expect(
      (await call(saveBank.action, "POST", "/api/sample/save-bank-account", "aroha", body("0100194"))).status,
    ).toBe(400);
  });
});

describe("nothing reaches the gateway until every field is valid (defect 1)", () => {
  const tokenCount = async () =>
    Number(
      (
        await handle.db
          .selectFrom("sandbox_gateway_tokens")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const bankCount = async () =>
    Number(
      (
        await handle.db
          .selectFrom("bank_accounts")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it.each([
    ["a NUL in authorityReference", { authorityReference: "CONSENT\u0000-1" }, "authorityReference"],
    ["a tab inside authorityReference", { authorityReference: "CONSENT\t1" }, "authorityReference"],
    ["a NUL in a gatewayExtraData value", { gatewayExtraData: { device: "phone\u0000" } }, "gatewayExtraData"],
    ["a NUL in a gatewayExtraData name", { gatewayExtraData: { "dev\u0000ice": "phone" } }, "gatewayExtraData"],
    ["gatewayExtraData as JSON text with a NUL", { gatewayExtraData: '{"device":"a\\u0000b"}' }, "gatewayExtraData"],
    ["a NUL in gatewayOrigin", { gatewayOrigin: "http://acme.localhost\u0000" }, "gatewayOrigin"],
  ])("save-credit-card with %s → 400 on that field; no card, no gateway token", async (_name, overrides, field) => {
    const [cards, tokens] = [await cardCount(), await tokenCount()];
    const { status, body } = await call(
      saveCard.action,
      "POST",
      "/api/sample/save-credit-card",
      "olivia",
      card(overrides),
    );
    expect(status).toBe(400);
    // A NUL is refused at the edge for the whole request (decision 024); a tab, which the edge
    // lets through for multi-line notes, is refused by the field's own rule (decision 023).
    if (body.errors)
      expect(body.errors[field]).toBe("Remove the control characters (such as a null byte) from this field.");
    else expect(body.message).toMatch(/control characters/);
    expect(await cardCount()).toBe(cards);
    expect(await tokenCount()).toBe(tokens);
  });

  it("a NUL together with a card the gateway would accept still never reaches the gateway", async () => {
    // The control case: the same card, clean, is tokenised and saved.
    const tokens = await tokenCount();
    const bad = await call(
      saveCard.action,
      "POST",
      "/api/sample/save-credit-card",
      "olivia",
      card({ cardNumber: "4242 4242 4242 4242", authorityReference: "\u0000" }),
    );
    expect(bad.status).toBe(400);
    expect(await tokenCount()).toBe(tokens);
    const good = await call(
      saveCard.action,
      "POST",
      "/api/sample/save-credit-card",
      "olivia",
      card({ cardNumber: "4242 4242 4242 4242" }),
    );
    expect(good.status, good.text).toBe(201);
    expect(await tokenCount()).toBe(tokens + 1);
  });

  it.each([
    ["description", { description: "Main\u0000" }],
    ["authorityReference", { authorityReference: "DDR\u0000" }],
  ])("save-bank-account with a NUL in %s → 400 on that field, nothing stored", async (field, overrides) => {
    const before = await bankCount();
    const { status, body } = await call(saveBank.action, "POST", "/api/sample/save-bank-account", "olivia", {
      accountId: ids["ACME-2000"],
      accountName: "Coastal Ops",
      accountRouting: "062-000",
      accountNumber: "12345678",
      description: "Main",
      authorityReference: "DDR-1",
      ...overrides,
    });
    expect(status).toBe(400);
    expect(body.errors?.[field] ?? body.message).toMatch(/control characters/);
    expect(await bankCount()).toBe(before);
  });
});
