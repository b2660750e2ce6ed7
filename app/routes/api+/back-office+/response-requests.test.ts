import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_API_KEYS } from "../../../../db/seed/demo";
import { DEMO_RESPONSE_REFERENCES } from "../../../../db/seed/responses";
import { startSmtpCatcher, type SmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { createApiKey } from "~/services/backoffice/api-keys.server";
import { checkLinkToken } from "~/services/links/link-tokens.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import * as list from "./response-requests";
import * as one from "./response-requests_.$id";
import * as verbs from "./response-requests_.$id_.$verb";

/**
 * The response-request calls of the back-office API (issue 17; decisions 032 and 040), through
 * the routes with real Requests: keys and scopes, create with its email (the link never in an
 * answer), list, read, resend and withdraw, idempotent POSTs, bad bodies answered with a message
 * per field and nothing made, and every id of another business a 404.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

const ACME_KEY = DEMO_API_KEYS["acme.localhost"]!;
const KIWI_KEY = DEMO_API_KEYS["kiwi.localhost"]!;
const LINK_PATH = "/response/";

let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;
let handle: DatabaseHandle;
let acme = "";
const keys: Record<string, string> = {};

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  acme = (
    await handle.db
      .selectFrom("hosts")
      .select("business_id")
      .where("hostname", "=", "acme.localhost")
      .executeTakeFirstOrThrow()
  ).business_id;
  keys.read = (await createApiKey(acme, "responses read", ["responses:read"])).key;
  keys.agreements = (await createApiKey(acme, "agreements only", ["agreements:read", "agreements:write"])).key;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});
beforeEach(() => catcher.clear());

type CallOptions = {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
};

async function call(handler: Handler, method: string, path: string, options: CallOptions = {}) {
  const host = "acme.localhost:3000";
  const headers: Record<string, string> = { host, ...options.headers };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? ACME_KEY}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const request = new Request(`http://${host}${path}`, { method, headers, body });
  let response: Response;
  try {
    response = await handler({ request, params: options.params ?? {}, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null };
}

const create = (body: unknown, options: CallOptions = {}) =>
  call(list.action, "POST", "/api/back-office/response-requests", { body, ...options });
const read = (id: string, options: CallOptions = {}) =>
  call(one.loader, "GET", `/api/back-office/response-requests/${id}`, { params: { id }, ...options });
const verb = (id: string, name: string, options: CallOptions = {}) =>
  call(verbs.action, "POST", `/api/back-office/response-requests/${id}/${name}`, {
    params: { id, verb: name },
    ...options,
  });
const listing = (query: string, options: CallOptions = {}) =>
  call(list.loader, "GET", `/api/back-office/response-requests${query}`, options);

let day = 400;
/** A statement request for a date no other call here uses. */
const statement = (extra: Record<string, unknown> = {}) => ({
  kind: "statement",
  account: "ACME-1000",
  contact: "olivia@coastal.example",
  statement: {
    periodEnd: new Date(Date.now() - day++ * 86_400_000).toISOString().slice(0, 10),
    closingBalanceCents: 4_200,
  },
  ...extra,
});

const count = async () =>
  Number(
    (
      await handle.db
        .selectFrom("response_requests")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("keys and scopes", () => {
  it("needs a key with the scope: 401 without or with a bad one, 403 without the scope", async () => {
    const none = await listing("", { key: null });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="back-office"');
    expect((await listing("", { key: "pk_nope" })).status).toBe(401);
    expect((await listing("", { key: keys.agreements })).status).toBe(403);
    expect((await create(statement(), { key: keys.read })).status).toBe(403);
    expect((await verb(DEMO_RESPONSE_REFERENCES.statement, "withdraw", { key: keys.read })).status).toBe(403);
    const ok = await listing("?status=answered", { key: keys.read });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
  });
});

describe("create, read, list", () => {
  it("creates and emails: 201 with the request, the link only in the email", async () => {
    const made = await create(statement({ message: "Please check the <b>late fee</b>." }));
    expect(made.status, made.text).toBe(201);
    expect(made.body.delivery).toEqual({ email: "olivia@coastal.example", sent: true });
    const request = made.body.request;
    expect(request).toMatchObject({ kind: "statement", state: "open", message: "Please check the <b>late fee</b>." });
    const mail = await catcher.waitForMail("olivia@coastal.example", { subject: new RegExp(request.reference) });
    const link = mail.links.find((l) => l.includes(LINK_PATH))!;
    const token = link.split(LINK_PATH)[1]!;
    expect(made.text).not.toContain(token);
    expect((await checkLinkToken(acme, "response", token)).status).toBe("valid");
    const byReference = await read(request.reference);
    expect(byReference.status).toBe(200);
    expect(byReference.body.request.id).toBe(request.id);
    expect(byReference.text).not.toContain(token);
    const listed = await listing(`?kind=statement&status=open&account=ACME-1000&limit=100`);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toContain(request.id);
  });

  it("is idempotent: the same key and body once; the same key with another body a 422", async () => {
    const before = await count();
    const body = statement();
    const key = randomUUID();
    const first = await create(body, { headers: { "idempotency-key": key } });
    const again = await create(body, { headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.request.id).toBe(first.body.request.id);
    expect(await count()).toBe(before + 1);
    expect(catcher.messages).toHaveLength(1);
    const other = await create(statement(), { headers: { "idempotency-key": key } });
    expect(other.status).toBe(422);
    expect(await count()).toBe(before + 1);
  });

  it("answers bad bodies with a message per field and makes nothing", async () => {
    const before = await count();
    const invoice = await handle.db
      .selectFrom("invoices")
      .select("id")
      .where("number", "=", "ACME-2000-INV-017")
      .executeTakeFirstOrThrow();
    // Another business's account and contact by their ids: the same answer as a guessed id.
    const kiwiAccount = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("number", "=", "KF-500")
      .executeTakeFirstOrThrow();
    const kiwiContact = await handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", "aroha@orchards.example")
      .executeTakeFirstOrThrow();
    const cases: [CallOptions, number, string | null][] = [
      [{ body: statement({ account: kiwiAccount.id }) }, 400, "account"],
      [{ body: statement({ contact: kiwiContact.id }) }, 400, "contact"],
      [{ body: statement({ account: randomUUID() }) }, 400, "account"],
      [{ rawBody: "{not json" }, 400, null],
      [{ rawBody: "[]" }, 400, null],
      [{ rawBody: JSON.stringify(statement()), headers: { "content-type": "text/plain" } }, 415, null],
      [{ rawBody: JSON.stringify({ ...statement(), message: "x".repeat(70 * 1024) }) }, 413, null],
      [{ body: { ...statement(), message: "bell\u0007" } }, 400, null],
      [{ body: {} }, 400, "kind"],
      [{ body: { ...statement(), kind: "delivery-address" } }, 400, "address"],
      [{ body: statement({ message: "m".repeat(1001) }) }, 400, "message"],
      [{ body: statement({ account: "KF-500" }) }, 400, "account"],
      [{ body: statement({ contact: "aroha@orchards.example" }) }, 400, "contact"],
      [{ body: statement({ expiresInDays: 91 }) }, 400, "expiresInDays"],
      [
        {
          body: {
            kind: "dispute",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            dispute: { invoice: invoice.id, resolution: { type: "credit", amountCents: 100 } },
          },
        },
        400,
        "dispute.invoice",
      ],
      [
        {
          body: {
            kind: "delivery-address",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            address: { line1: "1 Main St", locality: "Perth", state: "WA", postcode: "2000", country: "AU" },
          },
        },
        400,
        "address.postcode",
      ],
    ];
    for (const [options, status, field] of cases) {
      const answer = await create(undefined, options);
      expect(answer.status, answer.text).toBe(status);
      expect(answer.body.error.code, answer.text).toBeTruthy();
      if (field) expect(answer.body.error.fields?.[field], answer.text).toBeTruthy();
      if (field === "account") expect(answer.body.error.fields.account).toMatch(/^No account ".*" at this business\.$/);
      if (field === "contact") expect(answer.body.error.fields.contact).toMatch(/^No contact ".*" at this business\.$/);
    }
    expect(await count()).toBe(before);
    expect(catcher.messages).toHaveLength(0);
  });

  it("refuses a second open request for the same invoice with 409", async () => {
    const body = {
      kind: "dispute",
      account: "ACME-1000",
      contact: "olivia@coastal.example",
      dispute: { invoice: "ACME-1000-INV-017", resolution: { type: "position", text: "No." } },
    };
    const refused = await create(body);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(DEMO_RESPONSE_REFERENCES.dispute);
  });

  it("answers a list with bad filters as 400 at the field", async () => {
    for (const [query, field] of [
      ["?status=maybe", "status"],
      ["?kind=poll", "kind"],
      ["?limit=1000", "limit"],
      ["?limit=abc", "limit"],
      ["?cursor=%27%3B--", "cursor"],
    ]) {
      const answer = await listing(query!);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.fields[field!], query).toBeTruthy();
    }
  });
});

describe("resend and withdraw", () => {
  it("resends with a new link and withdraws; an answered request is a 409 for both", async () => {
    const made = (await create(statement())).body.request;
    catcher.clear();
    const resent = await verb(made.id, "resend");
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.request.sendCount).toBe(2);
    expect(catcher.messages).toHaveLength(1);
    const withdrawn = await verb(made.reference, "withdraw");
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.request.state).toBe("withdrawn");
    expect((await verb(made.id, "withdraw")).status).toBe(200);
    expect((await verb(made.id, "resend")).status).toBe(409);
    expect((await verb(DEMO_RESPONSE_REFERENCES.answered, "withdraw")).status).toBe(409);
    expect((await verb(DEMO_RESPONSE_REFERENCES.answered, "resend")).status).toBe(409);
    const unknownVerb = await verb(made.id, "delete");
    expect(unknownVerb.status).toBe(404);
    const withBody = await verb(made.id, "withdraw", { body: { reason: "x" } });
    expect(withBody.status).toBe(400);
    expect(withBody.body.error.fields.reason).toBe("This field is not part of the call.");
  });
});

describe("tenancy", () => {
  it("another business's request is a 404 to read, resend and withdraw, exactly like an unknown one", async () => {
    const made = (await create(statement())).body.request;
    for (const id of [made.id, made.reference, randomUUID(), "RR-NOSUCH01", "'; DROP TABLE x;--"]) {
      const other = await read(id, { key: KIWI_KEY });
      expect(other.status, id).toBe(404);
      expect(other.body).toEqual({
        status: 404,
        message: "No such response request.",
        error: { code: "not_found", message: "No such response request." },
      });
      expect((await verb(id, "withdraw", { key: KIWI_KEY })).status, id).toBe(404);
      expect((await verb(id, "resend", { key: KIWI_KEY })).status, id).toBe(404);
    }
    expect((await read(made.id)).body.request.state).toBe("open");
    const kiwiList = await listing("?limit=100", { key: KIWI_KEY });
    expect(kiwiList.body.items.some((i: { id: string }) => i.id === made.id)).toBe(false);
  });
});
