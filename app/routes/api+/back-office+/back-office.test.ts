import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_API_KEYS } from "../../../../db/seed/demo";
import { startSmtpCatcher, type SmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import { createApiKey, revokeApiKey } from "~/services/backoffice/api-keys.server";
import { checkLinkToken } from "~/services/links/link-tokens.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import * as adhocLinks from "./adhoc-links";
import * as adhocRevoke from "./adhoc-links_.revoke";
import * as catchAll from "./$";
import * as requests from "./payment-requests";
import * as oneRequest from "./payment-requests_.$id";
import * as verbs from "./payment-requests_.$id_.$verb";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

const ACME_KEY = DEMO_API_KEYS["acme.localhost"]!;
const KIWI_KEY = DEMO_API_KEYS["kiwi.localhost"]!;
const HARBOUR_KEY = DEMO_API_KEYS["harbour.localhost"]!;

let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;
beforeAll(async () => {
  catcher = await startSmtpCatcher();
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});
afterAll(async () => {
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});

type CallOptions = {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  host?: string;
};

async function call(handler: Handler, method: string, path: string, options: CallOptions = {}) {
  const host = options.host ?? "acme.localhost:3000";
  const headers: Record<string, string> = { host, ...options.headers };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? ACME_KEY}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
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
  call(requests.action, "POST", "/api/back-office/payment-requests", { body, ...options });
const verb = (id: string, name: string, options: CallOptions = {}) =>
  call(verbs.action, "POST", `/api/back-office/payment-requests/${id}/${name}`, {
    params: { id, verb: name },
    ...options,
  });
const tokenIn = (links: string[], path = "/customer/payment-request/") =>
  links.find((l) => l.includes(path))?.split(path)[1] ?? null;

const amountRequest = (overrides: Record<string, unknown> = {}) => ({
  account: "ACME-2000",
  amountCents: 250_00,
  description: "Deposit for order Q-77",
  recipients: ["olivia@coastal.example"],
  ...overrides,
});

describe("the back-office API on PGlite", () => {
  let handle: DatabaseHandle;
  let acme: string;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    handle = await openSeededPglite();
    setDatabaseForTesting(handle);
    acme = (
      await handle.db
        .selectFrom("hosts")
        .select("business_id")
        .where("hostname", "=", "acme.localhost")
        .executeTakeFirstOrThrow()
    ).business_id;
    keys.read = (await createApiKey(acme, "read only", ["payment-requests:read"])).key;
    keys.write = (await createApiKey(acme, "write only", ["payment-requests:write"])).key;
    keys.adhoc = (await createApiKey(acme, "ad hoc only", ["adhoc:write"])).key;
    const revoked = await createApiKey(acme, "revoked", ["payment-requests:read", "payment-requests:write"]);
    expect(await revokeApiKey(acme, revoked.id)).toBe(true);
    keys.revoked = revoked.key;
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await handle.close();
  });
  beforeEach(() => catcher.clear());

  const requestCount = async () =>
    Number(
      (
        await handle.db
          .selectFrom("payment_requests")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe("keys and scopes", () => {
    it.each([
      ["no key", { key: null }, 'Bearer realm="back-office"'],
      ["a malformed key", { key: "pk_short" }, 'Bearer realm="back-office", error="invalid_token"'],
      ["an unknown key", { key: `pk_${"A".repeat(43)}` }, 'Bearer realm="back-office", error="invalid_token"'],
      ["a revoked key", { key: "revoked" }, 'Bearer realm="back-office", error="invalid_token"'],
      ["Basic credentials", { headers: { authorization: "Basic dXNlcjpwYXNz" }, key: null }, null],
    ])("answers 401 with WWW-Authenticate for %s", async (_label, options, challenge) => {
      const key = options.key === "revoked" ? keys.revoked : options.key;
      const response = await call(requests.loader, "GET", "/api/back-office/payment-requests", { ...options, key });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe("unauthorized");
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="back-office"/);
      if (challenge) expect(response.headers.get("www-authenticate")).toBe(challenge);
    });

    it("answers 403 for a key without the scope, and changes nothing", async () => {
      const before = await requestCount();
      expect(
        (await call(requests.loader, "GET", "/api/back-office/payment-requests", { key: keys.write })).status,
      ).toBe(403);
      const refused = await create(amountRequest(), { key: keys.read });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({
        code: "forbidden",
        message: "This API key does not have the payment-requests:write scope.",
      });
      expect((await create(amountRequest(), { key: keys.adhoc })).status).toBe(403);
      expect(
        (await call(adhocLinks.action, "POST", "/api/back-office/adhoc-links", { key: keys.read, body: {} })).status,
      ).toBe(403);
      expect(await requestCount()).toBe(before);
    });

    it("lets the key, not the Host, decide the business", async () => {
      const asKiwiHost = await call(requests.loader, "GET", "/api/back-office/payment-requests", {
        host: "kiwi.localhost:3000",
      });
      expect(asKiwiHost.status).toBe(200);
      expect(asKiwiHost.body.items.some((item: { reference: string }) => item.reference === "PR-DEMO0001")).toBe(true);
      const unknownHost = await call(requests.loader, "GET", "/api/back-office/payment-requests", {
        host: "nowhere.example",
      });
      expect(unknownHost.status).toBe(200);
    });

    it("records when a key was last used", async () => {
      const made = await createApiKey(acme, "fresh", ["payment-requests:read"]);
      await call(requests.loader, "GET", "/api/back-office/payment-requests?limit=1", { key: made.key });
      const row = await handle.db
        .selectFrom("api_keys")
        .select("last_used_at")
        .where("id", "=", made.id)
        .executeTakeFirstOrThrow();
      expect(row.last_used_at).not.toBeNull();
      const stored = await handle.db
        .selectFrom("api_keys")
        .select(["key_hash", "key_prefix"])
        .where("id", "=", made.id)
        .executeTakeFirstOrThrow();
      expect(stored.key_hash).not.toContain(made.key.slice(3));
      expect(made.key.startsWith(stored.key_prefix)).toBe(true);
      expect(made.key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    });
  });

  describe("listing and reading", () => {
    it("lists the seeded requests with their states, filtered and paged", async () => {
      const all = await call(requests.loader, "GET", "/api/back-office/payment-requests?limit=100");
      expect(all.status).toBe(200);
      const states = new Set(all.body.items.map((item: { state: string }) => item.state));
      for (const state of ["created", "sent", "opened", "part-paid", "paid", "expired", "cancelled"]) {
        expect(states.has(state), state).toBe(true);
        const filtered = await call(requests.loader, "GET", `/api/back-office/payment-requests?state=${state}`);
        expect(filtered.body.items.every((item: { state: string }) => item.state === state)).toBe(true);
      }
      const first = await call(requests.loader, "GET", "/api/back-office/payment-requests?limit=2");
      expect(first.body.items).toHaveLength(2);
      const second = await call(
        requests.loader,
        "GET",
        `/api/back-office/payment-requests?limit=2&cursor=${first.body.nextCursor}`,
      );
      expect(second.body.items[0].id).toBe(all.body.items[2].id);
      const byAccount = await call(requests.loader, "GET", "/api/back-office/payment-requests?account=ACME-1001");
      expect(byAccount.body.items.map((item: { reference: string }) => item.reference)).toEqual(["PR-DEMO0005"]);
      expect(all.text).not.toMatch(/token|hash|selector|verifier/i);
    });

    it.each([
      ["state=lost", "state"],
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["limit=1000", "limit"],
      ["cursor=%27%20OR%201%3D1", "cursor"],
      ["account=KF-500", "account"],
    ])("answers 400 for ?%s with a message on that field", async (query, field) => {
      const response = await call(requests.loader, "GET", `/api/back-office/payment-requests?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("validation");
      expect(response.body.error.fields).toHaveProperty(field);
    });

    it("reads one request by id or reference; another business's key gets 404", async () => {
      const byReference = await call(oneRequest.loader, "GET", "/api/back-office/payment-requests/PR-DEMO0001", {
        params: { id: "PR-DEMO0001" },
      });
      expect(byReference.status).toBe(200);
      const id = byReference.body.request.id;
      expect(byReference.body.request).toMatchObject({ reference: "PR-DEMO0001", state: "sent", kind: "invoices" });
      expect(byReference.text).not.toMatch(/token|hash|selector|verifier/i);
      const byId = await call(oneRequest.loader, "GET", `/api/back-office/payment-requests/${id}`, { params: { id } });
      expect(byId.body.request.reference).toBe("PR-DEMO0001");
      for (const key of [KIWI_KEY, HARBOUR_KEY]) {
        const other = await call(oneRequest.loader, "GET", `/api/back-office/payment-requests/${id}`, {
          params: { id },
          key,
        });
        expect(other.status).toBe(404);
        expect(other.body.error.code).toBe("not_found");
      }
      for (const bad of ["nope", "' OR 1=1 --", "<script>", "00000000-0000-0000-0000-000000000000"]) {
        const response = await call(oneRequest.loader, "GET", "/api/back-office/payment-requests/x", {
          params: { id: bad },
        });
        expect(response.status).toBe(404);
      }
      expect(
        (await call(oneRequest.action, "POST", "/api/back-office/payment-requests/x", { params: { id } })).status,
      ).toBe(405);
    });
  });

  describe("creating and sending", () => {
    it("creates without sending, then sends: a branded email with HTML and text parts and the link", async () => {
      const created = await create({
        account: "ACME-1000",
        invoices: ["ACME-1000-INV-023", "ACME-1000-INV-024"],
        recipients: ["olivia@coastal.example"],
        allowPartPayment: true,
        minPartPaymentCents: 50_00,
      });
      expect(created.status).toBe(201);
      const request = created.body.request;
      expect(request.state).toBe("created");
      expect(catcher.messages).toEqual([]);

      const sent = await verb(request.id, "send", { key: keys.write });
      expect(sent.status).toBe(200);
      expect(sent.body.request.state).toBe("sent");
      expect(sent.body.deliveries).toEqual([{ email: "olivia@coastal.example", sent: true }]);
      const mail = await catcher.waitForMail("olivia@coastal.example");
      const token = tokenIn(mail.links)!;
      expect(sent.text).not.toContain(token);
      expect(mail.from).toContain('"Acme Plumbing Supplies"');
      expect(mail.subject).toContain(request.reference);
      const amount = new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" }).format(
        request.amountCents / 100,
      );
      for (const part of [mail.text, mail.html!]) {
        expect(part).toContain(amount);
        expect(part).toContain("ACME-1000-INV-023");
        expect(part).toContain("accounts@acme.example");
        expect(part).toContain("1300 226 300");
      }
      expect(mail.text).toContain(`http://acme.localhost:3000/customer/payment-request/${token}`);
      const html = mail.html!;
      expect(html).toMatch(/<html[^>]*lang="en"/);
      expect(html).toContain('role="presentation"');
      expect(html).toContain("Pay now");
      expect(html).toContain('src="http://acme.localhost:3000/brands/acme/email-logo.png"');
      expect(html).toContain('alt=""');
      // navy-blue's button colour, with its white text.
      expect(html).toMatch(/background-color:#1a237e[^"]*color:#ffffff/);
      expect(html).toContain("Acme Plumbing Supplies");
      expect(html).not.toMatch(/<script/i);
      expect((await checkLinkToken(acme, "payment-request", token)).status).toBe("valid");
    });

    it("creates and sends at once with send: true", async () => {
      const response = await create(amountRequest({ send: true, recipients: ["olivia@coastal.example"] }), {
        key: ACME_KEY,
      });
      expect(response.status).toBe(201);
      expect(response.body.request.state).toBe("sent");
      expect(response.body.deliveries).toEqual([{ email: "olivia@coastal.example", sent: true }]);
      const mail = await catcher.waitForMail("olivia@coastal.example");
      expect(mail.text).toContain("Deposit for order Q-77");
    });

    it("resends (the old link is revoked) and cancels (every link is revoked), by reference too", async () => {
      const made = await create(
        amountRequest({
          account: "ACME-1000",
          send: true,
          recipients: ["olivia@coastal.example", "new@coastal.example"],
        }),
      );
      expect(made.status).toBe(201);
      const first = await catcher.waitForMail("olivia@coastal.example");
      const oldToken = tokenIn(first.links)!;
      catcher.clear();
      const resent = await verb(made.body.request.reference, "resend");
      expect(resent.status).toBe(200);
      expect(resent.body.request.recipients.map((r: { sendCount: number }) => r.sendCount)).toEqual([2, 2]);
      const second = await catcher.waitForMail("olivia@coastal.example");
      const newToken = tokenIn(second.links)!;
      expect((await checkLinkToken(acme, "payment-request", oldToken)).status).toBe("revoked");
      expect((await checkLinkToken(acme, "payment-request", newToken)).status).toBe("valid");
      expect((await verb(made.body.request.id, "send")).status).toBe(409);

      const cancelled = await verb(made.body.request.id, "cancel");
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.request.state).toBe("cancelled");
      expect((await checkLinkToken(acme, "payment-request", newToken)).status).toBe("revoked");
      expect((await verb(made.body.request.id, "cancel")).status).toBe(200);
      const resendCancelled = await verb(made.body.request.id, "resend");
      expect(resendCancelled.status).toBe(409);
      expect(resendCancelled.body.error).toEqual({
        code: "conflict",
        message: "The request is cancelled: it can no longer be sent.",
      });
    });

    it("answers 409 for a paid request's cancel and an expired request's resend", async () => {
      expect((await verb("PR-DEMO0004", "cancel")).body.error.code).toBe("conflict");
      expect((await verb("PR-DEMO0005", "resend")).status).toBe(409);
    });

    it("takes a bare POST with no body and no Content-Type for send, resend and cancel", async () => {
      const made = await create(amountRequest());
      const request = new Request(
        `http://acme.localhost:3000/api/back-office/payment-requests/${made.body.request.id}/cancel`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${ACME_KEY}` },
        },
      );
      const response = await verbs.action({
        request,
        params: { id: made.body.request.id, verb: "cancel" },
        context: {},
      });
      expect(response.status).toBe(200);
      const withForm = await verb(made.body.request.id, "cancel", {
        rawBody: "x=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(withForm.status).toBe(415);
    });

    it("answers 404 to another business's key for this business's request, and changes nothing", async () => {
      const id = (await create(amountRequest())).body.request.id;
      for (const name of ["send", "resend", "cancel"]) {
        const response = await verb(id, name, { key: KIWI_KEY });
        expect(response.status, name).toBe(404);
      }
      expect((await verb(id, "refund")).status).toBe(404);
      const still = await call(oneRequest.loader, "GET", `/x/${id}`, { params: { id } });
      expect(still.body.request.state).toBe("created");
      expect(catcher.messages).toEqual([]);
    });
  });

  describe("bad input never changes anything nor answers 500", () => {
    it.each([
      [
        "malformed JSON",
        { rawBody: '{"account": "ACME-1000",', headers: { "content-type": "application/json" } },
        400,
        "invalid_json",
      ],
      ["a JSON array", { rawBody: "[1,2]", headers: { "content-type": "application/json" } }, 400, "invalid_json"],
      [
        "a form body",
        { rawBody: "account=ACME-1000", headers: { "content-type": "application/x-www-form-urlencoded" } },
        415,
        "unsupported_media_type",
      ],
      ["no content type", { rawBody: "{}" }, 415, "unsupported_media_type"],
      ["a body over 64 KB", { body: amountRequest({ description: "x".repeat(70_000) }) }, 413, "payload_too_large"],
      ["a NUL in a value", { body: amountRequest({ description: "a\u0000b" }) }, 400, "validation"],
      [
        "bytes that are not UTF-8",
        { rawBody: "\xff", headers: { "content-type": "application/json" } },
        400,
        "invalid_json",
      ],
      ["another business's account", { body: amountRequest({ account: "KF-500" }) }, 400, "validation"],
      [
        "a contact of another account",
        { body: amountRequest({ recipients: ["sam@coastal.example"] }) },
        400,
        "validation",
      ],
      [
        "HTML in place of an account",
        { body: amountRequest({ account: "<img src=x onerror=alert(1)>" }) },
        400,
        "validation",
      ],
      ["a number in place of a list", { body: amountRequest({ recipients: 7 }) }, 400, "validation"],
      ["send as text", { body: amountRequest({ send: "yes" }) }, 400, "validation"],
      [
        "a deeply nested value",
        { body: amountRequest({ description: JSON.parse("[".repeat(200) + "]".repeat(200)) }) },
        400,
        "validation",
      ],
    ] as [string, CallOptions, number, string][])(
      "%s: refused with the right status and code",
      async (_label, options, status, code) => {
        const before = await requestCount();
        const response = await create(undefined, options);
        expect(response.status).toBe(status);
        expect(response.body.error.code).toBe(code);
        expect(response.body.error.message).toMatch(/\w/);
        expect(response.text).not.toMatch(/at .*\.ts:\d+|stack/i);
        expect(await requestCount()).toBe(before);
      },
    );

    it("answers validation errors per field", async () => {
      const response = await create({
        account: "ACME-1000",
        invoices: ["ACME-1000-INV-001", "NOPE-1"],
        recipients: ["olivia@coastal.example", "mallory@evil.example"],
      });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.error.fields).sort()).toEqual(["invoices.0", "invoices.1"]);
      const recipients = await create(
        amountRequest({ recipients: ["olivia@coastal.example", "mallory@evil.example"] }),
      );
      expect(recipients.body.error.fields).toEqual({
        "recipients.1": '"mallory@evil.example" is not a contact of account ACME-2000.',
      });
    });

    it("refuses other methods with 405 and unknown back-office paths with 404", async () => {
      expect((await call(requests.action, "PUT", "/api/back-office/payment-requests", { body: {} })).status).toBe(405);
      // Remix hands OPTIONS (a CORS preflight) to the loader: no CORS headers, so a browser page elsewhere gets nothing.
      const preflight = await call(requests.loader, "OPTIONS", "/api/back-office/payment-requests", {
        key: null,
        headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
      });
      expect(preflight.status).toBe(405);
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
      expect((await call(adhocLinks.loader, "GET", "/api/back-office/adhoc-links")).status).toBe(405);
      const unknown = await call(catchAll.loader, "GET", "/api/back-office/refunds");
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe("not_found");
    });

    it("takes a server's call whatever Origin it sends: the key is the credential, not a cookie", async () => {
      const response = await create(amountRequest(), {
        headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site" },
      });
      expect(response.status).toBe(201);
      const withoutKey = await create(amountRequest(), { key: null, headers: { origin: "http://evil.example" } });
      expect(withoutKey.status).toBe(401);
    });
  });

  describe("Idempotency-Key", () => {
    it("replays the first answer for a repeat and creates one request", async () => {
      const before = await requestCount();
      const headers = { "idempotency-key": "order-7781-create" };
      const first = await create(amountRequest(), { headers });
      const again = await create(amountRequest(), { headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      expect(await requestCount()).toBe(before + 1);
    });

    it("answers 422 for the same key with another body or path", async () => {
      const headers = { "idempotency-key": "order-7782" };
      expect((await create(amountRequest(), { headers })).status).toBe(201);
      const otherBody = await create(amountRequest({ amountCents: 999 }), { headers });
      expect(otherBody.status).toBe(422);
      expect(otherBody.body.error.code).toBe("idempotency_mismatch");
      const otherPath = await call(adhocLinks.action, "POST", "/api/back-office/adhoc-links", {
        headers,
        body: amountRequest(),
      });
      expect(otherPath.status).toBe(422);
    });

    it("keeps no answer for a refused request: fixed, the same key works", async () => {
      const headers = { "idempotency-key": "order-7783" };
      expect((await create(amountRequest({ account: "NOPE" }), { headers })).status).toBe(400);
      expect((await create(amountRequest(), { headers })).status).toBe(201);
    });

    it("answers 409 while the first is in flight, and takes over a claim abandoned before it did anything", async () => {
      const rawBody = JSON.stringify(amountRequest());
      const claim = (key: string, age: string) =>
        handle.db
          .insertInto("api_idempotency_keys")
          .values({
            business_id: acme,
            idempotency_key: key,
            request_hash: "0".repeat(64),
            created_at: new Date(Date.now() - (age === "old" ? 120_000 : 0)),
          })
          .execute();
      // The hash must be the real one for the key to be "the same request".
      const { createHash } = await import("node:crypto");
      const hash = createHash("sha256").update(`POST\n/api/back-office/payment-requests\n${rawBody}`).digest("hex");
      await claim("in-flight", "new");
      await claim("abandoned", "old");
      await handle.db
        .updateTable("api_idempotency_keys")
        .set({ request_hash: hash })
        .where("idempotency_key", "in", ["in-flight", "abandoned"])
        .execute();
      const busy = await create(undefined, {
        rawBody,
        headers: { "content-type": "application/json", "idempotency-key": "in-flight" },
      });
      expect(busy.status).toBe(409);
      expect(busy.body.error.code).toBe("idempotency_in_flight");
      const takenOver = await create(undefined, {
        rawBody,
        headers: { "content-type": "application/json", "idempotency-key": "abandoned" },
      });
      expect(takenOver.status).toBe(201);
    });

    it("refuses a key that is too long or not plain ASCII", async () => {
      for (const key of ["k".repeat(256), "two words"]) {
        const response = await create(amountRequest(), { headers: { "idempotency-key": key } });
        expect(response.status).toBe(400);
        expect(response.body.error.fields).toHaveProperty("Idempotency-Key");
      }
    });

    it("replays a resend instead of revoking the links again", async () => {
      const made = await create(amountRequest({ send: true }));
      catcher.clear();
      const headers = { "idempotency-key": `resend-${made.body.request.id}` };
      const first = await verb(made.body.request.id, "resend", { headers });
      const again = await verb(made.body.request.id, "resend", { headers });
      expect(again.body).toEqual(first.body);
      expect(catcher.messages).toHaveLength(1);
    });
  });

  describe("ad-hoc links", () => {
    const adhoc = (body: unknown, key = ACME_KEY) =>
      call(adhocLinks.action, "POST", "/api/back-office/adhoc-links", { body, key });

    it("emails a contact a link to pay any amount; the answer carries no token", async () => {
      const response = await adhoc({ account: "ACME-1000", contact: "olivia@coastal.example" }, keys.adhoc);
      expect(response.status).toBe(201);
      const account = await handle.db
        .selectFrom("accounts")
        .select("id")
        .where("number", "=", "ACME-1000")
        .executeTakeFirstOrThrow();
      expect(response.body).toMatchObject({
        accountId: account.id,
        contact: { email: "olivia@coastal.example" },
        delivery: { email: "olivia@coastal.example", sent: true },
      });
      const days = (new Date(response.body.expiresAt).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
      const mail = await catcher.waitForMail("olivia@coastal.example");
      expect(mail.subject).toBe("Pay Acme Plumbing Supplies any amount");
      expect(mail.text).toContain("$10.00 to $5,000.00");
      const token = tokenIn(mail.links, "/customer/adhoc/")!;
      expect(response.text).not.toContain(token);
      const check = await checkLinkToken(acme, "adhoc", token);
      expect(check.status === "valid" && check.link.subjectId).toBe(account.id);
      expect((await checkLinkToken(acme, "payment-request", token)).status).toBe("unknown");
    });

    it("a new link revokes the contact's earlier ones for that account; revoke withdraws them all, again changes nothing", async () => {
      const revoke = (body: unknown, options: CallOptions = {}) =>
        call(adhocRevoke.action, "POST", "/api/back-office/adhoc-links/revoke", { body, key: keys.adhoc, ...options });
      const send = async () => {
        const response = await adhoc({ account: "ACME-1000", contact: "olivia@coastal.example" }, keys.adhoc);
        expect(response.status).toBe(201);
        const mail = await catcher.waitForMail("olivia@coastal.example");
        catcher.clear();
        return { response, token: tokenIn(mail.links, "/customer/adhoc/")! };
      };
      const first = await send();
      const second = await send();
      expect(second.response.body.replaced).toBeGreaterThanOrEqual(1);
      expect((await checkLinkToken(acme, "adhoc", first.token)).status).toBe("revoked");
      expect((await checkLinkToken(acme, "adhoc", second.token)).status).toBe("valid");
      // Another contact's link for the same account is theirs: untouched.
      const sameAccount = await handle.db
        .selectFrom("contacts")
        .innerJoin("account_contacts as ac", "ac.contact_id", "contacts.id")
        .innerJoin("accounts", "accounts.id", "ac.account_id")
        .select("contacts.email")
        .where("accounts.number", "=", "ACME-1000")
        .where("contacts.email", "!=", "olivia@coastal.example")
        .where("contacts.disabled_at", "is", null)
        .executeTakeFirstOrThrow();
      expect((await adhoc({ account: "ACME-1000", contact: sameAccount.email }, keys.adhoc)).status).toBe(201);
      const theirs = tokenIn((await catcher.waitForMail(sameAccount.email)).links, "/customer/adhoc/")!;

      const revoked = await revoke({ account: "ACME-1000", contact: "OLIVIA@coastal.example" });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ contact: { email: "olivia@coastal.example" }, revoked: 1 });
      expect((await checkLinkToken(acme, "adhoc", second.token)).status).toBe("revoked");
      expect((await checkLinkToken(acme, "adhoc", theirs)).status).toBe("valid");
      // Idempotent, with or without an Idempotency-Key.
      expect((await revoke({ account: "ACME-1000", contact: "olivia@coastal.example" })).body.revoked).toBe(0);
      const headers = { "idempotency-key": `revoke-${Date.now()}` };
      const keyed = await revoke({ account: "ACME-1000", contact: "olivia@coastal.example" }, { headers });
      const replay = await revoke({ account: "ACME-1000", contact: "olivia@coastal.example" }, { headers });
      expect([keyed.status, replay.status, replay.headers.get("idempotent-replayed")]).toEqual([200, 200, "true"]);

      // The scope, another business's account or contact, unknown fields, a GET.
      expect(
        (await revoke({ account: "ACME-1000", contact: "olivia@coastal.example" }, { key: keys.write })).status,
      ).toBe(403);
      expect((await revoke({ account: "KF-500", contact: "olivia@coastal.example" })).body.error.fields).toHaveProperty(
        "account",
      );
      expect(
        (await revoke({ account: "ACME-1000", contact: "aroha@orchards.example" })).body.error.fields,
      ).toHaveProperty("contact");
      expect(
        (await revoke({ account: "ACME-1000", contact: "olivia@coastal.example", all: true })).body.error.fields,
      ).toHaveProperty("all");
      expect((await revoke({ account: "<script>", contact: "' OR 1=1 --" })).status).toBe(400);
      expect((await call(adhocRevoke.loader, "GET", "/api/back-office/adhoc-links/revoke")).status).toBe(405);
      expect((await checkLinkToken(acme, "adhoc", theirs)).status).toBe("valid");
    });

    it("answers 409 where the business does not take ad-hoc payments", async () => {
      for (const [key, account, contact] of [
        [HARBOUR_KEY, "HE-9000", "mia@harbour.example"],
        [KIWI_KEY, "KF-500", "aroha@orchards.example"],
      ] as const) {
        const response = await adhoc({ account, contact }, key);
        expect(response.status).toBe(409);
        expect(response.body.error.message).toMatch(/not switched on/);
      }
    });

    it("refuses a contact of another account, another business's account and unknown fields", async () => {
      expect((await adhoc({ account: "ACME-1000", contact: "sam@coastal.example" })).body.error.fields).toHaveProperty(
        "contact.0",
      );
      expect((await adhoc({ account: "KF-500", contact: "aroha@orchards.example" })).body.error.fields).toHaveProperty(
        "account",
      );
      expect(
        (await adhoc({ account: "ACME-1000", contact: "olivia@coastal.example", token: "x" })).body.error.fields,
      ).toHaveProperty("token");
      expect((await adhoc({ account: "ACME-1000", contact: "olivia@coastal.example", expiresInDays: 91 })).status).toBe(
        400,
      );
      expect(catcher.messages).toEqual([]);
    });
  });
});

// Real concurrency: fifty identical POSTs at once, over a pool of connections.
describe.skipIf(!TEST_DATABASE_URL)("the back-office API on PostgreSQL (TEST_DATABASE_URL)", () => {
  let close: () => Promise<void>;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    const database = await createSeededPostgresDatabase();
    handle = database.handle;
    close = database.drop;
    setDatabaseForTesting(handle);
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  it("creates exactly one request from 50 concurrent identical POSTs with one Idempotency-Key", async () => {
    const body = amountRequest({ description: "Concurrent create", send: true });
    const headers = { "idempotency-key": "concurrent-create-1" };
    const answers = await Promise.all(Array.from({ length: 50 }, () => create(body, { headers })));
    const created = await handle.db
      .selectFrom("payment_requests")
      .select("id")
      .where("description", "=", "Concurrent create")
      .execute();
    expect(created).toHaveLength(1);
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(","),
    ).toBe(true);
    const ok = answers.filter((a) => a.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const answer of ok) expect(answer.body.request.id).toBe(created[0]!.id);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === "idempotency_in_flight")).toBe(
      true,
    );
    // One email, one live link: the request was sent once.
    const links = await handle.db
      .selectFrom("link_tokens")
      .select("id")
      .where("subject_id", "=", created[0]!.id)
      .execute();
    expect(links).toHaveLength(1);
    const replay = await create(body, { headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });
});
