import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_API_KEYS } from "../../../../db/seed/demo";
import { startSmtpCatcher, type SmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { createApiKey } from "~/services/backoffice/api-keys.server";
import { checkLinkToken } from "~/services/links/link-tokens.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import * as invoiceLinks from "./invoice-links";
import * as revokeRoute from "./invoice-links_.revoke";

/**
 * /api/back-office/invoice-links and …/revoke (issue 31; decision 074) through the route factories:
 * scopes, the key deciding the business (another business's invoice is a 404), 400/409 in the one error
 * shape (decision 069), Idempotency-Key, and the emails through real SMTP.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

const ACME_KEY = DEMO_API_KEYS["acme.localhost"]!;
const KIWI_KEY = DEMO_API_KEYS["kiwi.localhost"]!;
const PATH = "/customer/invoices-and-payments/";

let catcher: SmtpCatcher;
let handle: DatabaseHandle;
let acme: string;
const keys: Record<string, string> = {};
const savedSmtp = process.env.SMTP_URL;

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
  keys.read = (await createApiKey(acme, "links read", ["invoice-links:read"])).key;
  keys.write = (await createApiKey(acme, "links write", ["invoice-links:write"])).key;
  keys.adhoc = (await createApiKey(acme, "ad hoc only", ["adhoc:write"])).key;
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

async function call(
  handler: Handler,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { host: "acme.localhost:3000", ...options.headers };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? ACME_KEY}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const request = new Request(`http://acme.localhost:3000${path}`, { method, headers, body });
  let response: Response;
  try {
    response = await handler({ request, params: {}, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const create = (body: unknown, options: { key?: string | null; headers?: Record<string, string> } = {}) =>
  call(invoiceLinks.action, "POST", "/api/back-office/invoice-links", { body, ...options });
const revoke = (body: unknown, options: { key?: string | null } = {}) =>
  call(revokeRoute.action, "POST", "/api/back-office/invoice-links/revoke", { body, ...options });
const list = (query = "", options: { key?: string | null } = {}) =>
  call(invoiceLinks.loader, "GET", `/api/back-office/invoice-links${query}`, options);

const linkCount = async () =>
  Number(
    (
      await handle.db
        .selectFrom("link_tokens")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The one error shape (decision 069). */
function expectProblem(response: { status: number; body: Record<string, unknown> }, status: number, code: string) {
  expect(response.status).toBe(status);
  const error = response.body.error as { code: string; message: string };
  expect(response.body.status).toBe(status);
  expect(error.code).toBe(code);
  expect(error.message).toBe(response.body.message);
}

const INVOICE = "ACME-1000-INV-023";

describe("the back-office invoice-links API", () => {
  it("creates and emails a link (201), answers no token, and the link opens that invoice", async () => {
    const response = await create({ invoice: INVOICE, recipients: ["olivia@coastal.example"], expiresInDays: 30 });
    expect(response.status).toBe(201);
    expect(response.body.invoice).toMatchObject({ number: INVOICE, account: { number: "ACME-1000" } });
    expect(response.body.deliveries).toEqual([{ email: "olivia@coastal.example", sent: true }]);
    expect(JSON.stringify(response.body)).not.toContain(PATH);
    const mail = await catcher.waitForMail("olivia@coastal.example");
    const token = mail.links.find((l) => l.includes(PATH))!.split(PATH)[1]!;
    const check = await checkLinkToken(acme, "invoice", token);
    expect(check.status === "valid" && check.link.subjectId).toBe(response.body.invoice.id);
  });

  it("needs the scopes: 401 without a key, 403 without invoice-links:write or :read, nothing changed", async () => {
    const before = await linkCount();
    expectProblem(
      await create({ invoice: INVOICE, recipients: ["olivia@coastal.example"] }, { key: null }),
      401,
      "unauthorized",
    );
    for (const key of [keys.read!, keys.adhoc!]) {
      const refused = await create({ invoice: INVOICE, recipients: ["olivia@coastal.example"] }, { key });
      expectProblem(refused, 403, "forbidden");
      expectProblem(await revoke({ invoice: INVOICE }, { key }), 403, "forbidden");
    }
    expectProblem(await list("", { key: keys.write }), 403, "forbidden");
    expect((await list("", { key: keys.read })).status).toBe(200);
    expect(await linkCount()).toBe(before);
    expect(catcher.messages).toHaveLength(0);
  });

  it("lets the key decide the business: acme's invoice is a 404 to kiwi's key", async () => {
    const before = await linkCount();
    expectProblem(
      await create({ invoice: INVOICE, recipients: ["olivia@coastal.example"] }, { key: KIWI_KEY }),
      404,
      "not_found",
    );
    expectProblem(await revoke({ invoice: INVOICE }, { key: KIWI_KEY }), 404, "not_found");
    expectProblem(await create({ invoice: "NO-SUCH-INV", recipients: ["olivia@coastal.example"] }), 404, "not_found");
    expect((await list("", { key: KIWI_KEY })).body.items).toEqual([]);
    expect(await linkCount()).toBe(before);
  });

  it("answers 400 with a message per field, 409 for an invoice that cannot be paid online, 405 otherwise", async () => {
    const bad = await create({ invoice: INVOICE, recipients: ["sam@nowhere.example"], extra: true });
    expectProblem(bad, 400, "validation");
    expect(Object.keys(bad.body.error.fields)).toContain("extra");
    const notContact = await create({
      invoice: INVOICE,
      recipients: ["olivia@coastal.example", "aroha@orchards.example"],
    });
    expectProblem(notContact, 400, "validation");
    expect(notContact.body.error.fields["recipients.1"]).toContain("is not a contact of account ACME-1000");
    expectProblem(
      await create({ invoice: "ACME-1000-INV-016", recipients: ["olivia@coastal.example"] }),
      409,
      "conflict",
    );
    expectProblem(await list("?state=gone"), 400, "validation");
    const wrong = await call(invoiceLinks.action, "PUT", "/api/back-office/invoice-links", { body: {} });
    expectProblem(wrong, 405, "method_not_allowed");
    expect(wrong.headers.get("allow")).toBe("GET, POST");
    const revokeGet = await call(revokeRoute.loader, "GET", "/api/back-office/invoice-links/revoke");
    expectProblem(revokeGet, 405, "method_not_allowed");
    expect(revokeGet.headers.get("allow")).toBe("POST");
  });

  it("runs a POST once per Idempotency-Key: one link, one email, the first answer replayed", async () => {
    const before = await linkCount();
    const headers = { "idempotency-key": "invoice-link-7781" };
    const body = { invoice: INVOICE, recipients: ["olivia@coastal.example"] };
    const first = await create(body, { headers });
    const again = await create(body, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await linkCount()).toBe(before + 1);
    await catcher.waitForMail("olivia@coastal.example");
    expect(catcher.messages.filter((m) => m.to.includes("olivia@coastal.example"))).toHaveLength(1);
    const other = await create({ ...body, expiresInDays: 2 }, { headers });
    expectProblem(other, 422, "idempotency_mismatch");
  });

  it("revokes every live link to the invoice, or one contact's, and lists them", async () => {
    await create({ invoice: INVOICE, recipients: ["olivia@coastal.example"] });
    const live = await list(`?invoice=${INVOICE}&state=live`, { key: keys.read });
    expect(live.status).toBe(200);
    expect(live.body.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(live.body)).not.toMatch(/verifier|selector/);
    const one = await revoke({ invoice: INVOICE, contact: "olivia@coastal.example" }, { key: keys.write });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ contact: { email: "olivia@coastal.example" } });
    expect(one.body.revoked).toBeGreaterThan(0);
    const all = await revoke({ invoice: INVOICE });
    expect(all.body).toMatchObject({ contact: null, revoked: 0 });
    expect((await list(`?invoice=${INVOICE}&state=live`)).body.items).toEqual([]);
  });
});
