import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINK_PREVIEW_KINDS, PREVIEW_PAGES } from "~/lib/brand-preview";
import * as root from "~/root";
import { createSession } from "~/services/auth/session.server";
import { pageToggles } from "~/services/host/language.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import * as brandAssets from "../../_public+/brand-assets.$versionId.$file";
import * as signin from "../../_public+/auth+/signin";
import * as branding from "./_index";
import * as pagePreview from "./preview.page.$kind";
import * as preview from "./preview._index";

/**
 * The brand preview of the pages contacts open from an email, and the signed-out sign-in frame
 * (issue 32; decision 082), through their loaders and actions with real requests on the seeded
 * database (embedded, and PostgreSQL when TEST_DATABASE_URL is set): a host admin previewing a
 * draft sees their own business's records with the draft's stylesheet and the signed-out shell;
 * another business's admin never sees them; anyone else gets 404; nothing is written, and no
 * form of a preview pays or accepts.
 */
const ACME = "acme.localhost";
const KIWI = "kiwi.localhost";
/** A brand colour dark enough to pass every contrast pair (the form refuses one that does not). */
const DRAFT_COLOUR = "#6b2e8f";

type Answer = { status: number; location: string | null; body: unknown };

async function answer(run: () => Promise<unknown>): Promise<Answer> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get("location"), body: await result.text() };
  }
  const withInit = result as { data?: unknown; init?: { status?: number } | null };
  if (withInit && typeof withInit === "object" && "init" in withInit) {
    return { status: withInit.init?.status ?? 200, location: null, body: withInit.data };
  }
  return { status: 200, location: null, body: result };
}

function get(path: string, cookie?: string, host = ACME) {
  return new Request(`http://${host}${path}`, { headers: { host, ...(cookie ? { cookie } : {}) } });
}

function post(path: string, body: FormData | URLSearchParams, cookie: string, host = ACME, origin = `http://${host}`) {
  return new Request(`http://${host}${path}`, { method: "POST", headers: { host, origin, cookie }, body });
}

type Loader = { loader: (args: LoaderFunctionArgs) => Promise<unknown> };
type Action = { action: (args: ActionFunctionArgs) => Promise<unknown> };
const load = (module: Loader, request: Request, params = {}) =>
  answer(() => module.loader({ request, params, context: {} }));
const act = (module: Action, request: Request, params = {}) =>
  answer(() => module.action({ request, params, context: {} }));

type PreviewBody = {
  businessName: string;
  running: boolean;
  preview: { kind: string; source?: string; of?: string; page?: Record<string, unknown> } | null;
};
type RootBody = {
  user: unknown;
  accounts: { items: unknown[] };
  brand: { preview: boolean; customCss: string | null };
};

