import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../../../db/seed/demo";
import { routeAccess } from "~/services/auth/access.server";
import { withSeededDatabase } from "../../../../tests/support/seeded-db";
import * as password from "./password";

/** /auth/password is public (spec §2): signed out it asks for a reset link, signed in it changes the password. */
const seeded = withSeededDatabase();
const signIn = async (email: string) => (await seeded.signIn(email, "acme.localhost")).cookie;

const page = (init: { host?: string; cookie?: string; form?: Record<string, string> } = {}) => {
  const host = init.host ?? "acme.localhost";
  return new Request(`http://${host}/auth/password`, {
    method: init.form ? "POST" : "GET",
    headers: {
      host,
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.form ? { origin: `http://${host}`, "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: init.form ? new URLSearchParams(init.form).toString() : undefined,
  });
};

type Outcome = { status: number; body: Record<string, unknown>; location: string | null };
async function act(request: Request): Promise<Outcome> {
  try {
    const result = (await password.action({ request, params: {}, context: {} })) as unknown as {
      data: Record<string, unknown>;
      init: { status?: number } | null;
    };
    return { status: result.init?.status ?? 200, body: result.data, location: null };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, body: {}, location: thrown.headers.get("location") };
  }
}

describe("/auth/password", () => {
  it("is public in the route table", () => {
    expect(routeAccess("/auth/password")).toBe("public");
  });

  it("signed out offers the reset request; on an Auth0 host it says there are no portal passwords", async () => {
    expect(await password.loader({ request: page(), params: {}, context: {} })).toMatchObject({ mode: "request" });
    expect(
      await password.loader({ request: page({ host: "harbour.localhost" }), params: {}, context: {} }),
    ).toMatchObject({ mode: "external" });
    // A cookie whose session has gone is signed out too: the page still opens.
    const stale = await password.loader({ request: page({ cookie: "portal_session=gone" }), params: {}, context: {} });
    expect(stale).toMatchObject({ mode: "request", email: "" });
  });

  it("signed in offers the change form for the contact", async () => {
    const cookie = await signIn("olivia@coastal.example");
    expect(await password.loader({ request: page({ cookie }), params: {}, context: {} })).toEqual({
      businessName: "Acme Plumbing Supplies",
      mode: "change",
      email: "olivia@coastal.example",
      external: false,
    });
  });

  it("answers a reset request the same whether or not the email has a login", async () => {
    const known = await act(page({ form: { intent: "request", email: "olivia@coastal.example" } }));
    const unknown = await act(page({ form: { intent: "request", email: "nobody@nowhere.example" } }));
    expect(known).toEqual({
      status: 200,
      body: { intent: "request", done: true, errors: {}, message: "auth.reset.sent" },
      location: null,
    });
    expect(unknown).toEqual(known);
    const bad = await act(page({ form: { intent: "request", email: "<script>" } }));
    expect(bad).toMatchObject({ status: 400, body: { done: false, errors: { email: "auth.form.emailInvalid" } } });
  });

  it("refuses a reset request on an Auth0 host, where there are no portal passwords", async () => {
    const res = await act(
      page({ host: "harbour.localhost", form: { intent: "request", email: "mia@harbour.example" } }),
    );
    expect(res).toMatchObject({ status: 400, body: { message: "auth.form.unknownRequest" } });
  });

  it("sends a change posted without a session to sign-in, changing nothing", async () => {
    const res = await act(
      page({
        cookie: "portal_session=gone",
        form: { intent: "change", oldPassword: DEMO_PASSWORD, newPassword: "x".repeat(12), confirm: "x".repeat(12) },
      }),
    );
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/auth\/signin\?/);
  });

  it("changes the password signed in: errors tied to fields, never the typed password", async () => {
    const cookie = await signIn("sam@coastal.example");
    const typed = "a secret new password";
    const mismatch = await act(
      page({ cookie, form: { intent: "change", oldPassword: DEMO_PASSWORD, newPassword: typed, confirm: "other" } }),
    );
    expect(mismatch).toMatchObject({ status: 400, body: { done: false, errors: { confirm: "auth.form.mismatch" } } });
    const wrong = await act(
      page({ cookie, form: { intent: "change", oldPassword: "not it", newPassword: typed, confirm: typed } }),
    );
    expect(wrong).toMatchObject({ status: 400, body: { errors: { oldPassword: "auth.change.wrongCurrent" } } });
    const short = await act(
      page({ cookie, form: { intent: "change", oldPassword: "x", newPassword: "short", confirm: "short" } }),
    );
    expect(short).toMatchObject({ status: 400, body: { errors: { newPassword: "auth.form.passwordTooShort" } } });
    for (const outcome of [mismatch, wrong, short]) expect(JSON.stringify(outcome)).not.toContain(typed);
  });

  it("answers a form without a known intent with 400", async () => {
    const res = await act(page({ form: { email: "olivia@coastal.example" } }));
    expect(res).toMatchObject({ status: 400, body: { message: "auth.form.unknownRequest" } });
  });
});
