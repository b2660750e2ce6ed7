import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveBrand } from "~/lib/brand-colours";
import { EMAIL_PREVIEWS } from "~/lib/email-previews";
import type { ThemeTokens } from "~/themes/tokens";
import { createSession, getSession } from "~/services/auth/session.server";
import { saveDraft, startPreview } from "~/services/branding/brands.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import { loader } from "./preview.email.$kind";

/**
 * /admin/branding/preview/email/<kind> (issue 32, decision 081): the emails a contact gets, with
 * the admin's session's draft brand and demo data of the admin's own business, for a host admin
 * of the host's business alone (404 for anyone else and for an unknown kind); nothing written.
 */
const ACME = "acme.localhost";
const KIWI = "kiwi.localhost";
const DRAFT_COLOUR = "#7c2d12";

function previewSuite(open: () => Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  const cookies: Record<string, string> = {};
  const accounts: Record<string, { number: string; name: string; invoices: unknown }[]> = {};
  let draftTokens: ThemeTokens;

  async function contact(email: string) {
    return handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
  }

  async function cookieFor(email: string, host: string) {
    const row = await contact(email);
    const setCookie = await createSession(new Request(`http://${host}/`, { headers: { host } }), {
      businessId: row.business_id,
      contactId: row.id,
      authMethod: "credentials",
    });
    return setCookie.split(";")[0]!;
  }

  async function accountsOf(host: string) {
    return handle.db
      .selectFrom("accounts")
      .innerJoin("hosts", "hosts.business_id", "accounts.business_id")
      .select((eb) => [
        "accounts.number",
        "accounts.name",
        eb
          .selectFrom("invoices")
          .select((inner) => inner.fn("string_agg", ["invoices.number", inner.val(" ")]).as("list"))
          .whereRef("invoices.account_id", "=", "accounts.id")
          .as("invoices"),
      ])
      .where("hosts.hostname", "=", host)
      .orderBy("accounts.number")
      .execute();
  }

  const request = (kind: string, cookie: string | undefined, host = ACME) =>
    new Request(`http://${host}/admin/branding/preview/email/${kind}`, {
      headers: { host, ...(cookie ? { cookie } : {}) },
    });

  /** The loader's answer, thrown or returned. */
  async function get(kind: string, cookie: string | undefined, host = ACME): Promise<Response> {
    try {
      const result = await loader({ request: request(kind, cookie, host), params: { kind }, context: {} });
      return result;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      const withInit = thrown as { init?: { status?: number } | null };
      if (withInit && typeof withInit === "object" && "init" in withInit) {
        return new Response(null, { status: withInit.init?.status ?? 500 });
      }
      throw thrown;
    }
  }

  const count = async (table: "mail_outbox" | "link_tokens" | "payment_requests" | "brand_versions") =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const counts = async () =>
    Promise.all((["mail_outbox", "link_tokens", "payment_requests", "brand_versions"] as const).map(count));

  /** The demo data: the business's first account with an invoice, as the emails name it (a receipt names its invoice). */
  function expectFirstAccount(html: string, kind: string, first: { number: string; name: string; invoices: unknown }) {
    if (kind !== "receipt") {
      expect(html).toContain(`${first.name} (${first.number})`);
      return;
    }
    const numbers = String(first.invoices ?? "").split(" ");
    expect(numbers.some((number) => number && html.includes(`${number}: `))).toBe(true);
  }

  beforeAll(async () => {
    ({ handle, drop } = await open());
    setDatabaseForTesting(handle);
    cookies.admin = await cookieFor("admin@acme.example", ACME);
    cookies.customer = await cookieFor("olivia@coastal.example", ACME);
    cookies.kiwiAdmin = await cookieFor("admin@kiwi.example", KIWI);
    accounts.acme = await accountsOf(ACME);
    accounts.kiwi = await accountsOf(KIWI);
    // Acme's admin saves a draft colour and previews it.
    const derived = deriveBrand(DRAFT_COLOUR);
    if (!derived.ok) throw new Error("the test colour is refused");
    draftTokens = derived.tokens;
    const admin = await contact("admin@acme.example");
    const saved = await saveDraft(
      { businessId: admin.business_id, contactId: admin.id },
      { brandColour: DRAFT_COLOUR, tokens: derived.tokens },
    );
    if (!saved.ok) throw new Error(saved.problem);
    const session = await getSession(request("request", cookies.admin), admin.business_id);
    expect(await startPreview(session!, saved.draft.id)).toBe(true);
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await drop();
  });

  it("answers each email with the admin's draft colour and the admin's own business's data, kept by no cache", async () => {
    const first = accounts.acme!.find((account) => account.invoices)!;
    const before = await counts();
    for (const kind of EMAIL_PREVIEWS) {
      const response = await get(kind, cookies.admin);
      expect(response.status, kind).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain("script-src");
      const html = await response.text();
      expect(html).toContain(`background-color:${draftTokens.colors.button};color:${draftTokens.surface.buttonText}`);
      expect(html).toContain("Acme Plumbing Supplies");
      expectFirstAccount(html, kind, first);
      expect(html).toMatch(/<img [^>]*src="[^"]+\/email-logo\.png"/);
      expect(html).not.toContain("<script");
      for (const other of accounts.kiwi!) expect(html).not.toContain(other.number);
    }
    // Nothing sent, queued or written.
    expect(await counts()).toEqual(before);
  });

  it("shows Kiwi's admin Kiwi's data in Kiwi's published brand, never Acme's data or Acme's draft", async () => {
    const first = accounts.kiwi!.find((account) => account.invoices)!;
    for (const kind of EMAIL_PREVIEWS) {
      const response = await get(kind, cookies.kiwiAdmin, KIWI);
      expect(response.status, kind).toBe(200);
      const html = await response.text();
      expect(html).toContain("Kiwi Freight Co.");
      expectFirstAccount(html, kind, first);
      expect(html).not.toContain("Acme");
      expect(html).not.toContain(draftTokens.colors.button);
      for (const other of accounts.acme!) expect(html).not.toContain(other.number);
    }
  });

  it("shows a business with no invoice a plainly-labelled specimen, with the business's own name", async () => {
    const business = await handle.db
      .insertInto("businesses")
      .values({ name: "Empty Shelf Traders", country: "AU", currency: "AUD", time_zone: "Australia/Sydney" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await handle.db.insertInto("hosts").values({ hostname: "empty.localhost", business_id: business.id }).execute();
    await handle.db
      .insertInto("contacts")
      .values({
        business_id: business.id,
        email: "admin@empty.example",
        verified_at: new Date(),
        permissions: ["accessCustomerPortal", "hostAdmin"],
      })
      .execute();
    const cookie = await cookieFor("admin@empty.example", "empty.localhost");
    for (const kind of EMAIL_PREVIEWS) {
      const response = await get(kind, cookie, "empty.localhost");
      expect(response.status, kind).toBe(200);
      const html = await response.text();
      expect(html).toContain("Empty Shelf Traders");
      expect(html).toContain(kind === "receipt" ? "SPECIMEN-INV-1" : "Specimen customer (SPECIMEN-1)");
      for (const other of [...accounts.acme!, ...accounts.kiwi!]) expect(html).not.toContain(other.number);
    }
  });

  it("is not found for anyone but a host admin of the host's business, and for an unknown kind", async () => {
    expect((await get("request", cookies.customer)).status).toBe(404);
    // Kiwi's admin's session is Kiwi's: on Acme's host it is no session at all.
    expect((await get("request", cookies.kiwiAdmin)).status).not.toBe(200);
    expect((await get("request", undefined)).status).not.toBe(200);
    for (const kind of ["unknown", "REQUEST", "request.html", "x".repeat(500)]) {
      expect((await get(kind, cookies.admin)).status, kind).toBe(404);
    }
  });
}

describe("email previews on PGlite", () => {
  previewSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, drop: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("email previews on PostgreSQL (TEST_DATABASE_URL)", () => {
  previewSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, drop: database.drop };
  });
});
