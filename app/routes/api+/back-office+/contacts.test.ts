import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEYS } from "../../../../db/seed/demo";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { createApiKey } from "~/services/backoffice/api-keys.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import * as permissions from "./contacts_.$contact_.permissions";
import * as verbs from "./contacts_.$contact_.permissions_.$verb";

/** The back office grants, revokes and reads a contact's permissions (issue 16; decision 032's API). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Response | Promise<Response>;

const ACME_KEY = DEMO_API_KEYS["acme.localhost"]!;
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function call(
  handler: Handler,
  method: string,
  path: string,
  options: {
    key?: string | null;
    body?: unknown;
    rawBody?: string;
    params?: Record<string, string>;
    type?: string;
  } = {},
) {
  const headers: Record<string, string> = { host: "kiwi.localhost:3000" };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? ACME_KEY}`;
  let body = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = options.type ?? "application/json";
  const request = new Request(`http://kiwi.localhost:3000${path}`, { method, headers, body });
  const response = await handler({ request, params: options.params ?? {}, context: {} });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const read = (contact: string, options: Parameters<typeof call>[3] = {}) =>
  call(permissions.loader, "GET", `/api/back-office/contacts/${encodeURIComponent(contact)}/permissions`, {
    params: { contact },
    ...options,
  });
const change = (contact: string, verb: string, body: unknown, options: Parameters<typeof call>[3] = {}) =>
  call(verbs.action, "POST", `/api/back-office/contacts/${encodeURIComponent(contact)}/permissions/${verb}`, {
    params: { contact, verb },
    body,
    ...options,
  });

describe("contact permissions", () => {
  it("lists a contact's permissions, by email or id; the key decides the business", async () => {
    const answer = await read("Admin@Acme.example");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body.contact).toMatchObject({
      email: "admin@acme.example",
      verified: true,
      disabled: false,
      permissions: ["accessCustomerPortal", "hostAdmin"],
    });
    expect((await read(answer.body.contact.id)).body.contact.email).toBe("admin@acme.example");
    // Kiwi's admin through Acme's key (on Kiwi's host, which does not matter): not found.
    const kiwi = await read("admin@kiwi.example");
    expect(kiwi.status).toBe(404);
    expect(kiwi.body).toEqual({
      status: 404,
      message: "No such contact.",
      error: { code: "not_found", message: "No such contact." },
    });
    for (const hostile of ["' OR 1=1 --", "<script>", "00000000-0000-0000-0000-000000000000", "a".repeat(400)]) {
      expect((await read(hostile)).status).toBe(404);
    }
  });

  it("grants and revokes hostAdmin, each once, with the audit trail", async () => {
    const granted = await change("olivia@coastal.example", "grant", { permission: "hostAdmin" });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ permission: "hostAdmin", changed: true });
    expect(granted.body.contact.permissions).toEqual(["accessCustomerPortal", "hostAdmin"]);
    const again = await change("olivia@coastal.example", "grant", { permission: "hostAdmin" });
    expect(again.body).toMatchObject({
      changed: false,
      contact: { permissions: ["accessCustomerPortal", "hostAdmin"] },
    });

    const revoked = await change("olivia@coastal.example", "revoke", { permission: "hostAdmin" });
    expect(revoked.body).toMatchObject({ changed: true, contact: { permissions: ["accessCustomerPortal"] } });
    expect((await change("olivia@coastal.example", "revoke", { permission: "hostAdmin" })).body.changed).toBe(false);

    const trail = await handle.db
      .selectFrom("audit_events")
      .select("action")
      .where("contact_id", "=", granted.body.contact.id)
      .where("action", "like", "contact.permission.%")
      .orderBy("at")
      .execute();
    expect(trail.map((row) => row.action)).toEqual(["contact.permission.grant", "contact.permission.revoke"]);
  });

  it("refuses bad calls with a clear answer and changes nothing", async () => {
    const before = (await read("sam@coastal.example")).body.contact.permissions;
    const cases: [Awaited<ReturnType<typeof change>>, number, string][] = [
      [await change("sam@coastal.example", "grant", { permission: "superuser" }), 400, "validation"],
      [await change("sam@coastal.example", "grant", {}), 400, "validation"],
      [await change("sam@coastal.example", "grant", { permission: "hostAdmin", extra: 1 }), 400, "validation"],
      [await change("sam@coastal.example", "grant", { permission: "host\u0000Admin" }), 400, "validation"],
      [await change("sam@coastal.example", "promote", { permission: "hostAdmin" }), 404, "not_found"],
      [await change("admin@kiwi.example", "revoke", { permission: "hostAdmin" }), 404, "not_found"],
      [await change("sam@coastal.example", "grant", { permission: "hostAdmin" }, { key: null }), 401, "unauthorized"],
      [
        await change("sam@coastal.example", "grant", { permission: "hostAdmin" }, { key: `pk_${"x".repeat(43)}` }),
        401,
        "unauthorized",
      ],
      [
        await change("sam@coastal.example", "grant", undefined, {
          rawBody: "permission=hostAdmin",
          type: "text/plain",
        }),
        415,
        "unsupported_media_type",
      ],
      [await change("sam@coastal.example", "grant", undefined, { rawBody: "{" }), 400, "invalid_json"],
      [
        await change("sam@coastal.example", "grant", undefined, {
          rawBody: JSON.stringify({ permission: "x".repeat(70_000) }),
        }),
        413,
        "payload_too_large",
      ],
    ];
    for (const [answer, status, code] of cases) {
      expect(answer.status).toBe(status);
      expect(answer.body.error.code).toBe(code);
    }
    expect((await read("sam@coastal.example")).body.contact.permissions).toEqual(before);
    expect(
      (await read("admin@kiwi.example", { key: DEMO_API_KEYS["kiwi.localhost"] })).body.contact.permissions,
    ).toContain("hostAdmin");
    // GET on the change route, POST on the list: 405 with Allow.
    const get = await call(verbs.loader, "GET", "/api/back-office/contacts/x/permissions/grant");
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    const post = await call(permissions.action, "POST", "/api/back-office/contacts/x/permissions");
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET"]);
  });

  it("needs the contacts scopes", async () => {
    const acme = await handle.db
      .selectFrom("hosts")
      .select("business_id")
      .where("hostname", "=", "acme.localhost")
      .executeTakeFirstOrThrow();
    const { key } = await createApiKey(acme.business_id, "requests only", ["payment-requests:read"]);
    const listed = await read("sam@coastal.example", { key });
    expect([listed.status, listed.body.error.code]).toEqual([403, "forbidden"]);
    const granted = await change("sam@coastal.example", "grant", { permission: "hostAdmin" }, { key });
    expect([granted.status, granted.body.error.code]).toEqual([403, "forbidden"]);
    expect((await read("sam@coastal.example")).body.contact.permissions).toEqual([]);
  });
});
