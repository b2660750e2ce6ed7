import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { changeContactPermission } from "~/services/backoffice/contact-permissions.server";
import { contactOn, HOST, ORIGIN, signInAs } from "../../../tests/support/api-sweep";
import { seededPgliteForTests } from "../../../tests/support/test-db";
import * as csrf from "./auth+/csrf";
import * as session from "./auth+/session";
import * as signout from "./auth+/signout";
import * as payment from "./payTo+/payment";
import * as accounts from "./sample+/accounts";

/**
 * Decision 093 (spec §8: "a response with status 401 or 403 signs the user out"): which 403s end the session.
 * One does — portal access taken away while the session was open, answered `access_withdrawn` — and only when
 * the request shows it came from this site's own pages. The 403s anyone can provoke (a request from another
 * site, a missing csrf token) never do.
 */
const database = seededPgliteForTests();
let businessId: string;
let olivia: string;
beforeAll(async () => {
  ({ businessId, id: olivia } = await contactOn(database(), "olivia@coastal.example"));
});

const portal = (change: "grant" | "revoke") =>
  changeContactPermission(businessId, olivia, { permission: "accessCustomerPortal" }, change);

beforeEach(async () => {
  await portal("grant");
  await database().db.deleteFrom("sessions").where("contact_id", "=", olivia).execute();
});

const get = (cookie: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/api/sample/accounts`, { headers: { host: HOST, cookie, ...headers } });

async function accountsAnswer(cookie: string, headers: Record<string, string> = {}) {
  try {
    return await accounts.loader({ request: get(cookie, headers), params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function signedIn(cookie: string) {
  const request = new Request(`${ORIGIN}/api/auth/session`, { headers: { host: HOST, cookie } });
  const body = (await (await session.loader({ request, params: {}, context: {} })).json()) as {
    authenticated: boolean;
  };
  return body.authenticated;
}

const sessionsOfOlivia = async () =>
  (await database().db.selectFrom("sessions").select("id_hash").where("contact_id", "=", olivia).execute()).length;

describe("a 403 that ends the session: portal access taken away while signed in", () => {
  it("from this site's own pages: 403 access_withdrawn, the cookie cleared and the session gone", async () => {
    const cookie = await signInAs(database(), "olivia@coastal.example");
    expect((await accountsAnswer(cookie, { "sec-fetch-site": "same-origin" })).status).toBe(200);
    await portal("revoke");
    const response = await accountsAnswer(cookie, { "sec-fetch-site": "same-origin" });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: { code: string }; message: string };
    expect(body.error.code).toBe("access_withdrawn");
    expect(body.message).toMatch(/withdrawn, so you have been signed out/);
    expect(response.headers.get("set-cookie")).toMatch(/^portal_session=;/);
    expect(await sessionsOfOlivia()).toBe(0);
    expect(await signedIn(cookie)).toBe(false);
  });

  it("a POST from our own origin (the PayTo payment) ends it too, in the call's own shape", async () => {
    const cookie = await signInAs(database(), "olivia@coastal.example");
    await portal("revoke");
    const request = new Request(`${ORIGIN}/api/payTo/payment`, {
      method: "POST",
      headers: { host: HOST, cookie, origin: ORIGIN, "content-type": "application/json" },
      body: "{}",
    });
    const response = await payment.action({ request, params: {}, context: {} });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ ok: false, reason: "access_withdrawn", status: 403 });
    expect(response.headers.get("set-cookie")).toMatch(/^portal_session=;/);
    expect(await signedIn(cookie)).toBe(false);
  });

  it("from another site's link, or a request that shows nothing: the same 403, and the session stays", async () => {
    const cookie = await signInAs(database(), "olivia@coastal.example");
    await portal("revoke");
    const marks: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, {}];
    for (const headers of marks) {
      const response = await accountsAnswer(cookie, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("access_withdrawn");
      expect(response.headers.get("set-cookie"), JSON.stringify(headers)).toBeNull();
    }
    expect(await sessionsOfOlivia()).toBe(1);
    expect(await signedIn(cookie)).toBe(true);
  });

  it("access given back before the next call: the mark goes and the call answers as before", async () => {
    const cookie = await signInAs(database(), "olivia@coastal.example");
    await portal("revoke");
    await portal("grant");
    expect((await accountsAnswer(cookie, { "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect(await signedIn(cookie)).toBe(true);
  });

  it("a session opened after the change never had the access: 404 as before (decision 056), and it stays", async () => {
    await portal("revoke");
    const cookie = await signInAs(database(), "olivia@coastal.example");
    const response = await accountsAnswer(cookie, { "sec-fetch-site": "same-origin" });
    expect(response.status).toBe(404);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await signedIn(cookie)).toBe(true);
  });

  it("another contact's sessions are not marked", async () => {
    const sam = await signInAs(database(), "sam@coastal.example");
    await portal("revoke");
    const marked = await database()
      .db.selectFrom("sessions")
      .innerJoin("contacts", "contacts.id", "sessions.contact_id")
      .select("sessions.data")
      .where("contacts.email", "=", "sam@coastal.example")
      .execute();
    expect(marked.map((row) => (row.data as { portalWithdrawn?: boolean }).portalWithdrawn)).toEqual([undefined]);
    expect(await signedIn(sam)).toBe(true);
  });
});

describe("403s that never end the session: the ones anyone can provoke", () => {
  it("a state-changing request from another site", async () => {
    const cookie = await signInAs(database(), "olivia@coastal.example");
    const request = new Request(`${ORIGIN}/api/payTo/payment`, {
      method: "POST",
      headers: { host: HOST, cookie, origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    const response = await payment.action({ request, params: {}, context: {} });
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await signedIn(cookie)).toBe(true);
  });

  it("a JSON sign-out without the csrf token", async () => {
    const cookie = await signInAs(database(), "olivia@coastal.example");
    const tokenRequest = new Request(`${ORIGIN}/api/auth/csrf`, { headers: { host: HOST, cookie } });
    const { csrfToken } = (await (await csrf.loader({ request: tokenRequest, params: {}, context: {} })).json()) as {
      csrfToken: string;
    };
    expect(csrfToken).toBeTruthy();
    const request = new Request(`${ORIGIN}/api/auth/signout`, {
      method: "POST",
      headers: { host: HOST, cookie, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ csrfToken: "x".repeat(43) }),
    });
    const response = await signout.action({ request, params: {}, context: {} });
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await signedIn(cookie)).toBe(true);
  });
});
