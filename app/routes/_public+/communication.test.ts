import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_API_KEYS } from "../../../db/seed/demo";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { openSeededPglite } from "../../../tests/support/test-db";
import { createApiKey } from "~/services/backoffice/api-keys.server";
import { createSession } from "~/services/auth/session.server";
import { signLink } from "~/services/communication/preference-links.server";
import {
  changePreferences,
  countPreferenceChanges,
  readPreferences,
} from "~/services/communication/preferences.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import { createPaymentRequest } from "~/services/requests/commands.server";
import { sendPaymentRequest } from "~/services/requests/sending.server";
import * as apiCommunication from "../api+/back-office+/contacts_.$contact_.communication";
import * as apiVerb from "../api+/back-office+/payment-requests_.$id_.$verb";
import * as signedIn from "./communication";
import * as byLink from "../_link+/communication_.$token";
import * as unsubscribe from "../_link+/communication_.unsubscribe";

/**
 * The preference centre's routes with real Requests (issue 17; decision 039): signed in, by a
 * signed link, and RFC 8058 one-click unsubscribe; then the back-office API's read, record and
 * remind. Hostile input — unknown choices, HTML, huge bodies, another contact's id, tampered or
 * another host's links, cross-site posts — gets a clear answer and changes nothing.
 */
const HOST = "acme.localhost:3000";
const ORIGIN = `http://${HOST}`;
const ACME_KEY = DEMO_API_KEYS["acme.localhost"]!;

let handle: DatabaseHandle;
let catcher: SmtpCatcher;
let acme = "";
let kiwi = "";
const ids: Record<string, string> = {};
const cookies: Record<string, string> = {};

// Loaders and actions take Remix's own argument type; the tests pass a real Request and params.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => unknown;
type Answer = { status: number; location: string | null; data: unknown; headers: Headers | null };

/** Runs a loader or action; thrown answers are answers too. */
async function run(handler: Handler, request: Request, params: Record<string, string> = {}): Promise<Answer> {
  let result: unknown;
  try {
    result = await handler({ request, params, context: {} });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) {
    const text = await result.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      /* a plain body */
    }
    return { status: result.status, location: result.headers.get("location"), data, headers: result.headers };
  }
  const init = result as { type?: string; data?: unknown; init?: { status?: number; headers?: HeadersInit } } | null;
  if (init?.type === "DataWithResponseInit") {
    return {
      status: init.init?.status ?? 200,
      location: null,
      data: init.data,
      headers: new Headers(init.init?.headers),
    };
  }
  if (result instanceof Error) throw result;
  return { status: 200, location: null, data: result, headers: null };
}

function get(path: string, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, { headers: { host: HOST, ...headers } });
}

function post(path: string, body: string | FormData, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      host: HOST,
      ...(typeof body === "string" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      ...headers,
    },
    body,
  });
}

const form = (pairs: [string, string][]) => new URLSearchParams(pairs).toString();
const sameOrigin = { origin: ORIGIN };

/** Everything stored about these contacts' preferences, to show nothing changed. */
async function snapshot(...contactIds: string[]) {
  return Promise.all(
    contactIds.map(async (id) => ({
      choices: (await readPreferences(acme, id))?.choices,
      changes: await countPreferenceChanges(handle.db, acme, id),
    })),
  );
}