function suite(name: string, open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  describe(name, () => {
    let handle: DatabaseHandle;
    let close: () => Promise<void>;
    const cookies = { admin: "", adminElsewhere: "", customer: "", kiwiAdmin: "" };
    const drafts = { acme: "", kiwi: "" };
    const businesses = { acme: "", kiwi: "" };

    async function cookieFor(email: string, host: string) {
      const contact = await handle.db
        .selectFrom("contacts")
        .select(["id", "business_id"])
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      const setCookie = await createSession(new Request(`http://${host}/`, { headers: { host } }), {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      });
      return setCookie.split(";")[0]!;
    }

    /** Saves a draft with DRAFT_COLOUR as the host admin, and starts that admin session's preview of it. */
    async function draftAndPreview(cookie: string, host: string, businessName: string) {
      const form = new FormData();
      for (const [field, value] of Object.entries({
        intent: "save",
        theme: "custom",
        brandColour: DRAFT_COLOUR,
        businessName,
      })) {
        form.append(field, value);
      }
      const saved = await act(branding, post("/admin/branding", form, cookie, host));
      expect(saved.status, JSON.stringify(saved.body)).toBe(302);
      const page = (await load(branding, get("/admin/branding", cookie, host))).body as {
        draft: { versionId: string };
      };
      const started = await act(
        preview,
        post(
          "/admin/branding/preview",
          new URLSearchParams({ intent: "start", versionId: page.draft.versionId }),
          cookie,
          host,
        ),
      );
      expect(started).toMatchObject({ status: 302, location: "/admin/branding/preview" });
      return page.draft.versionId;
    }

    /** Rows in every table but the sessions', and the columns a link page's opening would change. */
    async function fingerprint() {
      const tables = await sql<{ table_name: string }>`
        SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'sessions'
        ORDER BY table_name`.execute(handle.db);
      const counts: Record<string, number> = {};
      for (const { table_name } of tables.rows) {
        const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table_name)}`.execute(
          handle.db,
        );
        counts[table_name] = Number(row.rows[0]!.n);
      }
      const opened = await sql<{ opens: number; requests: number; offers: number }>`
        SELECT (SELECT coalesce(sum(open_count), 0)::int FROM link_tokens) AS opens,
               (SELECT count(opened_at)::int FROM payment_requests) AS requests,
               (SELECT count(*)::int FROM agreement_offers WHERE status <> 'offered') AS offers`.execute(handle.db);
      return { counts, ...opened.rows[0] };
    }

    const previewOf = async (kind: string, cookie: string, host = ACME) => {
      const answered = await load(pagePreview, get(`/admin/branding/preview/page/${kind}`, cookie, host), { kind });
      expect(answered.status).toBe(200);
      return answered.body as PreviewBody;
    };

    beforeAll(async () => {
      ({ handle, close } = await open());
      setDatabaseForTesting(handle);
      for (const [key, host] of [
        ["acme", ACME],
        ["kiwi", KIWI],
      ] as const) {
        businesses[key] = (
          await handle.db
            .selectFrom("hosts")
            .select("business_id")
            .where("hostname", "=", host)
            .executeTakeFirstOrThrow()
        ).business_id;
      }
      cookies.admin = await cookieFor("admin@acme.example", ACME);
      // The same admin in another browser: no preview running there.
      cookies.adminElsewhere = await cookieFor("admin@acme.example", ACME);
      cookies.customer = await cookieFor("olivia@coastal.example", ACME);
      cookies.kiwiAdmin = await cookieFor("admin@kiwi.example", KIWI);
      drafts.acme = await draftAndPreview(cookies.admin, ACME, "Acme Plumbing Supplies");
      drafts.kiwi = await draftAndPreview(cookies.kiwiAdmin, KIWI, "Kiwi Freight Co.");
    }, 120_000);
    afterAll(async () => {
      setDatabaseForTesting(undefined);
      await close();
    });

    it("offers each emailed link's page in the preview's picker", () => {
      for (const kind of LINK_PREVIEW_KINDS) {
        expect(PREVIEW_PAGES[kind]).toBe(`/admin/branding/preview/page/${kind}`);
      }
      expect(PREVIEW_PAGES.signin).toBe("/auth/signin?preview=signed-out");
    });

    it("the request link page: Acme's own open request, the draft's stylesheet, the signed-out shell, no token", async () => {
      const body = await previewOf("request", cookies.admin);
      expect(body.running).toBe(true);
      expect(body.preview?.kind).toBe("request");
      const page = body.preview!.page as { kind: string; businessName: string; invoices: { href: string }[] };
      expect(page.kind).toBe("open");
      expect(page.businessName).toBe("Acme Plumbing Supplies");
      const request = await handle.db
        .selectFrom("payment_requests")
        .select(["business_id", "status"])
        .where("reference", "=", body.preview!.source!)
        .executeTakeFirstOrThrow();
      expect(request.business_id).toBe(businesses.acme);
      expect(["created", "sent"]).toContain(request.status);
      // No link token anywhere: the invoices' pages open only under one, so they lead nowhere here.
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/\/customer\/payment-request\/[^/"]+/);
      expect(page.invoices.every((invoice) => invoice.href === "#")).toBe(true);

      const shell = (await load(root, get("/admin/branding/preview/page/request", cookies.admin))).body as RootBody;
      expect(shell.user).toBeNull();
      expect(shell.accounts.items).toEqual([]);
      expect(shell.brand.preview).toBe(true);
      expect(shell.brand.customCss).toBe(`/brand-assets/${drafts.acme}/theme.css`);
      const css = await load(brandAssets, get(shell.brand.customCss!, cookies.admin), {
        versionId: drafts.acme,
        file: "theme.css",
      });
      expect(css.status).toBe(200);
      expect(String(css.body)).toContain(DRAFT_COLOUR);
    });

    it("the ad-hoc, schedule and agreement link pages: Acme's own records, as their links open them", async () => {
      const adhoc = await previewOf("adhoc", cookies.admin);
      expect(adhoc.preview?.kind).toBe("adhoc");
      const account = await handle.db
        .selectFrom("accounts")
        .select("business_id")
        .where("number", "=", adhoc.preview!.source!)
        .where("business_id", "=", businesses.acme)
        .executeTakeFirst();
      expect(account).toBeDefined();
      expect(adhoc.preview!.page).toMatchObject({ kind: "open", businessName: "Acme Plumbing Supplies" });
      // A link's payer: a new card only, nothing saved.
      expect(adhoc.preview!.page).toMatchObject({ methods: { cards: [], saveCard: false } });

      const schedule = await previewOf("schedule", cookies.admin);
      expect(schedule.preview).toMatchObject({ kind: "schedule", page: { kind: "review", mode: "link" } });
      const scheduleRow = await handle.db
        .selectFrom("payment_schedules")
        .select("business_id")
        .where("reference", "=", schedule.preview!.source!)
        .executeTakeFirstOrThrow();
      expect(scheduleRow.business_id).toBe(businesses.acme);

      const agreement = await previewOf("agreement", cookies.admin);
      expect(agreement.preview).toMatchObject({ kind: "agreement", page: { kind: "open" } });
      const offer = await handle.db
        .selectFrom("agreement_offers")
        .select("business_id")
        .where("reference", "=", agreement.preview!.source!)
        .executeTakeFirstOrThrow();
      expect(offer.business_id).toBe(businesses.acme);
      expect(JSON.stringify([adhoc, schedule, agreement])).not.toMatch(
        /\/(customer\/adhoc|payment-schedule\/acceptance|agreements\/acceptance)\/(?!PS-|AG-)[^/"?]+/,
      );
    });

    it("Kiwi's admin sees Kiwi's records with Kiwi's draft, never Acme's", async () => {
      for (const kind of LINK_PREVIEW_KINDS) {
        const body = await previewOf(kind, cookies.kiwiAdmin, KIWI);
        expect(body.businessName).toBe("Kiwi Freight Co.");
        const text = JSON.stringify(body);
        expect(text, kind).not.toContain("Acme");
        expect(text, kind).not.toContain("acme.");
      }
      const request = await previewOf("request", cookies.kiwiAdmin, KIWI);
      if (request.preview?.kind === "request") {
        const row = await handle.db
          .selectFrom("payment_requests")
          .select("business_id")
          .where("reference", "=", request.preview.source!)
          .executeTakeFirstOrThrow();
        expect(row.business_id).toBe(businesses.kiwi);
      }
      const shell = (await load(root, get("/admin/branding/preview/page/adhoc", cookies.kiwiAdmin, KIWI), {}))
        .body as RootBody;
      expect(shell.brand.customCss).toBe(`/brand-assets/${drafts.kiwi}/theme.css`);
      // Acme's draft is not Kiwi's to load, by its host or by Kiwi's admin.
      const acmeDraftOnKiwi = await load(
        brandAssets,
        get(`/brand-assets/${drafts.acme}/theme.css`, cookies.kiwiAdmin, KIWI),
        {
          versionId: drafts.acme,
          file: "theme.css",
        },
      );
      expect(acmeDraftOnKiwi.status).toBe(404);
    });

    it("anyone else gets 404 (or is sent to sign in), in the loader and the action", async () => {
      for (const kind of LINK_PREVIEW_KINDS) {
        const path = `/admin/branding/preview/page/${kind}`;
        expect((await load(pagePreview, get(path, cookies.customer), { kind })).status).toBe(404);
        expect((await act(pagePreview, post(path, new FormData(), cookies.customer), { kind })).status).toBe(404);
        // Kiwi's admin has no session on Acme's host: a visitor there.
        const kiwiOnAcme = await load(pagePreview, get(path, cookies.kiwiAdmin), { kind });
        expect(kiwiOnAcme.status).toBeGreaterThanOrEqual(300);
        expect(kiwiOnAcme.status).toBeLessThan(500);
        expect(JSON.stringify(kiwiOnAcme.body ?? "")).not.toContain("Acme Plumbing");
        const visitor = await load(pagePreview, get(path), { kind });
        expect(visitor.status).toBe(302);
        expect(visitor.location).toMatch(/^\/auth\/signin/);
      }
    });

    it("an unknown kind is 404, in the loader and the action", async () => {
      for (const kind of ["invoice", "REQUEST", "../request", ""]) {
        const path = `/admin/branding/preview/page/${encodeURIComponent(kind)}`;
        expect((await load(pagePreview, get(path, cookies.admin), { kind })).status).toBe(404);
        expect((await act(pagePreview, post(path, new FormData(), cookies.admin), { kind })).status).toBe(404);
      }
    });

    it("with no preview running, says so: no page, no 500, the admin's own shell", async () => {
      for (const kind of LINK_PREVIEW_KINDS) {
        const body = await previewOf(kind, cookies.adminElsewhere);
        expect(body).toMatchObject({ running: false, preview: null, businessName: "Acme Plumbing Supplies" });
      }
      const shell = (await load(root, get("/admin/branding/preview/page/request", cookies.adminElsewhere)))
        .body as RootBody;
      expect(shell.user).not.toBeNull();
      expect(shell.brand.preview).toBe(false);
      // The preview page offers to preview the saved draft in one tap, and nothing to stop or publish.
      const page = (await load(preview, get("/admin/branding/preview", cookies.adminElsewhere))).body as {
        versionId: string | null;
        draftToStart: string | null;
        publish: unknown;
      };
      expect(page).toMatchObject({ versionId: null, draftToStart: drafts.acme, publish: null });
      // The session previewing it is offered nothing to start.
      const running = (await load(preview, get("/admin/branding/preview", cookies.admin))).body as {
        versionId: string | null;
        draftToStart: string | null;
      };
      expect(running).toMatchObject({ versionId: drafts.acme, draftToStart: null });
    });

    it("a business with nothing to show gets a message, not a 500", async () => {
      // Kiwi with no open request for a moment; its requests are put back as they were after.
      const requests = await handle.db
        .selectFrom("payment_requests")
        .select(["id", "status"])
        .where("business_id", "=", businesses.kiwi)
        .execute();
      await handle.db
        .updateTable("payment_requests")
        .set({ status: "cancelled" })
        .where("business_id", "=", businesses.kiwi)
        .execute();
      try {
        const body = await previewOf("request", cookies.kiwiAdmin, KIWI);
        expect(body.preview).toEqual({ kind: "empty", of: "request" });
      } finally {
        for (const { id, status } of requests) {
          await handle.db.updateTable("payment_requests").set({ status }).where("id", "=", id).execute();
        }
      }
    });

    it("opening every preview writes nothing: no link opened, no request marked, no PayID, no mail, no job", async () => {
      // Acme's accounts with no PayID yet: a link page would register one on opening; a preview must not.
      await handle.db.deleteFrom("payto_payids").where("business_id", "=", businesses.acme).execute();
      const before = await fingerprint();
      for (const kind of LINK_PREVIEW_KINDS) {
        await previewOf(kind, cookies.admin);
        await load(root, get(`/admin/branding/preview/page/${kind}`, cookies.admin));
      }
      expect(await fingerprint()).toEqual(before);
    });

    it("no form of a preview pays or accepts: every post is refused and nothing is written", async () => {
      const before = await fingerprint();
      const posts: [string, Record<string, string>][] = [
        [
          "request",
          {
            requestGuid: crypto.randomUUID(),
            method: "new",
            cardNumber: "4111 1111 1111 1111",
            expiry: "12/30",
            cvn: "123",
            cardholderName: "Olivia Reid",
            intent: "pay",
          },
        ],
        ["request", { intent: "quote", amount: "10.00" }],
        ["adhoc", { requestGuid: crypto.randomUUID(), amount: "50.00", method: "new", intent: "pay" }],
        ["adhoc", { intent: "signIn", amount: "50.00" }],
        ["schedule", { intent: "accept" }],
        ["agreement", { typedName: "Olivia Reid", agreed: "on", intent: "accept", versionId: crypto.randomUUID() }],
      ];
      for (const [kind, fields] of posts) {
        const body = new FormData();
        for (const [field, value] of Object.entries(fields)) body.append(field, value);
        const refused = await act(pagePreview, post(`/admin/branding/preview/page/${kind}`, body, cookies.admin), {
          kind,
        });
        expect(refused.status, `${kind} ${fields.intent}`).toBe(403);
        expect(refused.body).toEqual({ refused: true });
      }
      // A cross-site post is turned away before anything else.
      const crossSite = await act(
        pagePreview,
        post("/admin/branding/preview/page/request", new FormData(), cookies.admin, ACME, "https://evil.example"),
        { kind: "request" },
      );
      expect(crossSite.status).toBe(403);
      expect(await fingerprint()).toEqual(before);
    });

    it("the sign-in frame is the signed-out page: no signed-in menu, the draft brand, the admin still signed in", async () => {
      const frame = get(PREVIEW_PAGES.signin, cookies.admin);
      const shell = (await load(root, frame)).body as RootBody;
      expect(shell.user).toBeNull();
      expect(shell.accounts.items).toEqual([]);
      expect(shell.brand).toMatchObject({ preview: true, customCss: `/brand-assets/${drafts.acme}/theme.css` });
      const page = await load(signin, get(PREVIEW_PAGES.signin, cookies.admin));
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ businessName: "Acme Plumbing Supplies", provider: "credentials" });
      // Still signed in: the same session, without the flag, has its shell.
      const admin = (await load(root, get("/admin/branding/preview", cookies.admin))).body as RootBody;
      expect(admin.user).toMatchObject({ email: "admin@acme.example" });
      // The flag is honoured only while this session previews a draft: a customer keeps their shell.
      const customer = (await load(root, get(PREVIEW_PAGES.signin, cookies.customer))).body as RootBody;
      expect(customer.user).not.toBeNull();
      const elsewhere = (await load(root, get(PREVIEW_PAGES.signin, cookies.adminElsewhere))).body as RootBody;
      expect(elsewhere.user).not.toBeNull();
    });

    it("the signed-out frame's page is built signed out too: no session, the business's toggles, not an account's", async () => {
      // The page's own loader and the shell read the same decision (pageToggles, once per request).
      const framed = await pageToggles(get(PREVIEW_PAGES.signin, cookies.admin));
      expect(framed).toMatchObject({ session: null, selectedId: null, accountId: null });
      const linkFrame = await pageToggles(get("/admin/branding/preview/page/schedule", cookies.admin));
      expect(linkFrame).toMatchObject({ session: null, accountId: null });
      // The same session on its own pages, and a session with no preview running, keep theirs.
      const own = await pageToggles(get("/admin/branding/preview", cookies.admin));
      expect(own.session?.contact.email).toBe("admin@acme.example");
      const elsewhere = await pageToggles(get(PREVIEW_PAGES.signin, cookies.adminElsewhere));
      expect(elsewhere.session?.contact.email).toBe("admin@acme.example");
      const customer = await pageToggles(get(PREVIEW_PAGES.signin, cookies.customer));
      expect(customer.session?.contact.email).toBe("olivia@coastal.example");
      expect(customer.accountId).not.toBeNull();
    });
  });
}

suite("embedded database", async () => {
  const handle = await openSeededPglite();
  return { handle, close: () => handle.close() };
});

if (TEST_DATABASE_URL) {
  suite("PostgreSQL", async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
}
