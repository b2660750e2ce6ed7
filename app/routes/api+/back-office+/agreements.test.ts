import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_ACCEPTED_AGREEMENT_REFERENCE } from "../../../../db/seed/agreements";
import { DEMO_API_KEYS } from "../../../../db/seed/demo";
import { startSmtpCatcher, type SmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { AGREEMENT_API_BODY_BYTES, AGREEMENT_TEXT_MAX } from "~/lib/agreements";
import { createApiKey } from "~/services/backoffice/api-keys.server";
import { checkLinkToken } from "~/services/links/link-tokens.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import { maxBodyBytesFor, edgeRefusal } from "../../../../scripts/edge.js";
import * as documents from "./agreements";
import * as oneDocument from "./agreements_.$id";
import * as versions from "./agreements_.$id_.versions";
import * as offers from "./agreement-offers";
import * as oneOffer from "./agreement-offers_.$id";
import * as offerVerbs from "./agreement-offers_.$id_.$verb";

/**
 * The agreements part of the back-office API (issue 15; decisions 032 and 036), through the
 * routes' loaders and actions with real Requests: keys and scopes, documents and versions, offers
 * emailed with a link (never in an answer), resend and withdraw, idempotent POSTs, the larger
 * body limit of the calls that publish a text, and every id of another business a 404.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

const ACME_KEY = DEMO_API_KEYS["acme.localhost"]!;
const KIWI_KEY = DEMO_API_KEYS["kiwi.localhost"]!;
const LINK_PATH = "/agreements/acceptance/";
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

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
  keys.read = (await createApiKey(acme, "agreements read", ["agreements:read"])).key;
  keys.write = (await createApiKey(acme, "agreements write", ["agreements:write"])).key;
  keys.requests = (await createApiKey(acme, "requests only", ["payment-requests:read", "payment-requests:write"])).key;
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
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
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

const TEXT = "# Direct debit request\n\nI ask Acme to debit my account.\n\n- Each instalment on its day.\n";

const createDocument = (body: unknown, options: CallOptions = {}) =>
  call(documents.action, "POST", "/api/back-office/agreements", { body, ...options });
const publish = (id: string, body: unknown, options: CallOptions = {}) =>
  call(versions.action, "POST", `/api/back-office/agreements/${id}/versions`, { body, params: { id }, ...options });
const offer = (body: unknown, options: CallOptions = {}) =>
  call(offers.action, "POST", "/api/back-office/agreement-offers", { body, ...options });
const verb = (id: string, name: string, options: CallOptions = {}) =>
  call(offerVerbs.action, "POST", `/api/back-office/agreement-offers/${id}/${name}`, {
    params: { id, verb: name },
    ...options,
  });
const count = async (table: "agreement_documents" | "agreement_offers" | "agreement_versions") =>
  Number(
    (
      await handle.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function newDocument(title = `DDR ${randomUUID().slice(0, 8)}`) {
  const response = await createDocument({ kind: "direct-debit", title, body: TEXT });
  expect(response.status, response.text).toBe(201);
  return response.body.document as { id: string; title: string; latestVersion: { id: string } };
}

describe("keys and scopes", () => {
  it("answers 401 without a key and 403 without the scope, and changes nothing", async () => {
    const before = await count("agreement_documents");
    expect((await call(documents.loader, "GET", "/api/back-office/agreements", { key: null })).status).toBe(401);
    expect(
      (await createDocument({ kind: "other", title: "T", body: "x" }, { key: `pk_${"A".repeat(43)}` })).status,
    ).toBe(401);
    const refused = await createDocument({ kind: "other", title: "T", body: "x" }, { key: keys.read });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("This API key does not have the agreements:write scope.");
    expect((await createDocument({ kind: "other", title: "T", body: "x" }, { key: keys.requests })).status).toBe(403);
    expect((await call(documents.loader, "GET", "/api/back-office/agreements", { key: keys.write })).status).toBe(403);
    expect(
      (await call(offers.loader, "GET", "/api/back-office/agreement-offers?account=ACME-1000", { key: keys.requests }))
        .status,
    ).toBe(403);
    expect((await offer({}, { key: keys.read })).status).toBe(403);
    expect(await count("agreement_documents")).toBe(before);
  });
});

describe("documents and versions", () => {
  it("creates a document with version 1 and its SHA-256; lists and reads it; publishes version 2", async () => {
    const created = await createDocument(
      { kind: "terms-of-trade", title: "Trade terms", body: "# Terms\r\n\r\n<script>alert(1)</script> is text.\r\n" },
      { key: keys.write },
    );
    expect(created.status).toBe(201);
    const body = "# Terms\n\n<script>alert(1)</script> is text.\n";
    expect(created.body.document).toMatchObject({
      kind: "terms-of-trade",
      title: "Trade terms",
      latestVersion: { version: 1, bodySha256: sha256(body), bytes: Buffer.byteLength(body) },
      versions: [{ version: 1, body, bodySha256: sha256(body) }],
    });
    const id = created.body.document.id;
    const list = await call(documents.loader, "GET", "/api/back-office/agreements?limit=100", { key: keys.read });
    expect(list.status).toBe(200);
    expect(list.body.items.map((d: { id: string }) => d.id)).toContain(id);
    expect(list.body.items.every((d: Record<string, unknown>) => !("versions" in d))).toBe(true);

    const next = await publish(id, { body: `${body}\nVersion two.\n` }, { key: keys.write });
    expect(next.status).toBe(201);
    expect(next.body.document.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const read = await call(oneDocument.loader, "GET", `/api/back-office/agreements/${id}`, {
      params: { id },
      key: keys.read,
    });
    expect(read.status).toBe(200);
    expect(read.body.document.latestVersion.version).toBe(2);
    const same = await publish(id, { body: `${body}\nVersion two.\n` });
    expect(same.status).toBe(409);
    expect(same.body.error.code).toBe("conflict");
  });

  it("answers 404 for another business's document, an unknown id and a malformed one, in every call", async () => {
    const { id } = await newDocument();
    for (const [key, docId] of [
      [KIWI_KEY, id],
      [ACME_KEY, randomUUID()],
      [ACME_KEY, "' OR 1=1 --"],
    ] as const) {
      const read = await call(oneDocument.loader, "GET", `/api/back-office/agreements/x`, {
        params: { id: docId },
        key,
      });
      expect(read.status).toBe(404);
      expect(read.body.error.code).toBe("not_found");
      const versionsBefore = await count("agreement_versions");
      const published = await publish(docId, { body: "Another text" }, { key });
      expect(published.status).toBe(404);
      expect(await count("agreement_versions")).toBe(versionsBefore);
    }
    const kiwiList = await call(documents.loader, "GET", "/api/back-office/agreements", { key: KIWI_KEY });
    expect(kiwiList.body.items.map((d: { id: string }) => d.id)).not.toContain(id);
    expect(
      (await call(oneDocument.action, "POST", `/api/back-office/agreements/${id}`, { params: { id } })).status,
    ).toBe(405);
    expect(
      (await call(versions.loader, "GET", `/api/back-office/agreements/${id}/versions`, { params: { id } })).status,
    ).toBe(405);
  });

  it("takes a text of 100,000 characters, refuses 100,001 (400) and a body over 512 KB (413): nothing written", async () => {
    const longest = await createDocument({ kind: "other", title: "Longest", body: "é".repeat(AGREEMENT_TEXT_MAX) });
    expect(longest.status).toBe(201);
    expect(longest.body.document.latestVersion.bytes).toBe(2 * AGREEMENT_TEXT_MAX);
    const before = await count("agreement_versions");
    const tooLong = await createDocument({
      kind: "other",
      title: "Too long",
      body: "x".repeat(AGREEMENT_TEXT_MAX + 1),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.fields.body).toMatch(/too long/);
    const huge = JSON.stringify({ kind: "other", title: "Huge", body: "x".repeat(AGREEMENT_API_BODY_BYTES) });
    const tooBig = await call(documents.action, "POST", "/api/back-office/agreements", { rawBody: huge });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.code).toBe("payload_too_large");
    const bigVersion = await call(
      versions.action,
      "POST",
      `/api/back-office/agreements/${longest.body.document.id}/versions`,
      {
        rawBody: huge,
        params: { id: longest.body.document.id },
      },
    );
    expect(bigVersion.status).toBe(413);
    expect(await count("agreement_versions")).toBe(before);
    // Other calls keep the 64 KB limit.
    const bigOffer = await offer(undefined, { rawBody: JSON.stringify({ document: "x".repeat(70_000) }) });
    expect(bigOffer.status).toBe(413);
  });

  it("the front door lets only the text-publishing calls declare up to 512 KB", () => {
    expect(maxBodyBytesFor("/api/back-office/agreements")).toBe(512 * 1024);
    expect(maxBodyBytesFor(`/api/back-office/agreements/${randomUUID()}/versions`)).toBe(512 * 1024);
    expect(maxBodyBytesFor("/api/back-office/agreement-offers")).toBe(64 * 1024);
    expect(maxBodyBytesFor("/api/back-office/agreements/x/versions/y")).toBe(64 * 1024);
    expect(maxBodyBytesFor("/auth/signin")).toBe(64 * 1024);
    expect(AGREEMENT_API_BODY_BYTES).toBe(512 * 1024);
    expect(edgeRefusal("POST", "/api/back-office/agreements", { "content-length": String(200_000) })).toBeNull();
    expect(edgeRefusal("POST", "/api/back-office/agreements", { "content-length": String(600_000) })).toBe(413);
    expect(edgeRefusal("POST", "/auth/signin", { "content-length": String(200_000) })).toBe(413);
  });

  it.each([
    ["not JSON", "{kind:", 400, "invalid_json"],
    ["a JSON array", "[1,2]", 400, "invalid_json"],
    ["a control character", JSON.stringify({ kind: "other", title: "T", body: "a\u0000b" }), 400, "validation"],
    ["an unknown kind", JSON.stringify({ kind: "lease", title: "T", body: "b" }), 400, "validation"],
    ["a bidirectional override", JSON.stringify({ kind: "other", title: "T", body: "a\u202eb" }), 400, "validation"],
  ])("refuses %s with a clear 4xx", async (_label, rawBody, status, code) => {
    const before = await count("agreement_documents");
    const response = await call(documents.action, "POST", "/api/back-office/agreements", { rawBody });
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
    expect(await count("agreement_documents")).toBe(before);
  });

  it("replays a create with the same Idempotency-Key and refuses the key with another body", async () => {
    const before = await count("agreement_documents");
    const headers = { "idempotency-key": `doc-${randomUUID()}` };
    const first = await createDocument({ kind: "other", title: "Once", body: TEXT }, { headers });
    const again = await createDocument({ kind: "other", title: "Once", body: TEXT }, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await count("agreement_documents")).toBe(before + 1);
    const other = await createDocument({ kind: "other", title: "Twice", body: TEXT }, { headers });
    expect(other.status).toBe(422);
  });
});

describe("offers", () => {
  it("creates and emails an offer; the answer has no token; reads it by reference and lists it by account", async () => {
    const document = await newDocument();
    const made = await offer(
      { document: document.id, account: "ACME-1000", contact: "olivia@coastal.example" },
      { key: keys.write, headers: { "idempotency-key": `offer-${randomUUID()}` } },
    );
    expect(made.status).toBe(201);
    expect(made.body.delivery).toEqual({ email: "olivia@coastal.example", sent: true });
    const reference = made.body.offer.reference as string;
    expect(made.body.offer).toMatchObject({ state: "offered", document: { id: document.id }, decision: null });
    const mail = await catcher.waitForMail("olivia@coastal.example");
    const token = mail.links.find((l) => l.includes(LINK_PATH))!.split(LINK_PATH)[1]!;
    expect(mail.text).toContain(`http://acme.localhost:3000${LINK_PATH}${token}`);
    expect(made.text).not.toContain(token);
    expect(made.text).not.toMatch(/token|selector|verifier/i);
    expect((await checkLinkToken(acme, "agreement", token)).status).toBe("valid");

    const read = await call(oneOffer.loader, "GET", `/api/back-office/agreement-offers/${reference}`, {
      params: { id: reference },
      key: keys.read,
    });
    expect(read.status).toBe(200);
    expect(read.body.offer.id).toBe(made.body.offer.id);
    const listed = await call(
      offers.loader,
      "GET",
      "/api/back-office/agreement-offers?account=ACME-1000&state=offered",
      {
        key: keys.read,
      },
    );
    expect(listed.body.items.map((o: { reference: string }) => o.reference)).toContain(reference);
    expect(listed.text).not.toContain(token);
  });

  it("shows the seeded acceptance with its decision record", async () => {
    const read = await call(oneOffer.loader, "GET", "/api/back-office/agreement-offers/x", {
      params: { id: DEMO_ACCEPTED_AGREEMENT_REFERENCE },
    });
    expect(read.body.offer).toMatchObject({
      state: "accepted",
      decision: {
        decision: "accepted",
        version: { version: 1 },
        typedName: "Olivia Nguyen",
        clientAddress: "203.0.113.10",
      },
    });
  });

  it("sends one email and makes one offer for a repeated POST with one Idempotency-Key", async () => {
    const document = await newDocument();
    const before = await count("agreement_offers");
    const headers = { "idempotency-key": `offer-${randomUUID()}` };
    const body = { document: document.id, account: "ACME-2000", contact: "olivia@coastal.example" };
    const first = await offer(body, { headers });
    const again = await offer(body, { headers });
    expect([first.status, again.status, again.headers.get("idempotent-replayed")]).toEqual([201, 201, "true"]);
    expect(again.body.offer.id).toBe(first.body.offer.id);
    expect(await count("agreement_offers")).toBe(before + 1);
    await catcher.waitForMail("olivia@coastal.example");
    expect(catcher.messages).toHaveLength(1);
  });

  it("refuses another business's document, account or contact, and a contact who may not act for the account", async () => {
    const document = await newDocument();
    const kiwiDocument = (
      await call(documents.action, "POST", "/api/back-office/agreements", {
        key: KIWI_KEY,
        body: { kind: "other", title: "Kiwi", body: TEXT },
      })
    ).body.document;
    const before = await count("agreement_offers");
    for (const [body, field] of [
      [{ document: kiwiDocument.id, account: "ACME-1000", contact: "olivia@coastal.example" }, "document"],
      [{ document: document.id, account: "KF-500", contact: "olivia@coastal.example" }, "account"],
      [{ document: document.id, account: "ACME-1000", contact: "aroha@orchards.example" }, "contact"],
      [{ document: document.id, account: "ACME-1000", contact: "sam@coastal.example" }, "contact"],
      [{ document: document.id, account: "ACME-1000" }, "contact"],
      [{ document: document.id, account: "ACME-1000", contact: "olivia@coastal.example", send: false }, "send"],
    ] as const) {
      const response = await offer(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.fields).toHaveProperty(field);
    }
    expect(await count("agreement_offers")).toBe(before);
    expect(catcher.messages).toEqual([]);
  });

  it("resends (the old link is replaced) and withdraws (every link stops), by reference; again is no change", async () => {
    const document = await newDocument();
    const made = await offer({ document: document.id, account: "ACME-1000", contact: "olivia@coastal.example" });
    const reference = made.body.offer.reference as string;
    const first = await catcher.waitForMail("olivia@coastal.example");
    const oldToken = first.links.find((l) => l.includes(LINK_PATH))!.split(LINK_PATH)[1]!;
    catcher.clear();
    const resent = await verb(reference, "resend", { key: keys.write });
    expect(resent.status).toBe(200);
    expect(resent.body.offer.sendCount).toBe(2);
    const second = await catcher.waitForMail("olivia@coastal.example");
    const newToken = second.links.find((l) => l.includes(LINK_PATH))!.split(LINK_PATH)[1]!;
    expect((await checkLinkToken(acme, "agreement", oldToken)).status).toBe("revoked");
    expect((await checkLinkToken(acme, "agreement", newToken)).status).toBe("valid");

    const withdrawn = await verb(reference, "withdraw");
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.offer.state).toBe("withdrawn");
    expect((await checkLinkToken(acme, "agreement", newToken)).status).toBe("revoked");
    expect((await verb(reference, "withdraw")).status).toBe(200);
    const resendWithdrawn = await verb(reference, "resend");
    expect(resendWithdrawn.status).toBe(409);
    expect(resendWithdrawn.body.error.message).toMatch(/withdrawn/);
  });

  it("answers 404 for another business's offer and unknown verbs, 405 for a GET on a verb, 400 for fields", async () => {
    const document = await newDocument();
    const made = await offer({ document: document.id, account: "ACME-1000", contact: "olivia@coastal.example" });
    const { id, reference } = made.body.offer;
    for (const ref of [id, reference]) {
      const read = await call(oneOffer.loader, "GET", "/api/back-office/agreement-offers/x", {
        params: { id: ref },
        key: KIWI_KEY,
      });
      expect(read.status).toBe(404);
      expect((await verb(ref, "withdraw", { key: KIWI_KEY })).status).toBe(404);
      expect((await verb(ref, "resend", { key: KIWI_KEY })).status).toBe(404);
    }
    expect((await call(oneOffer.loader, "GET", "/x", { params: { id: "AG-<b>" } })).status).toBe(404);
    expect((await verb(reference, "accept")).status).toBe(404);
    expect((await offerVerbs.loader({ params: { verb: "resend" } })).status).toBe(405);
    expect((await verb(reference, "withdraw", { body: { reason: "x" } })).status).toBe(400);
    const fresh = await call(oneOffer.loader, "GET", "/x", { params: { id: reference } });
    expect(fresh.body.offer.state).toBe("offered");
  });

  it.each([
    ["no account or contact", "", "account"],
    ["another business's account", "account=KF-500", "account"],
    ["an unknown state", "account=ACME-1000&state=opened", "state"],
    ["a bad cursor", "account=ACME-1000&cursor=%27%20OR%201%3D1", "cursor"],
    [
      "a cursor whose time is no real instant",
      `account=ACME-1000&cursor=${Buffer.from(`2026-02-30T00:00:00.000000Z|${randomUUID()}`).toString("base64url")}`,
      "cursor",
    ],
    ["a bad limit", "account=ACME-1000&limit=abc", "limit"],
  ])("answers 400 for a list with %s", async (_label, query, field) => {
    const response = await call(offers.loader, "GET", `/api/back-office/agreement-offers?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toHaveProperty(field);
  });
});
