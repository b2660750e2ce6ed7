import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_API_KEYS } from "../../../../db/seed/demo";
import { createCreditApplication, SAMPLE_PDF, storeCreditDocument } from "../../../../tests/support/credit-fixtures";
import { startSmtpCatcher, type SmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { createApiKey } from "~/services/backoffice/api-keys.server";
import { checkRefereeLink } from "~/services/credit/trade-references.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import * as list from "./credit-applications";
import * as one from "./credit-applications_.$id";
import * as verbs from "./credit-applications_.$id_.$verb";
import * as documents from "./credit-applications_.$id_.documents.$documentId";
import * as resend from "./credit-applications_.$id_.references.$position.resend";
import * as references from "./trade-references";

/**
 * The credit part of the back-office API (issue 17; decisions 032 and 041), through the routes'
 * loaders and actions with real Requests: keys and scopes, the lists and one application, a
 * document's bytes as a safe download, the decision made once (idempotent with its key, 409 for
 * any other), a referee's link resent by email, and every bad input a clear 4xx with nothing
 * changed — another business's ids are 404s like unknown ones.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

const ACME_KEY = DEMO_API_KEYS["acme.localhost"]!;
const KIWI_KEY = DEMO_API_KEYS["kiwi.localhost"]!;
const LINK_PATH = "/credit-trade-reference/";

let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;
let handle: DatabaseHandle;
let acme = "";
let kiwi = "";
const keys: Record<string, string> = {};

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  const business = async (host: string) =>
    (await handle.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow())
      .business_id;
  acme = await business("acme.localhost");
  kiwi = await business("kiwi.localhost");
  keys.read = (await createApiKey(acme, "credit read", ["credit:read"])).key;
  keys.write = (await createApiKey(acme, "credit write", ["credit:write"])).key;
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
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const json = (response.headers.get("content-type") ?? "").includes("json");
  return {
    status: response.status,
    headers: response.headers,
    text,
    bytes,
    body: json && text ? JSON.parse(text) : null,
  };
}

const decide = (id: string, verb: string, body: unknown, options: CallOptions = {}) =>
  call(verbs.action, "POST", `/api/back-office/credit-applications/${id}/${verb}`, {
    body,
    params: { id, verb },
    ...options,
  });
const resendTo = (id: string, position: string, options: CallOptions = {}) =>
  call(resend.action, "POST", `/api/back-office/credit-applications/${id}/references/${position}/resend`, {
    params: { id, position },
    ...options,
  });
const read = (id: string, options: CallOptions = {}) =>
  call(one.loader, "GET", `/api/back-office/credit-applications/${id}`, { params: { id }, ...options });
const statusOf = async (id: string) =>
  (await handle.db.selectFrom("credit_applications").select("status").where("id", "=", id).executeTakeFirstOrThrow())
    .status;

describe("keys and scopes", () => {
  it("answers 401 without a key, 403 without the scope, and changes nothing", async () => {
    const app = await createCreditApplication(handle.db, acme);
    expect((await call(list.loader, "GET", "/api/back-office/credit-applications", { key: null })).status).toBe(401);
    expect((await read(app.id, { key: `pk_${"A".repeat(43)}` })).status).toBe(401);
    const refused = await call(list.loader, "GET", "/api/back-office/credit-applications", { key: keys.agreements });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("This API key does not have the credit:read scope.");
    expect((await read(app.id, { key: keys.write })).status).toBe(403);
    expect(
      (await call(references.loader, "GET", "/api/back-office/trade-references", { key: keys.write })).status,
    ).toBe(403);
    const noWrite = await decide(app.id, "accept", { approvedLimitCents: 100 }, { key: keys.read });
    expect(noWrite.status).toBe(403);
    expect(noWrite.body.error.message).toBe("This API key does not have the credit:write scope.");
    expect((await resendTo(app.id, "1", { key: keys.agreements })).status).toBe(403);
    expect(await statusOf(app.id)).toBe("submitted");
    expect(catcher.messages).toHaveLength(0);
    // The scoped keys do what their scopes say.
    expect((await read(app.id, { key: keys.read })).status).toBe(200);
    expect((await decide(app.id, "accept", { approvedLimitCents: 100 }, { key: keys.write })).status).toBe(200);
  });
});

describe("reading", () => {
  it("lists submitted applications newest first, by status, a page at a time; refuses bad queries", async () => {
    const older = await createCreditApplication(handle.db, acme, {
      submittedAt: new Date(Date.parse("2032-01-01T00:00:00Z")),
    });
    const newer = await createCreditApplication(handle.db, acme, {
      submittedAt: new Date(Date.parse("2032-01-02T00:00:00Z")),
    });
    const page = await call(list.loader, "GET", "/api/back-office/credit-applications?limit=1");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.body.items.map((i: { reference: string }) => i.reference)).toEqual([newer.reference]);
    const next = await call(
      list.loader,
      "GET",
      `/api/back-office/credit-applications?limit=1&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.items[0].reference).toBe(older.reference);
    const submitted = await call(list.loader, "GET", "/api/back-office/credit-applications?status=submitted&limit=100");
    expect(submitted.body.items.every((i: { status: string }) => i.status === "submitted")).toBe(true);
    for (const query of [
      "status=draft",
      "status=%3Cb%3E",
      "limit=abc",
      "limit=0",
      "limit=1000",
      "cursor=%27%20OR%201%3D1",
    ]) {
      const bad = await call(list.loader, "GET", `/api/back-office/credit-applications?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error.code).toBe("validation");
    }
    const kiwiList = await call(list.loader, "GET", "/api/back-office/credit-applications?limit=100", {
      key: KIWI_KEY,
    });
    expect(kiwiList.body.items.map((i: { id: string }) => i.id)).not.toContain(newer.id);
    expect((await call(list.action, "POST", "/api/back-office/credit-applications", { body: {} })).status).toBe(405);
  });

  it("reads one application by id or reference; another business's, unknown and malformed ids are 404", async () => {
    const app = await createCreditApplication(handle.db, acme, { documents: [{ fileName: "Statements.pdf" }] });
    const kiwiApp = await createCreditApplication(handle.db, kiwi, { country: "NZ" });
    const byReference = await read(app.reference);
    expect(byReference.status).toBe(200);
    expect(byReference.body.application).toMatchObject({
      id: app.id,
      reference: app.reference,
      status: "submitted",
      legalName: app.legalName,
      terms: { nameTyped: "Jordan Applicant" },
      documents: [{ fileName: "Statements.pdf", size: `${SAMPLE_PDF.byteLength} B` }],
      references: [{ position: 1 }, { position: 2 }],
    });
    // A link's secret is never in an answer.
    expect(byReference.text).not.toContain(app.referees[0]!.token.slice(16));
    expect(byReference.text).not.toMatch(/verifier|selector/i);
    for (const [key, id] of [
      [KIWI_KEY, app.id],
      [KIWI_KEY, app.reference],
      [ACME_KEY, kiwiApp.id],
      [ACME_KEY, kiwiApp.reference],
      [ACME_KEY, randomUUID()],
      [ACME_KEY, "CA-ZZZZZZZZ"],
      [ACME_KEY, "' OR 1=1 --"],
      [ACME_KEY, "<script>"],
    ] as const) {
      const response = await read(id, { key });
      expect(response.status, id).toBe(404);
      expect(response.body.error).toEqual({ code: "not_found", message: "No such credit application." });
    }
    expect((await read(kiwiApp.reference, { key: KIWI_KEY })).body.application.country).toBe("NZ");
    expect(
      (await call(one.action, "POST", `/api/back-office/credit-applications/${app.id}`, { params: { id: app.id } }))
        .status,
    ).toBe(405);
  });

  it("serves a document's bytes as a safe download; another business's is 404", async () => {
    const app = await createCreditApplication(handle.db, acme, { documents: [{ fileName: 'Q3 "final"\r\n.exe' }] });
    const documentId = app.documents[0]!.id;
    const path = `/api/back-office/credit-applications/${app.id}/documents/${documentId}`;
    const file = await call(documents.loader, "GET", path, { params: { id: app.id, documentId } });
    expect(file.status).toBe(200);
    expect(Buffer.from(file.bytes).equals(Buffer.from(SAMPLE_PDF))).toBe(true);
    expect(createHash("sha256").update(file.bytes).digest("hex")).toBe(
      createHash("sha256").update(SAMPLE_PDF).digest("hex"),
    );
    expect(Object.fromEntries(file.headers)).toMatchObject({
      "content-type": "application/pdf",
      "content-disposition": 'attachment; filename="Q3 _final_.exe.pdf"',
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      "content-length": String(SAMPLE_PDF.byteLength),
      "content-security-policy": "default-src 'none'; sandbox",
    });
    // A name in another script, and an emoji: as typed in UTF-8, and an ASCII name for older clients.
    const cyrillic = await createCreditApplication(handle.db, acme, { documents: [{ fileName: "Отчёт 🧾.pdf" }] });
    const named = await call(documents.loader, "GET", path, {
      params: { id: cyrillic.id, documentId: cyrillic.documents[0]!.id },
    });
    expect(named.status).toBe(200);
    expect(named.headers.get("content-disposition")).toBe(
      `attachment; filename="document.pdf"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%20%F0%9F%A7%BE.pdf`,
    );
    const other = await createCreditApplication(handle.db, acme);
    for (const [key, id, doc] of [
      [KIWI_KEY, app.id, documentId],
      [ACME_KEY, other.id, documentId],
      [ACME_KEY, app.id, randomUUID()],
      [ACME_KEY, app.id, "../../etc/passwd"],
    ] as const) {
      const response = await call(documents.loader, "GET", path, { key, params: { id, documentId: doc } });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("not_found");
    }
    expect(
      (await call(documents.loader, "GET", path, { key: keys.write, params: { id: app.id, documentId } })).status,
    ).toBe(403);
    // Bytes that no longer match their recorded SHA-256 are never served: a 503 without details, logged.
    await storeCreditDocument(app.documents[0]!.storageKey, new TextEncoder().encode("%PDF-1.4 swapped"));
    const changed = await call(documents.loader, "GET", path, { params: { id: app.id, documentId } });
    expect(changed.status).toBe(503);
    expect(changed.body.error.code).toBe("unavailable");
    expect(changed.text).not.toContain("swapped");
  });

  it("lists trade references, answered or not, and refuses a bad filter", async () => {
    const app = await createCreditApplication(handle.db, acme, { refereeCount: 3 });
    const all = await call(references.loader, "GET", `/api/back-office/trade-references?application=${app.reference}`);
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(3);
    expect(all.body.items[0]).toMatchObject({ state: "waiting", answer: null, application: { id: app.id } });
    const unanswered = await call(
      references.loader,
      "GET",
      `/api/back-office/trade-references?state=unanswered&application=${app.id}`,
    );
    expect(unanswered.body.items).toHaveLength(3);
    for (const query of ["state=everything", `application=${randomUUID()}`, "limit=-1"]) {
      expect((await call(references.loader, "GET", `/api/back-office/trade-references?${query}`)).status, query).toBe(
        400,
      );
    }
    const kiwiView = await call(references.loader, "GET", `/api/back-office/trade-references?application=${app.id}`, {
      key: KIWI_KEY,
    });
    expect(kiwiView.status).toBe(400);
  });
});

describe("the decision", () => {
  it("accepts once; the same call with its Idempotency-Key gets the first answer, any other decision a 409", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const key = { "idempotency-key": `accept-${randomUUID()}` };
    const body = { approvedLimitCents: 750_000, note: "Welcome." };
    const first = await decide(app.id, "accept", body, { headers: key });
    expect(first.status).toBe(200);
    expect(first.body.application).toMatchObject({
      status: "accepted",
      decision: { decision: "accepted", approvedLimitCents: 750_000, note: "Welcome." },
    });
    expect(first.body.delivery).toEqual({ email: app.applicantEmail, sent: true });
    expect(first.body.application.decision.decidedBy).toMatch(/^api-key:[0-9a-f-]{36}$/);
    const mail = await catcher.waitForMail(app.applicantEmail);
    expect(mail.text).toContain("Approved credit limit: $7,500.00");
    const again = await decide(app.id, "accept", body, { headers: key });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const changedBody = await decide(app.id, "accept", { approvedLimitCents: 1 }, { headers: key });
    expect(changedBody.status).toBe(422);
    expect(changedBody.body.error.code).toBe("idempotency_mismatch");
    const declined = await decide(
      app.id,
      "decline",
      { reason: "No." },
      { headers: { "idempotency-key": randomUUID() } },
    );
    expect(declined.status).toBe(409);
    expect(declined.body.error.code).toBe("conflict");
    const repeated = await decide(app.id, "accept", body);
    expect(repeated.status).toBe(409);
    expect(catcher.messages.filter((m) => m.to.includes(app.applicantEmail))).toHaveLength(1);
    const detail = await read(app.id);
    expect(detail.body.application.decision.approvedLimitCents).toBe(750_000);
  });

  it("declines with a reason kept as typed (markup is text, escaped in the email)", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const reason = '<img src=x onerror=alert(1)> "Too new" & unproven; DROP TABLE credit_applications; --';
    const response = await decide(app.reference, "decline", { reason });
    expect(response.status).toBe(200);
    expect(response.body.application.decision).toMatchObject({ decision: "declined", reason, note: null });
    const mail = await catcher.waitForMail(app.applicantEmail);
    expect(mail.text).toContain(reason);
    expect(mail.html).not.toContain("<img src=x");
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect((await read(app.id)).body.application.decision.reason).toBe(reason);
  });

  it.each([
    ["not JSON", "{reason:", 400, "invalid_json"],
    ["a JSON array", "[1]", 400, "invalid_json"],
    ["a control character", JSON.stringify({ reason: "a\u0000b" }), 400, "validation"],
    ["a missing reason", JSON.stringify({}), 400, "validation"],
    ["an unknown field", JSON.stringify({ reason: "x", approvedLimitCents: 5 }), 400, "validation"],
    ["a reason too long", JSON.stringify({ reason: "x".repeat(2_001) }), 400, "validation"],
    ["a body over 64 KB", JSON.stringify({ reason: "x".repeat(70_000) }), 413, "payload_too_large"],
  ])("refuses %s with a clear 4xx and decides nothing", async (_label, rawBody, status, code) => {
    const app = await createCreditApplication(handle.db, acme);
    const response = await decide(app.id, "decline", undefined, { rawBody });
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
    expect(await statusOf(app.id)).toBe("submitted");
  });

  it("refuses a body that is not JSON (415), an unknown verb (404), a GET (405), a bad limit (400), another business's application (404)", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const form = await decide(app.id, "accept", undefined, {
      rawBody: "approvedLimitCents=5",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const unknown = await decide(app.id, "approve", { approvedLimitCents: 5 });
    expect(unknown.status).toBe(404);
    expect((await verbs.loader({ params: { verb: "accept" } })).status).toBe(405);
    for (const approvedLimitCents of [0, -5, 1.5, "100", 1e10, null]) {
      const bad = await decide(app.id, "accept", { approvedLimitCents });
      expect(bad.status, String(approvedLimitCents)).toBe(400);
      expect(Object.keys(bad.body.error.fields)).toEqual(["approvedLimitCents"]);
    }
    const kiwiCall = await decide(app.id, "accept", { approvedLimitCents: 5 }, { key: KIWI_KEY });
    expect(kiwiCall.status).toBe(404);
    const malformed = await decide("../../x", "accept", { approvedLimitCents: 5 });
    expect(malformed.status).toBe(404);
    expect(await statusOf(app.id)).toBe("submitted");
    expect(catcher.messages).toHaveLength(0);
  });
});

describe("resending a referee's link", () => {
  it("emails a new link, the old one stops working; a replay sends nothing more; bad calls change nothing", async () => {
    const app = await createCreditApplication(handle.db, acme);
    const key = { "idempotency-key": randomUUID() };
    const response = await resendTo(app.reference, "2", { headers: key });
    expect(response.status).toBe(200);
    expect(response.body.reference).toMatchObject({ position: 2, state: "waiting" });
    expect(response.body.delivery.sent).toBe(true);
    const mail = await catcher.waitForMail(app.referees[1]!.email);
    const token = mail.links.find((l) => l.includes(LINK_PATH))!.split(LINK_PATH)[1]!;
    expect(response.text).not.toContain(token.slice(16));
    expect((await checkRefereeLink(acme, token)).status).toBe("valid");
    expect((await checkRefereeLink(acme, app.referees[1]!.token)).status).toBe("unknown");
    const replay = await resendTo(app.reference, "2", { headers: key });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(catcher.messages).toHaveLength(1);
    const withFields = await resendTo(app.id, "1", { body: { email: "attacker@example.com" } });
    expect(withFields.status).toBe(400);
    expect(withFields.body.error.fields).toEqual({ email: "This field is not part of the call." });
    for (const position of ["0", "9", "one"]) {
      expect((await resendTo(app.id, position)).status).toBe(404);
    }
    expect((await resendTo(app.id, "1", { key: KIWI_KEY })).status).toBe(404);
    expect((await resend.loader()).status).toBe(405);
    expect(catcher.messages).toHaveLength(1);
    expect((await checkRefereeLink(acme, app.referees[0]!.token)).status).toBe("valid");
  });
});
