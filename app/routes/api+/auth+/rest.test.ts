import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "~/services/platform/logger.server";
import { getSession } from "~/services/auth/session.server";
import { withSeededDatabase } from "../../../../tests/support/seeded-db";
import * as csrf from "./csrf";
import * as providers from "./providers";
import * as signout from "./signout";
import * as clientLog from "./[_log]";
import * as apiSplat from "../$";

/** The auth base's NextAuth-style calls (spec §7): csrf, providers, signout, _log; and unknown /api/* paths. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => unknown;

const { signIn } = withSeededDatabase();

function request(
  path: string,
  init: { method?: string; host?: string; headers?: Record<string, string>; body?: BodyInit },
) {
  const host = init.host ?? "acme.localhost";
  return new Request(`http://${host}${path}`, {
    method: init.method ?? "GET",
    headers: { host, ...init.headers },
    body: init.body,
  });
}

async function run(handler: Handler, req: Request) {
  let response: Response;
  try {
    response = (await handler({ request: req, params: {}, context: {} })) as Response;
  } catch (thrown) {
    // requireHostBranding throws Remix's data() for an unknown host.
    const init = (thrown as { init?: { status?: number }; data?: unknown }).init;
    if (init?.status) response = Response.json((thrown as { data: unknown }).data, { status: init.status });
    else if (thrown instanceof Response) response = thrown;
    else throw thrown;
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body: body as Record<string, unknown> | null, text };
}

/**
 * The limiter counts in windows of a minute: a loop that crossed a window's edge would start
 * counting again. The clock (Date only) stands still in the middle of a window while it runs.
 */
function holdClockMidWindow() {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
}
afterEach(() => {
  vi.useRealTimers();
});

const sessionFor = async (cookie: string, businessId: string) =>
  getSession(new Request("http://acme.localhost/", { headers: { cookie } }), businessId);

describe("GET /api/auth/csrf", () => {
  it("is null signed out, and a token bound to the session signed in", async () => {
    const out = await run(csrf.loader, request("/api/auth/csrf", {}));
    expect(out).toMatchObject({ status: 200, body: { csrfToken: null } });
    expect(out.headers.get("cache-control")).toBe("no-store");

    const a = await signIn("olivia@coastal.example", "acme.localhost");
    const b = await signIn("sam@coastal.example", "acme.localhost");
    const tokenA = (await run(csrf.loader, request("/api/auth/csrf", { headers: { cookie: a.cookie } }))).body!
      .csrfToken;
    const again = (await run(csrf.loader, request("/api/auth/csrf", { headers: { cookie: a.cookie } }))).body!
      .csrfToken;
    const tokenB = (await run(csrf.loader, request("/api/auth/csrf", { headers: { cookie: b.cookie } }))).body!
      .csrfToken;
    expect(tokenA).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(again).toBe(tokenA);
    expect(tokenB).not.toBe(tokenA);
  });

  it("takes GET only: other methods are a JSON 405", async () => {
    const res = await run(
      csrf.action,
      request("/api/auth/csrf", { method: "POST", headers: { origin: "http://acme.localhost" } }),
    );
    expect(res.status).toBe(405);
    expect(res.body!.message).toMatch(/use GET/);
  });
});

describe("GET /api/auth/providers", () => {
  it("lists credentials for a credentials host, with absolute sign-in and callback addresses", async () => {
    const res = await run(providers.loader, request("/api/auth/providers", {}));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: "http://acme.localhost/api/auth/signin/credentials",
        callbackUrl: "http://acme.localhost/auth/signin",
      },
    });
  });

  it("lists nothing for an Auth0 host whose client secret is not configured (it cannot sign anyone in)", async () => {
    const res = await run(providers.loader, request("/api/auth/providers", { host: "harbour.localhost" }));
    expect(res).toMatchObject({ status: 200, body: {} });
  });

  it("answers an unknown host with 404 and no business's providers", async () => {
    const res = await run(providers.loader, request("/api/auth/providers", { host: "nobody.localhost" }));
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("credentials");
  });
});

