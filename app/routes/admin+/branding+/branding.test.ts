import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/services/auth/session.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import * as branding from "./_index";
import * as preview from "./preview._index";
import * as shared from "./preview.$versionId";

/**
 * The host admin's branding pages (issue 16), their loaders and actions called with real
 * requests on the seeded database: only a host admin of the host's own business gets in (404
 * for anyone else), a cross-site post is refused, and bad input gets a message at its field
 * and writes nothing.
 */
let handle: DatabaseHandle;
const ACME = "acme.localhost";
const KIWI = "kiwi.localhost";
const cookies: Record<string, string> = {};

async function cookieFor(email: string, host: string) {
  const contact = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  const request = new Request(`http://${host}/`, { headers: { host } });
  const setCookie = await createSession(request, {
    businessId: contact.business_id,
    contactId: contact.id,
    authMethod: "credentials",
  });
  return setCookie.split(";")[0]!;
}

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  cookies.admin = await cookieFor("admin@acme.example", ACME);
  cookies.customer = await cookieFor("olivia@coastal.example", ACME);
  cookies.kiwiAdmin = await cookieFor("admin@kiwi.example", KIWI);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

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

function get(path: string, cookie?: string, host = ACME) {
  return new Request(`http://${host}${path}`, { headers: { host, ...(cookie ? { cookie } : {}) } });
}

function post(path: string, body: FormData | URLSearchParams, options: { cookie?: string; origin?: string } = {}) {
  return new Request(`http://${ACME}${path}`, {
    method: "POST",
    headers: {
      host: ACME,
      origin: options.origin ?? `http://${ACME}`,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body,
  });
}

const load = (module: { loader: (args: LoaderFunctionArgs) => Promise<unknown> }, request: Request, params = {}) =>
  answer(() => module.loader({ request, params, context: {} }));
const act = (module: { action: (args: ActionFunctionArgs) => Promise<unknown> }, request: Request, params = {}) =>
  answer(() => module.action({ request, params, context: {} }));

const rows = async (table: "brand_versions" | "brand_drafts" | "brand_publications" | "brand_assets") =>
  Number(
    (
      await handle.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function snapshot() {
  return {
    versions: await rows("brand_versions"),
    drafts: await rows("brand_drafts"),
    publications: await rows("brand_publications"),
    assets: await rows("brand_assets"),
  };
}

function form(fields: Record<string, string>, files: Record<string, File> = {}) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, file] of Object.entries(files)) body.append(name, file);
  return body;
}

const fieldErrors = (body: unknown) =>
  ((body as { result?: { error?: Record<string, string[]> } } | null)?.result?.error ?? {}) as Record<string, string[]>;

