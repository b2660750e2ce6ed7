import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDateTime } from "~/lib/format";
import { loader as rootLoader } from "~/root";
import { changeContactPermission } from "~/services/backoffice/contact-permissions.server";
import { createSession } from "~/services/auth/session.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import * as home from "../_index";
import * as branding from "../branding+/_index";
import * as admins from "./_index";

/**
 * Who may manage a brand (issue 32; decision 080): /admin and /admin/admins open for a host admin
 * of the host's business alone (404 for anyone else, loader and action); adding and removing an
 * admin changes exactly one contact of this business, never another business's, never oneself,
 * never the last admin; bad input is a 4xx that changes nothing; every change is in the audit log
 * and the branding history, and takes effect on the contact's next request.
 */
const ACME = "acme.localhost";
const KIWI = "kiwi.localhost";

type Opened = { handle: DatabaseHandle; drop: () => Promise<void> };
type Answer = { status: number; location: string | null; body: unknown };

/** A loader's or action's answer, thrown or returned: a Response, or data with its status. */
async function answer(run: () => Promise<unknown>): Promise<Answer> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get("location"), body: null };
  }
  const withInit = result as { data?: unknown; init?: { status?: number } | null };
  if (withInit && typeof withInit === "object" && "init" in withInit) {
    return { status: withInit.init?.status ?? 200, location: null, body: withInit.data };
  }
  return { status: 200, location: null, body: result };
}

const get = (path: string, cookie?: string, host = ACME) =>
  new Request(`http://${host}${path}`, { headers: { host, ...(cookie ? { cookie } : {}) } });