describe("POST /api/auth/signout", () => {
  const post = (cookie: string | null, body: string, type = "application/json", host = "acme.localhost") =>
    request("/api/auth/signout", {
      method: "POST",
      host,
      headers: { origin: `http://${host}`, "content-type": type, ...(cookie ? { cookie } : {}) },
      body,
    });
  const tokenOf = async (cookie: string, host = "acme.localhost") =>
    (await run(csrf.loader, request("/api/auth/csrf", { host, headers: { cookie } }))).body!.csrfToken as string;

  it("with a session, refuses a missing or wrong csrfToken (403) and the session lives on", async () => {
    const { cookie, businessId } = await signIn("olivia@coastal.example", "acme.localhost");
    const other = await signIn("sam@coastal.example", "acme.localhost");
    for (const body of [
      "{}",
      JSON.stringify({ csrfToken: "" }),
      JSON.stringify({ csrfToken: ["x"] }),
      JSON.stringify({ csrfToken: await tokenOf(other.cookie) }),
      JSON.stringify({ csrfToken: "' OR 1=1 --" }),
    ]) {
      const res = await run(signout.action, post(cookie, body));
      expect(res.status, body).toBe(403);
      expect(res.body!.message).toMatch(/csrfToken/);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(await sessionFor(cookie, businessId)).not.toBeNull();
  });

  it("ends the session, clears the cookie and answers {url} (the sign-in page by default)", async () => {
    const { cookie, businessId } = await signIn("olivia@coastal.example", "acme.localhost");
    const res = await run(signout.action, post(cookie, JSON.stringify({ csrfToken: await tokenOf(cookie) })));
    expect(res).toMatchObject({ status: 200, body: { url: "http://acme.localhost/auth/signin" } });
    expect(res.headers.get("set-cookie")).toMatch(/^portal_session=;.*Max-Age=0/);
    expect(await sessionFor(cookie, businessId)).toBeNull();
    // The token died with its session.
    const replay = await run(signout.action, post(cookie, JSON.stringify({ csrfToken: "anything" })));
    expect(replay.status).toBe(200);
  });

  it("takes a form body too, and follows a same-origin callbackUrl only", async () => {
    for (const [callbackUrl, url] of [
      ["/statements?page=2", "http://acme.localhost/statements?page=2"],
      ["http://acme.localhost/accounts", "http://acme.localhost/accounts"],
      ["//evil.example/", "http://acme.localhost/auth/signin"],
      ["https://evil.example/", "http://acme.localhost/auth/signin"],
      ["javascript:alert(1)", "http://acme.localhost/auth/signin"],
      ["/\\evil.example", "http://acme.localhost/auth/signin"],
    ] as const) {
      const { cookie } = await signIn("olivia@coastal.example", "acme.localhost");
      const form = new URLSearchParams({ csrfToken: await tokenOf(cookie), callbackUrl, json: "true" });
      const res = await run(signout.action, post(cookie, form.toString(), "application/x-www-form-urlencoded"));
      expect(res, callbackUrl).toMatchObject({ status: 200, body: { url } });
    }
  });

  it("continues an Auth0 session to the provider's logout, which returns to this host", async () => {
    const { cookie } = await signIn("mia@harbour.example", "harbour.localhost", "auth0");
    const token = await tokenOf(cookie, "harbour.localhost");
    const res = await run(
      signout.action,
      post(cookie, JSON.stringify({ csrfToken: token }), "application/json", "harbour.localhost"),
    );
    expect(res.status).toBe(200);
    const url = new URL(res.body!.url as string);
    expect(url.origin + url.pathname).toBe("https://127.0.0.1:4311/v2/logout");
    expect(url.searchParams.get("returnTo")).toBe("http://harbour.localhost");
  });

  it("signed out, clears the cookie all the same", async () => {
    const res = await run(signout.action, post("portal_session=stale", "{}"));
    expect(res).toMatchObject({ status: 200, body: { url: "http://acme.localhost/auth/signin" } });
    expect(res.headers.get("set-cookie")).toMatch(/^portal_session=;/);
  });

  it("refuses bad input and other methods with JSON, and another origin with 403", async () => {
    const { cookie, businessId } = await signIn("olivia@coastal.example", "acme.localhost");
    expect((await run(signout.action, post(cookie, "{not json"))).status).toBe(400);
    expect((await run(signout.action, post(cookie, "[]"))).status).toBe(400);
    expect((await run(signout.action, post(cookie, "x".repeat(20_000), "text/plain"))).status).toBe(413);
    expect((await run(signout.action, post(cookie, "<a/>", "application/xml"))).status).toBe(415);
    const get = await run(signout.loader, request("/api/auth/signout", { headers: { cookie } }));
    expect(get.status).toBe(405);
    expect(get.body!.message).toMatch(/use POST/);
    const put = await run(signout.action, request("/api/auth/signout", { method: "PUT", headers: { cookie } }));
    expect(put.status).toBe(405);
    const crossSite = await run(
      signout.action,
      request("/api/auth/signout", {
        method: "POST",
        headers: { cookie, origin: "http://kiwi.localhost", "content-type": "application/json" },
        body: JSON.stringify({ csrfToken: await tokenOf(cookie) }),
      }),
    );
    expect(crossSite.status).toBe(403);
    expect(await sessionFor(cookie, businessId)).not.toBeNull();
  });
});

describe("POST /api/auth/signout: every answer to the body, kept as the body is read through a schema (issue 30)", () => {
  const post = (cookie: string, body: string, type = "application/json") =>
    request("/api/auth/signout", {
      method: "POST",
      headers: { origin: "http://acme.localhost", ...(type ? { "content-type": type } : {}), cookie },
      body,
    });
  const answer = (res: Awaited<ReturnType<typeof run>>) => ({
    status: res.status,
    body: res.body,
    cleared: /^portal_session=;/.test(res.headers.get("set-cookie") ?? ""),
    cache: res.headers.get("cache-control"),
  });
  const json = (value: unknown) => JSON.stringify(value);
  const form = (value: Record<string, string>) => new URLSearchParams(value).toString();

  it("signed out: callbackUrl of every shape; unknown keys; empty and form bodies", async () => {
    const stale = "portal_session=stale";
    const cases: [string, string, string?][] = [
      ["good JSON", json({ callbackUrl: "/statements?page=2" })],
      ["good form", form({ callbackUrl: "/accounts", csrfToken: "x" }), "application/x-www-form-urlencoded"],
      ["no content type", form({ callbackUrl: "/accounts" }), ""],
      ["a number", json({ callbackUrl: 5 })],
      ["an array", json({ callbackUrl: ["/accounts"] })],
      ["an object", json({ callbackUrl: { path: "/accounts" } })],
      ["null", json({ callbackUrl: null })],
      ["empty", json({ callbackUrl: "" })],
      ["2048 long", json({ callbackUrl: `/${"a".repeat(2047)}` })],
      ["2049 long", json({ callbackUrl: `/${"a".repeat(2048)}` })],
      ["very long", json({ callbackUrl: `/${"a".repeat(10_000)}` })],
      ["unknown keys", json({ callbackUrl: "/accounts", json: true, redirect: false, extra: { a: 1 } })],
      ["csrfToken of every shape", json({ csrfToken: { a: 1 }, callbackUrl: "/accounts" })],
      ["empty JSON body", ""],
      ["empty form body", "", "application/x-www-form-urlencoded"],
      ["an array body", "[]"],
    ];
    const answers: Record<string, unknown> = {};
    for (const [label, body, type] of cases)
      answers[label] = answer(await run(signout.action, post(stale, body, type)));
    expect(answers).toMatchInlineSnapshot(`
      {
        "2048 long": {
          "body": {
            "url": "http://acme.localhost/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "2049 long": {
          "body": {
            "url": "http://acme.localhost/auth/signin",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "a number": {
          "body": {
            "url": "http://acme.localhost/auth/signin",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "an array": {
          "body": {
            "url": "http://acme.localhost/auth/signin",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "an array body": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "The request body must be a JSON object.",
            },
            "message": "The request body must be a JSON object.",
            "status": 400,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 400,
        },
        "an object": {
          "body": {
            "url": "http://acme.localhost/auth/signin",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "csrfToken of every shape": {
          "body": {
            "url": "http://acme.localhost/accounts",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "empty": {
          "body": {
            "url": "http://acme.localhost/auth/signin",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "empty JSON body": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "The request body is not valid JSON.",
            },
            "message": "The request body is not valid JSON.",
            "status": 400,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 400,
        },
        "empty form body": {
          "body": {
            "url": "http://acme.localhost/auth/signin",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "good JSON": {
          "body": {
            "url": "http://acme.localhost/statements?page=2",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "good form": {
          "body": {
            "url": "http://acme.localhost/accounts",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "no content type": {
          "body": {
            "error": {
              "code": "unsupported_media_type",
              "message": "Send the body as application/json or application/x-www-form-urlencoded.",
            },
            "message": "Send the body as application/json or application/x-www-form-urlencoded.",
            "status": 415,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 415,
        },
        "null": {
          "body": {
            "url": "http://acme.localhost/auth/signin",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "unknown keys": {
          "body": {
            "url": "http://acme.localhost/accounts",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
        "very long": {
          "body": {
            "url": "http://acme.localhost/auth/signin",
          },
          "cache": "no-store",
          "cleared": true,
          "status": 200,
        },
      }
    `);
  });

  it("signed in: csrfToken of every shape is refused alike and the session lives on; a good one ends it", async () => {
    const { cookie, businessId } = await signIn("olivia@coastal.example", "acme.localhost");
    const token = await (async () =>
      (await run(csrf.loader, request("/api/auth/csrf", { headers: { cookie } }))).body!.csrfToken as string)();
    const cases: [string, string, string?][] = [
      ["missing", json({ callbackUrl: "/accounts" })],
      ["a number", json({ csrfToken: 5 })],
      ["an array", json({ csrfToken: [token] })],
      ["an object", json({ csrfToken: { token } })],
      ["null", json({ csrfToken: null })],
      ["128 long", json({ csrfToken: "a".repeat(128) })],
      ["129 long", json({ csrfToken: `${token}${"a".repeat(86)}` })],
      ["very long", json({ csrfToken: "a".repeat(10_000) })],
      ["the token with a space", json({ csrfToken: ` ${token}` })],
      ["empty form body", "", "application/x-www-form-urlencoded"],
      ["empty JSON body", ""],
    ];
    const answers: Record<string, unknown> = {};
    for (const [label, body, type] of cases)
      answers[label] = answer(await run(signout.action, post(cookie, body, type)));
    expect(answers).toMatchInlineSnapshot(`
      {
        "128 long": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "129 long": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "a number": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "an array": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "an object": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "empty JSON body": {
          "body": {
            "error": {
              "code": "bad_request",
              "message": "The request body is not valid JSON.",
            },
            "message": "The request body is not valid JSON.",
            "status": 400,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 400,
        },
        "empty form body": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "missing": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "null": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "the token with a space": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
        "very long": {
          "body": {
            "error": {
              "code": "forbidden",
              "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            },
            "message": "Missing or wrong csrfToken: read it from GET /api/auth/csrf. You are still signed in.",
            "status": 403,
          },
          "cache": "no-store",
          "cleared": false,
          "status": 403,
        },
      }
    `);
    expect(await sessionFor(cookie, businessId)).not.toBeNull();

    const good = await run(
      signout.action,
      post(cookie, json({ csrfToken: token, callbackUrl: "/accounts", extra: [1, 2] })),
    );
    expect(answer(good)).toMatchInlineSnapshot(`
      {
        "body": {
          "url": "http://acme.localhost/accounts",
        },
        "cache": "no-store",
        "cleared": true,
        "status": 200,
      }
    `);
    expect(await sessionFor(cookie, businessId)).toBeNull();
  });
});

describe("POST /api/auth/_log", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}, host = "acme.localhost") =>
    request("/api/auth/_log", {
      method: "POST",
      host,
      headers: {
        origin: `http://${host}`,
        "content-type": "application/json",
        ...headers,
      },
      body,
    });

  it("writes one cleaned line through the logger, tagged client, and answers 204", async () => {
    const warn = vi.spyOn(logger, "warn");
    const { cookie } = await signIn("olivia@coastal.example", "acme.localhost");
    const res = await run(
      clientLog.action,
      post(
        JSON.stringify({
          level: "error",
          message: 'boom\n{"level":"error","msg":"forged"}\u202e password=hunter22 card 4111 1111 1111 1111',
          code: "CLIENT_FETCH_ERROR",
          url: "http://acme.localhost/auth/password/reset?token=secret-token-value#x",
          password: "never logged",
        }),
        { cookie },
      ),
    );
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(warn).toHaveBeenCalledTimes(1);
    const [msg, fields] = warn.mock.calls[0]!;
    expect(msg).toBe("client log");
    expect(fields).toMatchObject({
      tag: "client",
      clientLevel: "error",
      code: "CLIENT_FETCH_ERROR",
      path: "/auth/password/reset",
    });
    expect(fields!.sessionLogId).toEqual(expect.any(String));
    const line = JSON.stringify(fields);
    expect(fields!.message).not.toMatch(/[\u0000-\u001f\u202e]/);
    for (const secret of ["hunter22", "4111", "secret-token-value", "never logged"]) expect(line).not.toContain(secret);
    warn.mockRestore();
  });

  it("takes text/plain holding JSON (navigator.sendBeacon) and writes info lines as info", async () => {
    const info = vi.spyOn(logger, "info");
    const res = await run(
      clientLog.action,
      post(JSON.stringify({ level: "info", message: "hello" }), { "content-type": "text/plain;charset=UTF-8" }),
    );
    expect(res.status).toBe(204);
    expect(info).toHaveBeenCalledWith("client log", expect.objectContaining({ tag: "client", message: "hello" }));
    info.mockRestore();
  });

  it.each([
    ["malformed JSON", "{level:", 400],
    ["a list", "[]", 400],
    ["no message", JSON.stringify({ level: "error" }), 400],
    ["an unknown level", JSON.stringify({ level: "fatal", message: "x" }), 400],
    ["a message of control characters only", JSON.stringify({ level: "warn", message: "\u0000\u0007\n" }), 400],
    ["a hostile code", JSON.stringify({ level: "warn", message: "x", code: "<script>" }), 400],
    ["a body over 4 KB", JSON.stringify({ level: "warn", message: "x".repeat(5000) }), 413],
    ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 400],
  ] as [string, BodyInit, number][])("refuses %s", async (_label, body, status) => {
    const res = await run(clientLog.action, post(body, {}, "kiwi.localhost"));
    expect(res.status).toBe(status);
    expect(res.body!.message).toEqual(expect.any(String));
  });

  it("refuses a body that is not JSON or text (415), other methods (405) and another origin (403)", async () => {
    const form = await run(
      clientLog.action,
      post("level=warn&message=x", { "content-type": "application/x-www-form-urlencoded" }),
    );
    expect(form.status).toBe(415);
    const get = await run(clientLog.loader, request("/api/auth/_log", {}));
    expect(get.status).toBe(405);
    expect(get.body!.message).toMatch(/use POST/);
    const cross = await run(
      clientLog.action,
      post(JSON.stringify({ level: "warn", message: "x" }), { origin: "http://evil.example" }),
    );
    expect(cross.status).toBe(403);
  });

  it("limits lines per session (429 with Retry-After) before the address limit", async () => {
    holdClockMidWindow();
    const { cookie } = await signIn("sam@coastal.example", "acme.localhost");
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await run(clientLog.action, post(JSON.stringify({ level: "debug", message: `line ${i}` }), { cookie })))
          .status,
      );
    }
    expect(statuses.slice(0, 20).every((s) => s === 204)).toBe(true);
    const last = await run(clientLog.action, post(JSON.stringify({ level: "debug", message: "more" }), { cookie }));
    expect(last.status).toBe(429);
    expect(last.headers.get("retry-after")).toBe("60");
  });
});