describe("who may open /admin/branding", () => {
  it("a host admin of the host's business", async () => {
    const page = await load(branding, get("/admin/branding", cookies.admin));
    expect(page.status).toBe(200);
    expect((page.body as { published: { businessName: string } }).published.businessName).toBe(
      "Acme Plumbing Supplies",
    );
  });

  it("nobody else: a customer gets 404, a visitor signs in first, another host's admin has no session here", async () => {
    for (const module of [branding, preview]) {
      expect((await load(module, get("/admin/branding", cookies.customer))).status).toBe(404);
      const signedOut = await load(module, get("/admin/branding"));
      expect(signedOut.status).toBe(302);
      expect(signedOut.location).toMatch(/^\/auth\/signin\?/);
      // A Kiwi admin's cookie sent to Acme: sessions belong to one business.
      const foreign = await load(module, get("/admin/branding", cookies.kiwiAdmin));
      expect(foreign.status).toBe(302);
    }
    const before = await snapshot();
    const refused = await act(
      branding,
      post("/admin/branding", form({ intent: "save", theme: "crimson", businessName: "Taken" }), {
        cookie: cookies.customer,
      }),
    );
    expect(refused.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("a cross-site post is refused before anything is read", async () => {
    const before = await snapshot();
    const crossSite = await act(
      branding,
      post("/admin/branding", form({ intent: "save", theme: "crimson", businessName: "Evil" }), {
        cookie: cookies.admin,
        origin: "http://evil.example",
      }),
    );
    expect(crossSite.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });
});

describe("bad input changes nothing", () => {
  const bad: [string, Record<string, string>, Record<string, File>, string, string][] = [
    [
      "a colour like red;}",
      { theme: "custom", brandColour: "red;}" },
      {},
      "brandColour",
      "branding.error.colour.invalid",
    ],
    [
      "a colour like #12345",
      { theme: "custom", brandColour: "#12345" },
      {},
      "brandColour",
      "branding.error.colour.invalid",
    ],
    [
      "a colour too light to be the brand's",
      { theme: "custom", brandColour: "#ffee00" },
      {},
      "brandColour",
      "branding.error.colour.refused",
    ],
    ["an unknown theme", { theme: "neon" }, {}, "theme", "branding.error.theme.invalid"],
    [
      "a name one character too long",
      { theme: "crimson", businessName: "x".repeat(121) },
      {},
      "businessName",
      "branding.error.text.tooLong",
    ],
    [
      "a name with a bidirectional override",
      { theme: "crimson", businessName: "Acme\u202egnp" },
      {},
      "businessName",
      "branding.error.businessName.invalidText",
    ],
    [
      "a PNG that is really HTML",
      { theme: "crimson" },
      { logo: new File(["<html><script>alert(1)</script></html>"], "logo.png", { type: "image/png" }) },
      "logo",
      "branding.error.upload.notImage",
    ],
    [
      "an SVG with a script",
      { theme: "crimson" },
      {
        favicon: new File(
          ['<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><script>alert(1)</script></svg>'],
          "favicon.svg",
          { type: "image/svg+xml" },
        ),
      },
      "favicon",
      "branding.error.upload.svgUnsafe",
    ],
  ];
  for (const [name, fields, files, field, message] of bad) {
    it(name, async () => {
      const before = await snapshot();
      const result = await act(
        branding,
        post(
          "/admin/branding",
          form({ intent: "save", businessName: "Acme Plumbing Supplies", label: "", ...fields }, files),
          { cookie: cookies.admin },
        ),
      );
      expect(result.status).toBe(400);
      expect(fieldErrors(result.body)[field]).toEqual([message]);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("a refused colour offers the nearest that passes; 'Use it and save' saves the draft with it", async () => {
    const refused = await act(
      branding,
      post(
        "/admin/branding",
        form({ intent: "save", theme: "custom", brandColour: "#ffee00", businessName: "Acme Plumbing Supplies" }),
        { cookie: cookies.admin },
      ),
    );
    expect(refused.status).toBe(400);
    const suggestion = (refused.body as { suggestion: string | null }).suggestion;
    expect(suggestion).toMatch(/^#[0-9a-f]{6}$/);
    // What the page posts when "Use #… and save" is tapped: the form as it was, the suggestion, that intent.
    const used = await act(
      branding,
      post(
        "/admin/branding",
        form({
          intent: "useSuggestion",
          theme: "custom",
          brandColour: "#ffee00",
          suggestedColour: suggestion!,
          businessName: "Acme Plumbing Supplies",
        }),
        { cookie: cookies.admin },
      ),
    );
    expect(used).toMatchObject({ status: 302, location: "/admin/branding?done=saved" });
    const view = (await load(branding, get("/admin/branding", cookies.admin))).body as {
      draft: { brandColour: string | null } | null;
    };
    expect(view.draft?.brandColour).toBe(suggestion);
    // A made-up "suggestion" is only a colour like any other: checked, and refused if it fails.
    const before = await snapshot();
    const madeUp = await act(
      branding,
      post(
        "/admin/branding",
        form({ intent: "useSuggestion", suggestedColour: "#ffff00", businessName: "Acme Plumbing Supplies" }),
        { cookie: cookies.admin },
      ),
    );
    expect(madeUp.status).toBe(400);
    expect(fieldErrors(madeUp.body).brandColour).toEqual(["branding.error.colour.refused"]);
    expect(await snapshot()).toEqual(before);
  });

  it("a 500-character name no browser sends (the field has maxLength 120) is refused by the form limits", async () => {
    const before = await snapshot();
    const result = await act(
      branding,
      post("/admin/branding", form({ intent: "save", theme: "crimson", businessName: "x".repeat(500) }), {
        cookie: cookies.admin,
      }),
    );
    expect(result.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it("an unknown intent, a stale publish and another business's publication", async () => {
    const before = await snapshot();
    const unknown = await act(branding, post("/admin/branding", form({ intent: "drop" }), { cookie: cookies.admin }));
    expect(unknown.status).toBe(400);
    const stale = await act(
      branding,
      post("/admin/branding", new URLSearchParams({ intent: "publish", draftId: crypto.randomUUID() }), {
        cookie: cookies.admin,
      }),
    );
    expect(stale.status).toBe(409);
    const restore = await act(
      branding,
      post("/admin/branding", new URLSearchParams({ intent: "restore", publicationId: crypto.randomUUID() }), {
        cookie: cookies.admin,
      }),
    );
    expect(restore.status).toBe(409);
    expect((restore.body as { formError: string }).formError).toBe("branding.error.publish.notFound");
    expect(await snapshot()).toEqual(before);
  });
});

describe("a draft, its preview link, publish and restore", () => {
  it("saves markup as text, shares the preview only within the business, publishes and restores", async () => {
    const saved = await act(
      branding,
      post("/admin/branding", form({ intent: "save", theme: "crimson", businessName: "<b>Acme</b> & Co", label: "" }), {
        cookie: cookies.admin,
      }),
    );
    expect(saved).toMatchObject({ status: 302, location: "/admin/branding?done=saved" });
    const page = (await load(branding, get("/admin/branding", cookies.admin))).body as {
      draft: { versionId: string; businessName: string };
      changes: { field: string; from: string; to: string }[];
    };
    expect(page.draft.businessName).toBe("<b>Acme</b> & Co");
    expect(page.changes).toContainEqual({ field: "look", from: "theme:navy-blue", to: "theme:crimson" });

    // The share link: this business's draft opens; on Kiwi, or not a version id, it is not found.
    const link = `/admin/branding/preview/${page.draft.versionId}`;
    expect((await load(shared, get(link, cookies.admin), { versionId: page.draft.versionId })).status).toBe(200);
    const onKiwi = await load(shared, get(link, cookies.kiwiAdmin, KIWI), { versionId: page.draft.versionId });
    expect(onKiwi.status).toBe(404);
    expect((await load(shared, get("/admin/branding/preview/x", cookies.admin), { versionId: "x" })).status).toBe(404);

    const published = await act(
      branding,
      post("/admin/branding", new URLSearchParams({ intent: "publish", draftId: page.draft.versionId }), {
        cookie: cookies.admin,
      }),
    );
    expect(published).toMatchObject({ status: 302, location: "/admin/branding?done=published" });
    const live = await handle.db
      .selectFrom("businesses")
      .select(["theme", "name"])
      .where("name", "=", "<b>Acme</b> & Co")
      .executeTakeFirstOrThrow();
    expect(live.theme).toBe("crimson");

    const view = (await load(branding, get("/admin/branding", cookies.admin))).body as {
      published: { versionId: string };
      history: { id: string; restorable: boolean }[];
    };
    const after = { ...view, liveId: view.published.versionId };
    expect(after.history[0]!.restorable).toBe(true);
    // The page a restore came from showed another live brand (another admin published since): refused.
    const stale = await act(
      branding,
      post(
        "/admin/branding",
        new URLSearchParams({ intent: "restore", publicationId: after.history[0]!.id, liveVersionId: "" }),
        { cookie: cookies.admin },
      ),
    );
    expect(stale.status).toBe(409);
    expect((stale.body as { formError: string }).formError).toBe("branding.error.restore.stale");
    const restored = await act(
      branding,
      post(
        "/admin/branding",
        new URLSearchParams({ intent: "restore", publicationId: after.history[0]!.id, liveVersionId: after.liveId }),
        { cookie: cookies.admin },
      ),
    );
    expect(restored).toMatchObject({ status: 302, location: "/admin/branding?done=restored" });
    const back = await handle.db
      .selectFrom("businesses")
      .select(["theme", "name"])
      .where("name", "=", "Acme Plumbing Supplies")
      .executeTakeFirstOrThrow();
    expect(back.theme).toBe("navy-blue");
  });
});
