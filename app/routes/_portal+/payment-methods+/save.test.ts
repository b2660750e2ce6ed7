import type { ActionFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/services/auth/session.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import * as addBank from "./bank-accounts.new";
import * as addCard from "./cards.new";

/**
 * The add-card and add-bank-account pages' actions, called with real form POSTs: every
 * field is checked before the card reaches the gateway, and a token the gateway made for a
 * card the portal could not record is removed from the gateway's vault again (defect 1).
 */
let handle: DatabaseHandle;
let cookie: string;
const HOST = "acme.localhost";
const nextYear = String(new Date().getUTCFullYear() + 1);

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  const contact = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", "olivia@coastal.example")
    .executeTakeFirstOrThrow();
  const request = new Request(`http://${HOST}/`, { headers: { host: HOST } });
  cookie = (
    await createSession(request, { businessId: contact.business_id, contactId: contact.id, authMethod: "credentials" })
  ).split(";")[0]!;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

type PageAction = (args: ActionFunctionArgs) => Promise<unknown>;
type Answer = {
  status: number;
  location: string | null;
  error: Record<string, string[] | null | undefined>;
  refusedAtEdge?: boolean;
};

/** What an action answered: a redirect, or data with its status and conform's field errors. */
async function post(action: PageAction, path: string, fields: Record<string, string>): Promise<Answer> {
  const request = new Request(`http://${HOST}${path}`, {
    method: "POST",
    headers: {
      host: HOST,
      cookie,
      origin: `http://${HOST}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields).toString(),
  });
  let answer:
    Response | { data: { result: { error?: Record<string, string[] | null> } }; init: { status?: number } | null };
  try {
    answer = (await action({ request, params: {}, context: {} })) as typeof answer;
  } catch (thrown) {
    // Refused before the form is parsed (a control character anywhere: decision 024).
    if (thrown instanceof Response) return { status: thrown.status, location: null, error: {}, refusedAtEdge: true };
    throw thrown;
  }
  if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("location"), error: {} };
  return { status: answer.init?.status ?? 200, location: null, error: answer.data.result.error ?? {} };
}

const count = async (table: "cards" | "bank_accounts" | "sandbox_gateway_tokens") =>
  Number(
    (
      await handle.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const cardForm = (overrides: Record<string, string> = {}) => ({
  cardNumber: "4111 1111 1111 1111",
  cardHolderName: "Olivia Nguyen",
  expiryMonth: "12",
  expiryYear: nextYear,
  cvn: "123",
  authority: "on",
  ...overrides,
});

describe("add a card (page)", () => {
  it.each([
    ["a NUL in the name", { cardHolderName: "Olivia\u0000Nguyen" }, null],
    ["a NUL in the month", { expiryMonth: "1\u0000" }, null],
    ["a tab in the name", { cardHolderName: "Olivia\tNguyen" }, "cardHolderName"],
    ["no consent", { authority: "" }, "authority"],
  ])("%s → 400; the gateway never saw the card", async (_name, overrides, field) => {
    const [cards, tokens] = [await count("cards"), await count("sandbox_gateway_tokens")];
    const fields = cardForm(overrides);
    if (fields.authority === "") delete (fields as Partial<typeof fields>).authority;
    const answer = await post(addCard.action, "/payment-methods/cards/new", fields);
    expect(answer.status).toBe(400);
    // null: the edge refuses the whole form (a NUL is never text); else the field's own rule.
    if (field === null) expect(answer.refusedAtEdge).toBe(true);
    else expect(answer.error[field]?.[0]).toMatch(/^pm\.error\./);
    expect(await count("cards")).toBe(cards);
    expect(await count("sandbox_gateway_tokens")).toBe(tokens);
  });

  it("saves a good card: one card, one gateway token", async () => {
    const [cards, tokens] = [await count("cards"), await count("sandbox_gateway_tokens")];
    const answer = await post(addCard.action, "/payment-methods/cards/new", cardForm());
    expect(answer).toMatchObject({ status: 302, location: "/payment-methods?notice=card-added" });
    expect(await count("cards")).toBe(cards + 1);
    expect(await count("sandbox_gateway_tokens")).toBe(tokens + 1);
  });

  it("when the database refuses the card after the gateway tokenised it, the token is removed again", async () => {
    // A real failure of the write, from the database itself, for this one holder name.
    await sql`CREATE FUNCTION test_refuse_card() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$`.execute(handle.db);
    await sql`CREATE TRIGGER test_refuse_card BEFORE INSERT ON cards FOR EACH ROW
      WHEN (NEW.holder_name = 'Refused Write') EXECUTE FUNCTION test_refuse_card()`.execute(handle.db);
    try {
      const [cards, tokens] = [await count("cards"), await count("sandbox_gateway_tokens")];
      await expect(
        post(addCard.action, "/payment-methods/cards/new", cardForm({ cardHolderName: "Refused Write" })),
      ).rejects.toThrow(/refused by the test/);
      expect(await count("cards")).toBe(cards);
      expect(await count("sandbox_gateway_tokens")).toBe(tokens);
    } finally {
      await sql`DROP TRIGGER test_refuse_card ON cards`.execute(handle.db);
      await sql`DROP FUNCTION test_refuse_card()`.execute(handle.db);
    }
  });
});

describe("add a bank account (page)", () => {
  it("a NUL in the description → 400 before the form is read, nothing stored", async () => {
    const before = await count("bank_accounts");
    const answer = await post(addBank.action, "/payment-methods/bank-accounts/new", {
      accountName: "Coastal Ops",
      bsb: "062-000",
      accountNumber: "12345678",
      description: "Main\u0000",
      authority: "on",
    });
    expect(answer.status).toBe(400);
    expect(answer.refusedAtEdge).toBe(true);
    expect(await count("bank_accounts")).toBe(before);
  });
});