describe("POST /api/auth/_log per address", () => {
  it("allows 60 lines a minute from one address signed out, then 429", async () => {
    holdClockMidWindow();
    const line = () =>
      request("/api/auth/_log", {
        method: "POST",
        host: "harbour.localhost",
        headers: { origin: "http://harbour.localhost", "content-type": "application/json" },
        body: JSON.stringify({ level: "debug", message: "tick" }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await run(clientLog.action, line())).status);
    expect(statuses.filter((s) => s === 204)).toHaveLength(60);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("unknown /api/* paths", () => {
  it.each(["GET", "HEAD"])("%s answers a JSON 404 with a message", async (method) => {
    const res = await run(apiSplat.loader, request("/api/payTo/agreements?x=1", { method }));
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    if (method === "GET") expect(res.body!.message).toBe("Not found: there is no API call at /api/payTo/agreements.");
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])(
    "%s answers a JSON 404 from this origin, 403 from another",
    async (method) => {
      const same = await run(
        apiSplat.action,
        request("/api/no/such/call", { method, headers: { origin: "http://acme.localhost" }, body: "{}" }),
      );
      expect(same.status).toBe(404);
      expect(same.body!.message).toMatch(/no API call at \/api\/no\/such\/call/);
      const cross = await run(
        apiSplat.action,
        request("/api/no/such/call", { method, headers: { origin: "http://evil.example" }, body: "{}" }),
      );
      expect(cross.status).toBe(403);
    },
  );
});