/** A verified contact of Acme of the test's own, with no choices yet. */
async function newContact(email: string) {
  return handle.db
    .insertInto("contacts")
    .values({
      business_id: acme,
      email,
      first_name: "Ollie",
      last_name: "Offers",
      position: "Buyer",
      verified_at: new Date(),
      permissions: ["accessCustomerPortal"],
      password_hash: null,
      external_subject: null,
      disabled_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

const enabled = async (contactId: string, key: string) =>
  (await readPreferences(acme, contactId))!.choices.find((c) => `${c.topic}.${c.channel}` === key)!.enabled;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  catcher = await startSmtpCatcher();
  for (const [who, email] of [
    ["olivia", "olivia@coastal.example"],
    ["sam", "sam@coastal.example"],
    ["noah", "new@coastal.example"],
    ["admin", "admin@acme.example"],
    ["aroha", "aroha@orchards.example"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    ids[who] = contact.id;
    if (who === "aroha") kiwi = contact.business_id;
    else acme = contact.business_id;
    if (who === "aroha") continue;
    cookies[who] = (
      await createSession(get("/"), {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
  }
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
  await catcher.close();
  delete process.env.SMTP_URL;
  resetEnvForTesting();
});
beforeEach(() => {
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});

describe("/communication signed in", () => {
  it("signed out: says how to get here, and a POST goes to sign-in", async () => {
    const page = await run(signedIn.loader, get("/communication"));
    expect(page.data).toMatchObject({ kind: "signed-out", signInHref: "/auth/signin?callbackUrl=%2Fcommunication" });
    const posted = await run(signedIn.action, post("/communication", form([["intent", "save"]]), sameOrigin));
    expect(posted.status).toBe(302);
    expect(posted.location).toMatch(/^\/auth\/signin\?/);
  });

  it("shows the signed-in contact's own preferences, saves a change (POST/redirect/GET) and keeps it as history", async () => {
    const page = await run(signedIn.loader, get("/communication", { cookie: cookies.sam! }));
    expect(page.data).toMatchObject({ kind: "preferences", way: "session", email: "sam@coastal.example", error: null });
    const saved = await run(
      signedIn.action,
      post(
        "/communication",
        form([
          ["pref", "statements.email"],
          ["pref", "statements.post"],
          ["pref", "invoices.email"],
          ["pref", "reminders.email"],
          ["intent", "save"],
        ]),
        { ...sameOrigin, cookie: cookies.sam! },
      ),
    );
    expect(saved).toMatchObject({ status: 302, location: "/communication?saved=1" });
    expect(await enabled(ids.sam!, "statements.post")).toBe(true);
    const after = await run(signedIn.loader, get("/communication?saved=1", { cookie: cookies.sam! }));
    expect(after.data).toMatchObject({
      notice: "saved",
      history: [{ topic: "statements", channel: "post", enabled: true, via: "portal" }],
    });
    // The same form again changes nothing, and says so.
    const again = await run(
      signedIn.action,
      post(
        "/communication",
        form([
          ["pref", "statements.email"],
          ["pref", "statements.post"],
          ["pref", "invoices.email"],
          ["pref", "reminders.email"],
          ["intent", "save"],
        ]),
        { ...sameOrigin, cookie: cookies.sam! },
      ),
    );
    expect(again.location).toBe("/communication?unchanged=1");
    expect(await countPreferenceChanges(handle.db, acme, ids.sam!)).toBe(1);
  });

  it("refuses hostile forms whole: unknown choices, receipts, HTML, another contact's id, a second intent, huge bodies, other sites", async () => {
    const before = await snapshot(ids.olivia!, ids.noah!);
    const hostile: [string, string][][] = [
      [
        ["pref", "receipts.email"],
        ["intent", "save"],
      ],
      [
        ["pref", "reminders.post"],
        ["intent", "save"],
      ],
      [
        ["pref", "statements.sms"],
        ["intent", "save"],
      ],
      [
        ["pref", "<script>alert(1)</script>"],
        ["intent", "save"],
      ],
      [
        ["pref", "statements.email' OR 1=1 --"],
        ["intent", "save"],
      ],
      [
        ["pref", "marketing.email"],
        ["contact", ids.noah!],
        ["intent", "save"],
      ],
      [
        ["pref", "marketing.email"],
        ["contactId", ids.noah!],
        ["intent", "save"],
      ],
      [
        ["pref", "marketing.email"],
        ["intent", "save"],
        ["intent", "save"],
      ],
      [["pref", "marketing.email"]],
      [
        ["pref", "marketing.email"],
        ["intent", "delete"],
      ],
      [
        ["pref", "статьи.email"],
        ["intent", "save"],
      ],
    ];
    for (const pairs of hostile) {
      const answer = await run(
        signedIn.action,
        post("/communication", form(pairs), { ...sameOrigin, cookie: cookies.olivia! }),
      );
      expect(answer.status, JSON.stringify(pairs)).toBe(400);
      expect(answer.data).toMatchObject({ kind: "preferences", error: "unknown", email: "olivia@coastal.example" });
    }
    const huge = await run(
      signedIn.action,
      post("/communication", `pref=marketing.email&intent=save&pad=${"x".repeat(70_000)}`, {
        ...sameOrigin,
        cookie: cookies.olivia!,
      }),
    );
    expect(huge.status).toBe(413);
    const notAForm = await run(
      signedIn.action,
      post("/communication", JSON.stringify({ pref: "marketing.email" }), {
        ...sameOrigin,
        cookie: cookies.olivia!,
        "content-type": "application/json",
      }),
    );
    expect(notAForm.status).toBe(415);
    for (const origin of ["http://evil.example", "http://kiwi.localhost:3000", "null"]) {
      const crossSite = await run(
        signedIn.action,
        post(
          "/communication",
          form([
            ["pref", "marketing.email"],
            ["intent", "save"],
          ]),
          { origin, cookie: cookies.olivia! },
        ),
      );
      expect(crossSite.status).toBe(403);
    }
    expect(await snapshot(ids.olivia!, ids.noah!)).toEqual(before);
  });

  it("an unconfirmed email address is asked to confirm first, and cannot change anything", async () => {
    const page = await run(signedIn.loader, get("/communication", { cookie: cookies.noah! }));
    expect(page.data).toMatchObject({ kind: "unverified" });
    const before = await snapshot(ids.noah!);
    const posted = await run(
      signedIn.action,
      post(
        "/communication",
        form([
          ["pref", "marketing.email"],
          ["intent", "save"],
        ]),
        { ...sameOrigin, cookie: cookies.noah! },
      ),
    );
    expect(posted.status).toBe(403);
    expect(await snapshot(ids.noah!)).toEqual(before);
  });
});

describe("/communication/<token> by signed link", () => {
  it("opens the link's contact's preferences with no session, and saves a change as made by link", async () => {
    const token = signLink(acme, ids.admin!, { kind: "preferences" });
    const page = await run(byLink.loader, get(`/communication/${token}`), { token });
    expect(page.status).toBe(200);
    expect(page.headers?.get("referrer-policy")).toBe("strict-origin");
    expect(page.headers?.get("cache-control")).toBe("private, no-store");
    expect(page.data).toMatchObject({ kind: "preferences", way: "link", email: "admin@acme.example" });
    // Only the contact's preferences: nothing of an account.
    expect(JSON.stringify(page.data)).not.toMatch(/ACME-|account/i);
    const saved = await run(
      byLink.action,
      post(
        `/communication/${token}`,
        form([
          ["pref", "statements.post"],
          ["pref", "reminders.email"],
          ["intent", "save"],
        ]),
        sameOrigin,
      ),
      { token },
    );
    expect(saved).toMatchObject({ status: 302, location: `/communication/${token}?saved=1` });
    const view = (await readPreferences(acme, ids.admin!))!;
    expect(view.choices.filter((c) => c.enabled).map((c) => `${c.topic}.${c.channel}`)).toEqual([
      "statements.post",
      "reminders.email",
    ]);
    expect(view.history.map((h) => `${h.topic}.${h.channel}=${h.enabled}/${h.via}`).sort()).toEqual([
      "invoices.email=false/link",
      "statements.email=false/link",
      "statements.post=true/link",
    ]);
  });

  it("news and offers: the link turns them off but never on; while off it shows how to sign in instead of a box", async () => {
    const who = await newContact("offers-link@coastal.example");
    const token = signLink(acme, who.id, { kind: "preferences" });
    const open = async () => (await run(byLink.loader, get(`/communication/${token}`), { token })).data as never;
    const marketingOf = (page: { topics: { topic: string; channels: unknown[] }[] }) =>
      page.topics.find((t) => t.topic === "marketing")!.channels;
    const save = (pairs: [string, string][]) =>
      run(byLink.action, post(`/communication/${token}`, form([...pairs, ["intent", "save"]]), sameOrigin), { token });
    const everyEmail: [string, string][] = [
      ["pref", "statements.email"],
      ["pref", "invoices.email"],
      ["pref", "reminders.email"],
    ];

    // Off (the default): no box, but how to sign in to choose them.
    expect(marketingOf(await open())).toEqual([{ channel: "email", enabled: false, signInToEnable: true }]);
    expect(await open()).toMatchObject({ signInHref: "/auth/signin?callbackUrl=%2Fcommunication", refused: [] });
    // A form turning them on anyway (made by hand, or a page loaded before they were turned off
    // elsewhere) is refused whole, another change with it too, and says why at the group.
    const before = await snapshot(who.id);
    const refused = await save([...everyEmail, ["pref", "statements.post"], ["pref", "marketing.email"]]);
    expect(refused.status).toBe(400);
    expect(refused.headers?.get("referrer-policy")).toBe("strict-origin");
    expect(refused.data).toMatchObject({
      kind: "preferences",
      way: "link",
      error: "sign-in-to-opt-in",
      refused: ["marketing"],
      notice: null,
    });
    expect(await snapshot(who.id)).toEqual(before);

    // Signed in, the contact turns them on; the link page then shows the box, and may turn it off.
    const cookie = (
      await createSession(get("/"), { businessId: acme, contactId: who.id, authMethod: "credentials" })
    ).split(";")[0]!;
    const signedInSave = await run(
      signedIn.action,
      post("/communication", form([...everyEmail, ["pref", "marketing.email"], ["intent", "save"]]), {
        ...sameOrigin,
        cookie,
      }),
    );
    expect(signedInSave).toMatchObject({ status: 302, location: "/communication?saved=1" });
    expect(marketingOf(await open())).toEqual([{ channel: "email", enabled: true, signInToEnable: false }]);
    expect((await save([...everyEmail, ["pref", "marketing.email"]])).location).toBe(
      `/communication/${token}?unchanged=1`,
    );
    expect((await save(everyEmail)).location).toBe(`/communication/${token}?saved=1`);
    expect(await enabled(who.id, "marketing.email")).toBe(false);
    expect(marketingOf(await open())).toEqual([{ channel: "email", enabled: false, signInToEnable: true }]);
    expect((await readPreferences(acme, who.id))!.history.map((h) => `${h.topic}=${h.enabled}/${h.via}`)).toEqual([
      "marketing=false/link",
      "marketing=true/portal",
    ]);
    // Signed in, the page never hides the box.
    const mine = await run(signedIn.loader, get("/communication", { cookie }));
    expect(marketingOf(mine.data as never)).toEqual([{ channel: "email", enabled: false, signInToEnable: false }]);
  });

  it("a tampered, another host's or another purpose's link is one 'not valid' page, and changes nothing", async () => {
    const good = signLink(acme, ids.olivia!, { kind: "preferences" });
    const before = await snapshot(ids.olivia!);
    const bad = [
      good.slice(0, -1) + (good.endsWith("A") ? "B" : "A"),
      `${good.split(".")[0]}.prefs.${good.split(".")[2]}.${signLink(acme, ids.sam!, { kind: "preferences" }).split(".")[3]}`,
      signLink(kiwi, ids.aroha!, { kind: "preferences" }),
      signLink(kiwi, ids.olivia!, { kind: "preferences" }),
      signLink(acme, ids.olivia!, { kind: "unsubscribe", topic: "reminders" }),
      signLink(acme, randomUUID(), { kind: "preferences" }),
      "<script>",
      "x".repeat(5_000),
    ];
    for (const token of bad) {
      const page = await run(byLink.loader, get(`/communication/${encodeURIComponent(token)}`), { token });
      expect(page.status, token.slice(0, 30)).toBe(404);
      expect(page.data).toEqual({ kind: "invalid", businessName: "Acme Plumbing Supplies" });
      const posted = await run(
        byLink.action,
        post(
          `/communication/${encodeURIComponent(token)}`,
          form([
            ["pref", "marketing.email"],
            ["intent", "save"],
          ]),
          sameOrigin,
        ),
        { token },
      );
      expect(posted.status).toBe(404);
    }
    expect(await snapshot(ids.olivia!)).toEqual(before);
  });
});

describe("/communication/unsubscribe (RFC 8058)", () => {
  const path = (token: string) => `/communication/unsubscribe?${new URLSearchParams({ token })}`;

  it("a GET shows one button and changes nothing; the one-click POST needs no session or Origin, turns off one topic only, and again is no change", async () => {
    const token = signLink(acme, ids.olivia!, { kind: "unsubscribe", topic: "reminders" });
    const before = await readPreferences(acme, ids.olivia!);
    const changesBefore = await countPreferenceChanges(handle.db, acme, ids.olivia!);
    for (let i = 0; i < 3; i++) {
      const page = await run(unsubscribe.loader, get(path(token)));
      expect(page.status).toBe(200);
      expect(page.data).toMatchObject({
        kind: "unsubscribe",
        topic: "reminders",
        enabled: true,
        email: "olivia@coastal.example",
      });
      expect(page.headers?.get("referrer-policy")).toBe("strict-origin");
    }
    expect(await countPreferenceChanges(handle.db, acme, ids.olivia!)).toBe(changesBefore);

    // The mail provider's POST: no cookie, no Origin, the exact RFC 8058 body.
    const first = await run(unsubscribe.action, post(path(token), "List-Unsubscribe=One-Click"));
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ kind: "unsubscribe", enabled: false, notice: "unsubscribed" });
    const after = (await readPreferences(acme, ids.olivia!))!;
    expect(
      after.choices.filter((c, i) => c.enabled !== before!.choices[i]!.enabled).map((c) => `${c.topic}.${c.channel}`),
    ).toEqual(["reminders.email"]);
    expect(after.history[0]).toMatchObject({ topic: "reminders", channel: "email", enabled: false, via: "one-click" });
    // Again (a provider retrying, a second click): 200 and no change, no new history.
    const second = await run(unsubscribe.action, post(path(token), "List-Unsubscribe=One-Click"));
    expect(second.status).toBe(200);
    expect(await countPreferenceChanges(handle.db, acme, ids.olivia!)).toBe(changesBefore + 1);
    // From another Origin (a webmail's own server, say): the signature is the authority.
    const foreign = await run(
      unsubscribe.action,
      post(
        path(signLink(acme, ids.olivia!, { kind: "unsubscribe", topic: "marketing" })),
        "List-Unsubscribe=One-Click",
        {
          origin: "http://evil.example",
        },
      ),
    );
    expect(foreign.status).toBe(200);
    // As multipart/form-data, which RFC 8058 prefers.
    const multipart = new FormData();
    multipart.set("List-Unsubscribe", "One-Click");
    const asMultipart = await run(
      unsubscribe.action,
      post(path(signLink(acme, ids.olivia!, { kind: "unsubscribe", topic: "invoices" })), multipart),
    );
    expect(asMultipart.status).toBe(200);
    expect(await enabled(ids.olivia!, "invoices.email")).toBe(false);
    expect(await enabled(ids.olivia!, "invoices.post")).toBe(false);
  });

  it("the page's buttons are same-origin only, and resubscribe turns the topic back on", async () => {
    const token = signLink(acme, ids.admin!, { kind: "unsubscribe", topic: "reminders" });
    const crossSite = await run(
      unsubscribe.action,
      post(path(token), form([["intent", "unsubscribe"]]), { origin: "http://evil.example" }),
    );
    expect(crossSite.status).toBe(403);
    const off = await run(unsubscribe.action, post(path(token), form([["intent", "unsubscribe"]]), sameOrigin));
    expect(off).toMatchObject({ status: 302, location: `${path(token)}&done=unsubscribed` });
    expect(await enabled(ids.admin!, "reminders.email")).toBe(false);
    expect((await run(unsubscribe.loader, get(path(token)))).data).toMatchObject({ enabled: false, resubscribe: true });
    const on = await run(unsubscribe.action, post(path(token), form([["intent", "resubscribe"]]), sameOrigin));
    expect(on.location).toBe(`${path(token)}&done=resubscribed`);
    expect(await enabled(ids.admin!, "reminders.email")).toBe(true);
    const page = await run(unsubscribe.loader, get(`${path(token)}&done=resubscribed`));
    expect(page.data).toMatchObject({ enabled: true, notice: "resubscribed" });
    const history = (await readPreferences(acme, ids.admin!))!.history;
    expect(history.filter((h) => h.topic === "reminders").map((h) => [h.enabled, h.via])).toEqual([
      [true, "link"],
      [false, "link"],
    ]);
  });

  it("news and offers: unsubscribed by the link, but subscribed again only signed in", async () => {
    const who = await newContact("offers-unsub@coastal.example");
    await changePreferences(acme, who.id, { "marketing.email": true }, { via: "portal" });
    const token = signLink(acme, who.id, { kind: "unsubscribe", topic: "marketing" });
    expect((await run(unsubscribe.loader, get(path(token)))).data).toMatchObject({
      topic: "marketing",
      enabled: true,
      resubscribe: false,
      error: null,
    });
    const off = await run(unsubscribe.action, post(path(token), form([["intent", "unsubscribe"]]), sameOrigin));
    expect(off.location).toBe(`${path(token)}&done=unsubscribed`);
    const page = await run(unsubscribe.loader, get(`${path(token)}&done=unsubscribed`));
    expect(page.data).toMatchObject({
      enabled: false,
      resubscribe: false,
      signInHref: "/auth/signin?callbackUrl=%2Fcommunication",
    });
    const before = await snapshot(who.id);
    const again = await run(unsubscribe.action, post(path(token), form([["intent", "resubscribe"]]), sameOrigin));
    expect(again.status).toBe(400);
    expect(again.data).toMatchObject({ kind: "unsubscribe", enabled: false, error: "sign-in-to-opt-in" });
    expect(await snapshot(who.id)).toEqual(before);
  });

  it("a tampered, expired-looking, another host's or preferences link, and odd bodies, change nothing", async () => {
    const good = signLink(acme, ids.sam!, { kind: "unsubscribe", topic: "reminders" });
    const before = await snapshot(ids.sam!);
    for (const token of [
      good.replace("unsub-reminders", "unsub-marketing"),
      good.slice(0, -2) + "AA",
      signLink(kiwi, ids.sam!, { kind: "unsubscribe", topic: "reminders" }),
      signLink(acme, ids.sam!, { kind: "preferences" }),
      signLink(
        acme,
        ids.sam!,
        { kind: "unsubscribe", topic: "reminders" },
        { issuedAt: new Date(Date.now() - 401 * 86_400_000) },
      ),
      "",
    ]) {
      expect((await run(unsubscribe.loader, get(path(token)))).status).toBe(404);
      const posted = await run(unsubscribe.action, post(path(token), "List-Unsubscribe=One-Click"));
      expect(posted.status).toBe(404);
      expect(posted.data).toMatchObject({ kind: "invalid" });
    }
    for (const body of [
      "List-Unsubscribe=Yes",
      "List-Unsubscribe=One-Click&List-Unsubscribe=One-Click",
      "List-Unsubscribe=One-Click&intent=resubscribe",
      "intent=delete",
      "",
    ]) {
      const answer = await run(unsubscribe.action, post(path(good), body, sameOrigin));
      expect(answer.status, body).toBe(400);
    }
    const huge = await run(unsubscribe.action, post(path(good), `List-Unsubscribe=One-Click&x=${"y".repeat(70_000)}`));
    expect(huge.status).toBe(413);
    expect(await snapshot(ids.sam!)).toEqual(before);
  });
});

describe("back-office API", () => {
  async function call(
    handler: Handler,
    method: string,
    path: string,
    params: Record<string, string>,
    options: { key?: string; body?: unknown; idempotencyKey?: string } = {},
  ) {
    const headers: Record<string, string> = {
      host: "kiwi.localhost:3000",
      authorization: `Bearer ${options.key ?? ACME_KEY}`,
    };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
    const request = new Request(`http://kiwi.localhost:3000${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const response = (await handler({ request, params, context: {} })) as Response;
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  }
  const read = (contact: string, key?: string) =>
    call(
      apiCommunication.loader,
      "GET",
      `/api/back-office/contacts/${encodeURIComponent(contact)}/communication`,
      { contact },
      { key },
    );
  const record = (contact: string, body: unknown, options: { key?: string; idempotencyKey?: string } = {}) =>
    call(
      apiCommunication.action,
      "POST",
      `/api/back-office/contacts/${encodeURIComponent(contact)}/communication`,
      { contact },
      {
        body,
        ...options,
      },
    );

  it("reads a contact's preferences by email or id for a statement run; another business's contact is a 404", async () => {
    const answer = await read("New@Coastal.example");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body.preferences).toEqual({
      statements: { email: true, post: false },
      invoices: { email: true, post: false },
      reminders: { email: true },
      marketing: { email: false },
    });
    expect(answer.body.alwaysSent).toEqual([
      "receipts",
      "payment-requests",
      "schedules",
      "agreements",
      "responses",
      "account",
    ]);
    expect((await read(ids.noah!)).body.contact.email).toBe("new@coastal.example");
    for (const other of ["aroha@orchards.example", ids.aroha!, "<script>", "' OR 1=1 --", "x".repeat(300)]) {
      const missing = await read(other);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({
        status: 404,
        message: "No such contact.",
        error: { code: "not_found", message: "No such contact." },
      });
    }
    const narrow = await createApiKey(acme, "payments only", ["payment-requests:read"]);
    expect((await read("new@coastal.example", narrow.key)).status).toBe(403);
    expect((await record("new@coastal.example", { preferences: {}, note: "x" }, { key: narrow.key })).status).toBe(403);
  });

  it("records choices a contact gave the business, with a note, as the business's; idempotent by key; refuses what is not a choice", async () => {
    const idempotencyKey = randomUUID();
    const body = {
      preferences: { statements: { post: true }, invoices: { email: false } },
      note: "Asked by phone on 30 November",
    };
    const first = await record("new@coastal.example", body, { idempotencyKey });
    expect(first.status).toBe(200);
    expect(first.body.changed).toEqual(["statements.post", "invoices.email"]);
    expect(first.body.preferences.statements).toEqual({ email: true, post: true });
    expect(first.body.history[0]).toMatchObject({ via: "api", by: "business", note: "Asked by phone on 30 November" });
    const replay = await record("new@coastal.example", body, { idempotencyKey });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await countPreferenceChanges(handle.db, acme, ids.noah!)).toBe(2);
    const before = await snapshot(ids.noah!);
    for (const [bad, field] of [
      [{ preferences: { receipts: { email: false } }, note: "x" }, "preferences.receipts"],
      [{ preferences: { reminders: { post: true } }, note: "x" }, "preferences.reminders.post"],
      [{ preferences: { marketing: { email: "yes" } }, note: "x" }, "preferences.marketing.email"],
      [{ preferences: { statements: { post: true } } }, "note"],
      [{ preferences: { statements: { post: true } }, note: "   " }, "note"],
      [{ preferences: {}, note: "x" }, "preferences"],
      [{ preferences: { statements: { post: true } }, note: "x", contact: ids.olivia }, "contact"],
    ] as const) {
      const answer = await record("new@coastal.example", bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(answer.body.error.fields), JSON.stringify(bad)).toContain(field);
    }
    expect((await record("aroha@orchards.example", body)).status).toBe(404);
    expect(await snapshot(ids.noah!)).toEqual(before);
  });

  it("reminds a request's recipients, listing who was sent and who was skipped; a repeat with the same Idempotency-Key sends nothing more, another call within 24 hours is a conflict", async () => {
    const request = await createPaymentRequest(acme, {
      account: "ACME-2000",
      amountCents: 12_00,
      description: "Reminder over the API",
      recipients: ["olivia@coastal.example", "admin@acme.example"],
    });
    await sendPaymentRequest(acme, request.id);
    // Olivia unsubscribed from reminders above (one click); the admin did not.
    expect(await enabled(ids.olivia!, "reminders.email")).toBe(false);
    const idempotencyKey = randomUUID();
    const before = catcher.messages.length;
    const remind = (key = idempotencyKey) =>
      call(
        apiVerb.action,
        "POST",
        `/api/back-office/payment-requests/${request.reference}/remind`,
        {
          id: request.reference,
          verb: "remind",
        },
        { idempotencyKey: key },
      );
    const first = await remind();
    expect(first.status).toBe(200);
    expect(first.body.sent).toEqual([{ email: "admin@acme.example" }]);
    expect(first.body.skipped).toEqual([{ email: "olivia@coastal.example", reason: "opted-out" }]);
    expect(first.body.failed).toEqual([]);
    await catcher.waitForMail("admin@acme.example", { after: before, subject: /^Reminder: / });
    const replay = await remind();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(catcher.messages.slice(before).filter((m) => /^Reminder: /.test(m.subject))).toHaveLength(1);
    // Another call (a new key: an integration's loop) within 24 hours is a conflict that sends nothing...
    const again = await remind(randomUUID());
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    expect(again.body.error.message).toMatch(
      /^A reminder was sent less than 24 hours ago \(at .+\): the next one can be sent from .+\. Nothing was sent\.$/,
    );
    // ...and the first key's replay still answers as the first time.
    const replayedAgain = await remind();
    expect(replayedAgain.status).toBe(200);
    expect(replayedAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(replayedAgain.body).toEqual(first.body);
    expect(catcher.messages.slice(before).filter((m) => /^Reminder: /.test(m.subject))).toHaveLength(1);
    const unknown = await call(apiVerb.action, "POST", "/api/back-office/payment-requests/x/nudge", {
      id: "x",
      verb: "nudge",
    });
    expect(unknown.body.error.message).toBe("Use send, resend, remind or cancel.");
  });
});