function post(path: string, fields: Record<string, string>, options: { cookie?: string; origin?: string } = {}) {
  return new Request(`http://${ACME}${path}`, {
    method: "POST",
    headers: {
      host: ACME,
      origin: options.origin ?? `http://${ACME}`,
      "content-type": "application/x-www-form-urlencoded",
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
}

const load = (module: { loader: (args: LoaderFunctionArgs) => Promise<unknown> }, request: Request) =>
  answer(() => module.loader({ request, params: {}, context: {} }));
const act = (request: Request) => answer(() => admins.action({ request, params: {}, context: {} }));

function adminsSuite(open: () => Promise<Opened>) {
  let opened: Opened;
  const ids: Record<string, string> = {};
  const cookies: Record<string, string> = {};

  async function cookieFor(email: string, host: string) {
    const contact = await opened.handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    ids[email] = contact.id;
    const setCookie = await createSession(new Request(`http://${host}/`, { headers: { host } }), {
      businessId: contact.business_id,
      contactId: contact.id,
      authMethod: "credentials",
    });
    return setCookie.split(";")[0]!;
  }

  beforeAll(async () => {
    opened = await open();
    setDatabaseForTesting(opened.handle);
    cookies.admin = await cookieFor("admin@acme.example", ACME);
    cookies.customer = await cookieFor("olivia@coastal.example", ACME);
    cookies.sam = await cookieFor("sam@coastal.example", ACME);
    cookies.kiwiAdmin = await cookieFor("admin@kiwi.example", KIWI);
    await cookieFor("aroha@orchards.example", KIWI);
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await opened.drop();
  });

  /** Every contact's permissions and the audit rows of permission changes: what a refusal must leave alone. */
  async function snapshot() {
    const contacts = await opened.handle.db
      .selectFrom("contacts")
      .select(["id", "permissions"])
      .orderBy("id")
      .execute();
    const audits = await opened.handle.db
      .selectFrom("audit_events")
      .select(["id", "action", "contact_id", "details"])
      .where("action", "in", ["contact.permission.grant", "contact.permission.revoke"])
      .orderBy("id")
      .execute();
    return { contacts, audits };
  }

  const permissionsOf = async (email: string) =>
    (
      await opened.handle.db
        .selectFrom("contacts")
        .select("permissions")
        .where("id", "=", ids[email]!)
        .executeTakeFirstOrThrow()
    ).permissions;

  const shellUser = async (cookie: string) =>
    (await rootLoader({ request: get("/", cookie), params: {}, context: {} })).user;

  const formErrorOf = (body: unknown) => (body as { formError?: string | null } | null)?.formError ?? null;
  const emailErrorOf = (body: unknown) =>
    (body as { result?: { error?: Record<string, string[]> } } | null)?.result?.error?.email ?? null;

  describe("who may open /admin and /admin/admins", () => {
    it("a host admin of the host's business, who is listed, marked as themself", async () => {
      const page = await load(home, get("/admin", cookies.admin));
      expect(page.status).toBe(200);
      expect(page.body).toEqual({ businessName: "Acme Plumbing Supplies" });
      const list = await load(admins, get("/admin/admins", cookies.admin));
      expect(list.status).toBe(200);
      const view = list.body as { you: string; admins: { id: string; email: string; active: boolean }[] };
      expect(view.you).toBe(ids["admin@acme.example"]);
      expect(view.admins).toEqual([
        expect.objectContaining({ id: ids["admin@acme.example"], email: "admin@acme.example", active: true }),
      ]);
    });

    it("nobody else: a customer gets 404 on both pages and the action, a visitor signs in, a Kiwi session is not Acme's", async () => {
      const before = await snapshot();
      for (const module of [home, admins]) {
        expect((await load(module, get("/admin", cookies.customer))).status).toBe(404);
        const signedOut = await load(module, get("/admin"));
        expect(signedOut.status).toBe(302);
        expect(signedOut.location).toMatch(/^\/auth\/signin\?/);
        expect((await load(module, get("/admin", cookies.kiwiAdmin))).status).toBe(302);
      }
      const refused = await act(
        post("/admin/admins", { intent: "grant", email: "olivia@coastal.example" }, { cookie: cookies.customer }),
      );
      expect(refused.status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it("the shell's Admin menu is for the host admin alone", async () => {
      expect((await shellUser(cookies.admin!))?.hostAdmin).toBe(true);
      expect((await shellUser(cookies.customer!))?.hostAdmin).toBe(false);
      expect((await shellUser(cookies.sam!))?.hostAdmin).toBe(false);
    });

    it("a cross-site post is refused and changes nothing", async () => {
      const before = await snapshot();
      const crossSite = await act(
        post(
          "/admin/admins",
          { intent: "grant", email: "sam@coastal.example" },
          { cookie: cookies.admin, origin: "http://evil.example" },
        ),
      );
      expect(crossSite.status).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("bad input is a 4xx that changes nothing", () => {
    const cases: [string, Record<string, string>, number, (body: unknown) => void][] = [
      ["no intent", { email: "sam@coastal.example" }, 400, (b) => expect(formErrorOf(b)).toBe("admins.error.intent")],
      [
        "an unknown intent",
        { intent: "promote", email: "sam@coastal.example" },
        400,
        (b) => expect(formErrorOf(b)).toBe("admins.error.intent"),
      ],
      ["no email", { intent: "grant" }, 400, (b) => expect(emailErrorOf(b)).toEqual(["admins.error.email.required"])],
      [
        "not an email address",
        { intent: "grant", email: "sam at coastal" },
        400,
        (b) => expect(emailErrorOf(b)).toEqual(["admins.error.email.invalid"]),
      ],
      [
        "an email address one character too long",
        { intent: "grant", email: `${"s".repeat(64)}@${"c".repeat(185)}.test` },
        400,
        (b) => expect(emailErrorOf(b)).toEqual(["admins.error.email.tooLong"]),
      ],
      [
        "an email address far too long",
        { intent: "grant", email: `${"s".repeat(5000)}@coastal.example` },
        400,
        () => {},
      ],
      [
        "another business's contact's email",
        { intent: "grant", email: "aroha@orchards.example" },
        400,
        (b) => expect(emailErrorOf(b)).toEqual(["admins.error.email.notFound"]),
      ],
      [
        "another business's admin's email",
        { intent: "grant", email: "ADMIN@kiwi.example" },
        400,
        (b) => expect(emailErrorOf(b)).toEqual(["admins.error.email.notFound"]),
      ],
      [
        "a contact id instead of an email",
        { intent: "grant", email: "00000000-0000-4000-8000-000000000000" },
        400,
        () => {},
      ],
      [
        "a removal with no contact",
        { intent: "remove" },
        400,
        (b) => expect(formErrorOf(b)).toBe("admins.error.contact"),
      ],
      [
        "a removal of a malformed id",
        { intent: "remove", contactId: "1 OR 1=1" },
        400,
        (b) => expect(formErrorOf(b)).toBe("admins.error.contact"),
      ],
      [
        "a field the form does not have",
        { intent: "grant", email: "sam@coastal.example", role: "owner" },
        400,
        () => {},
      ],
    ];
    for (const [name, fields, status, check] of cases) {
      it(name, async () => {
        const before = await snapshot();
        const reply = await act(post("/admin/admins", fields, { cookie: cookies.admin }));
        expect(reply.status).toBe(status);
        check(reply.body);
        expect(await snapshot()).toEqual(before);
      });
    }

    it("another business's ids are pages that are not there (404), in the loader and the action", async () => {
      const before = await snapshot();
      for (const email of ["admin@kiwi.example", "aroha@orchards.example"]) {
        expect((await load(admins, get(`/admin/admins?remove=${ids[email]}`, cookies.admin))).status).toBe(404);
        expect(
          (await act(post("/admin/admins", { intent: "remove", contactId: ids[email]! }, { cookie: cookies.admin })))
            .status,
        ).toBe(404);
      }
      // A contact of this business who is no admin has no removal to confirm either.
      const olivia = ids["olivia@coastal.example"]!;
      expect((await load(admins, get(`/admin/admins?remove=${olivia}`, cookies.admin))).status).toBe(404);
      expect(
        (await act(post("/admin/admins", { intent: "remove", contactId: olivia }, { cookie: cookies.admin }))).status,
      ).toBe(404);
      expect(await permissionsOf("admin@kiwi.example")).toContain("hostAdmin");
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("adding and removing an admin", () => {
    it("the only admin cannot remove themself: the business would have no admin", async () => {
      const before = await snapshot();
      const me = ids["admin@acme.example"]!;
      const ask = await load(admins, get(`/admin/admins?remove=${me}`, cookies.admin));
      expect(ask.status).toBe(200);
      expect(ask.body).toMatchObject({ askRemove: null, refusal: "admins.error.self" });
      const refused = await act(post("/admin/admins", { intent: "remove", contactId: me }, { cookie: cookies.admin }));
      expect(refused.status).toBe(409);
      expect(formErrorOf(refused.body)).toBe("admins.error.lastAdmin");
      expect(await snapshot()).toEqual(before);
    });

    it("grants by email address (any case): audited, and the contact's next page has the Admin menu and /admin/branding", async () => {
      expect((await load(branding, get("/admin/branding", cookies.sam))).status).toBe(404);
      const granted = await act(
        post("/admin/admins", { intent: "grant", email: " Sam@Coastal.Example " }, { cookie: cookies.admin }),
      );
      expect(granted.status).toBe(302);
      expect(granted.location).toBe(`/admin/admins?done=granted&contact=${ids["sam@coastal.example"]}`);
      expect(await permissionsOf("sam@coastal.example")).toEqual(["hostAdmin"]);

      const audits = (await snapshot()).audits;
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({
        action: "contact.permission.grant",
        contact_id: ids["sam@coastal.example"],
        details: { permission: "hostAdmin", by: "admin", byContactId: ids["admin@acme.example"] },
      });

      expect((await shellUser(cookies.sam!))?.hostAdmin).toBe(true);
      expect((await load(branding, get("/admin/branding", cookies.sam))).status).toBe(200);
      const done = await load(admins, get(granted.location!, cookies.admin));
      expect(done.body).toMatchObject({ done: { kind: "granted", name: "Sam Taylor" } });
      expect((done.body as { admins: { email: string }[] }).admins.map((a) => a.email)).toEqual([
        "admin@acme.example",
        "sam@coastal.example",
      ]);

      // Again: nothing to change, nothing audited.
      const again = await act(
        post("/admin/admins", { intent: "grant", email: "sam@coastal.example" }, { cookie: cookies.admin }),
      );
      expect(again.location).toBe(`/admin/admins?done=already&contact=${ids["sam@coastal.example"]}`);
      expect((await snapshot()).audits).toHaveLength(1);
    });

    it("never removes one's own rights, even with another admin there", async () => {
      const before = await snapshot();
      const me = ids["admin@acme.example"]!;
      const refused = await act(post("/admin/admins", { intent: "remove", contactId: me }, { cookie: cookies.admin }));
      expect(refused.status).toBe(409);
      expect(formErrorOf(refused.body)).toBe("admins.error.self");
      expect(await snapshot()).toEqual(before);
    });

    it("asks once, then removes: audited, and the contact loses /admin on their very next request", async () => {
      const sam = ids["sam@coastal.example"]!;
      const ask = await load(admins, get(`/admin/admins?remove=${sam}`, cookies.admin));
      expect(ask.body).toMatchObject({
        askRemove: { id: sam, name: "Sam Taylor", email: "sam@coastal.example" },
        refusal: null,
      });
      const removed = await act(post("/admin/admins", { intent: "remove", contactId: sam }, { cookie: cookies.admin }));
      expect(removed.status).toBe(302);
      expect(removed.location).toBe(`/admin/admins?done=removed&contact=${sam}`);
      expect(await permissionsOf("sam@coastal.example")).toEqual([]);
      const audits = (await snapshot()).audits;
      expect(audits.map((row) => row.action)).toEqual(["contact.permission.grant", "contact.permission.revoke"]);
      expect(audits[1]).toMatchObject({
        contact_id: sam,
        details: { permission: "hostAdmin", by: "admin", byContactId: ids["admin@acme.example"] },
      });
      // The same session, unchanged: the permission is read on every request.
      expect((await load(branding, get("/admin/branding", cookies.sam))).status).toBe(404);
      expect((await load(admins, get("/admin/admins", cookies.sam))).status).toBe(404);
      expect(
        (
          await act(
            post("/admin/admins", { intent: "grant", email: "olivia@coastal.example" }, { cookie: cookies.sam }),
          )
        ).status,
      ).toBe(404);
      expect((await shellUser(cookies.sam!))?.hostAdmin).toBe(false);
      const done = await load(admins, get(removed.location!, cookies.admin));
      expect(done.body).toMatchObject({ done: { kind: "removed", name: "Sam Taylor" } });
    });

    it("the branding history shows each change: who, whom and when, in the business's time zone", async () => {
      const rows = (await snapshot()).audits;
      const at = await opened.handle.db
        .selectFrom("audit_events")
        .select("at")
        .where("id", "=", rows[1]!.id)
        .executeTakeFirstOrThrow();
      const page = await load(branding, get("/admin/branding", cookies.admin));
      const history = (page.body as { history: Record<string, unknown>[] }).history;
      const changes = history.filter((entry) => entry.kind === "adminGranted" || entry.kind === "adminRemoved");
      expect(changes).toEqual([
        expect.objectContaining({ kind: "adminRemoved", by: "Ada Admin", whom: "Sam Taylor", byBackOffice: false }),
        expect.objectContaining({ kind: "adminGranted", by: "Ada Admin", whom: "Sam Taylor", byBackOffice: false }),
      ]);
      expect(changes[0]!.at).toBe(formatDateTime(at.at as Date, { timeZone: "Australia/Sydney" }));
      expect(changes[0]!.at).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (am|pm)$/);
    });

    it("a change made by the back office's API is in the history too, as the back office's", async () => {
      const business = (
        await opened.handle.db
          .selectFrom("hosts")
          .select("business_id")
          .where("hostname", "=", ACME)
          .executeTakeFirstOrThrow()
      ).business_id;
      await changeContactPermission(business, "olivia@coastal.example", { permission: "hostAdmin" }, "grant");
      await changeContactPermission(business, "olivia@coastal.example", { permission: "hostAdmin" }, "revoke");
      const page = await load(branding, get("/admin/branding", cookies.admin));
      const history = (page.body as { history: Record<string, unknown>[] }).history;
      expect(history.slice(0, 2)).toEqual([
        expect.objectContaining({ kind: "adminRemoved", by: null, byBackOffice: true, whom: "Olivia Nguyen" }),
        expect.objectContaining({ kind: "adminGranted", by: null, byBackOffice: true, whom: "Olivia Nguyen" }),
      ]);
    });

    it("two admins removing each other at once: one wins, and the business keeps an admin", async () => {
      await act(post("/admin/admins", { intent: "grant", email: "sam@coastal.example" }, { cookie: cookies.admin }));
      const [first, second] = await Promise.all([
        act(
          post(
            "/admin/admins",
            { intent: "remove", contactId: ids["sam@coastal.example"]! },
            { cookie: cookies.admin },
          ),
        ),
        act(
          post("/admin/admins", { intent: "remove", contactId: ids["admin@acme.example"]! }, { cookie: cookies.sam }),
        ),
      ]);
      expect([first.status, second.status].sort()).toEqual([302, 404]);
      const holders = [await permissionsOf("admin@acme.example"), await permissionsOf("sam@coastal.example")].filter(
        (permissions) => permissions.includes("hostAdmin"),
      );
      expect(holders).toHaveLength(1);
    });
  });
}

describe("on PGlite", () => {
  adminsSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, drop: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  adminsSuite(() => createSeededPostgresDatabase());
});
