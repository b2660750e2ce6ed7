import { execFile, spawn } from "node:child_process";
import { createHash, randomBytes, X509Certificate } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Auth0, generateCodeVerifier, generateState } from "arctic";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ensureStandinCertificate, startOidcStandin, type StandinClient, type StandinUser } from "./oidc-standin";
import { HARBOUR_CLIENT, HARBOUR_USERS } from "./oidc-standin-demo";

const CLIENT: StandinClient = { clientId: "test-portal", clientSecret: "test-secret" };
// arctic puts id and secret into Basic credentials as they are: a colon, a space or a % must survive.
const TRICKY: StandinClient = { clientId: "tricky-portal", clientSecret: "p:ss w%rd+" };
const PASSWORD = "Correct horse 9!";
const alice: StandinUser = {
  sub: "auth0|alice",
  email: "alice@example.test",
  password: PASSWORD,
  givenName: "Alice",
  familyName: "Liddell",
  emailVerified: true,
};
const tampered = (["bad-signature", "expired", "wrong-audience", "wrong-issuer"] as const).map(
  (tamper): StandinUser => ({ sub: `auth0|${tamper}`, email: `${tamper}@example.test`, password: PASSWORD, tamper }),
);
const REDIRECT_URI = "http://portal.localhost:4310/api/auth/callback/auth0";

let certDir: string;
let standin: Awaited<ReturnType<typeof startOidcStandin>>;
let ca: Buffer;

type Reply = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/** node:https with the stand-in's certificate as the only trusted CA (no global TLS switches). */
function call(
  method: string,
  pathAndQuery: string,
  init: { headers?: Record<string, string>; form?: Record<string, string>; origin?: string } = {},
) {
  const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
  return new Promise<Reply>((resolve, reject) => {
    const req = https.request(`${init.origin ?? standin.origin}${pathAndQuery}`, {
      method,
      ca,
      agent: false,
      headers: { ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...init.headers },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
const challengeFor = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

function authorizeQuery(overrides: Record<string, string | null> = {}, verifier = "v".repeat(43)) {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: CLIENT.clientId,
    redirect_uri: REDIRECT_URI,
    state: "state-123",
    code_challenge: challengeFor(verifier),
    code_challenge_method: "S256",
    scope: "openid profile email",
  });
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null) query.delete(key);
    else query.set(key, value);
  }
  return query;
}

/** Signs in at the provider as a browser would and returns where it sends the browser back. */
async function signIn(user: Pick<StandinUser, "email" | "password">, overrides: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString("base64url");
  const query = authorizeQuery(overrides, verifier);
  const reply = await call("POST", "/authorize", {
    form: { ...Object.fromEntries(query), email: user.email, password: user.password, action: "continue" },
  });
  expect(reply.status).toBe(302);
  const back = new URL(String(reply.headers.location));
  return { back, code: back.searchParams.get("code") ?? "", verifier };
}

function exchange(code: string, verifier: string, options: { client?: StandinClient; redirectUri?: string } = {}) {
  const client = options.client ?? CLIENT;
  return call("POST", "/oauth/token", {
    headers: { authorization: basic(client.clientId, client.clientSecret), accept: "application/json" },
    form: {
      grant_type: "authorization_code",
      code,
      redirect_uri: options.redirectUri ?? REDIRECT_URI,
      code_verifier: verifier,
    },
  });
}

async function verify(idToken: string, clientId = CLIENT.clientId) {
  const jwks = JSON.parse((await call("GET", "/.well-known/jwks.json")).text) as JSONWebKeySet;
  return jwtVerify(idToken, createLocalJWKSet(jwks), {
    issuer: `${standin.origin}/`,
    audience: clientId,
    algorithms: ["RS256"],
  });
}

async function idTokenFor(user: StandinUser) {
  const { code, verifier } = await signIn(user);
  const reply = await exchange(code, verifier);
  expect(reply.status).toBe(200);
  return (JSON.parse(reply.text) as { id_token: string }).id_token;
}

beforeAll(async () => {
  certDir = fs.mkdtempSync(path.join(os.tmpdir(), "oidc-standin-test-"));
  standin = await startOidcStandin({ port: 0, certDir, clients: [CLIENT, TRICKY], users: [alice, ...tampered] });
  ca = fs.readFileSync(standin.caCertPath);
});

afterAll(async () => {
  await standin?.close();
  fs.rmSync(certDir, { recursive: true, force: true });
});

describe("OIDC stand-in: certificate and metadata", () => {
  it("makes a year-long certificate for 127.0.0.1 and localhost once, and reuses it", () => {
    const cert = new X509Certificate(fs.readFileSync(standin.caCertPath));
    expect(cert.subject).toBe("CN=127.0.0.1");
    expect(cert.subjectAltName).toBe("IP Address:127.0.0.1, DNS:localhost");
    const days = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / 86_400_000;
    expect(days).toBeCloseTo(365, 0);
    const before = fs.readFileSync(standin.caCertPath, "utf8");
    expect(ensureStandinCertificate(certDir).certPath).toBe(standin.caCertPath);
    expect(fs.readFileSync(standin.caCertPath, "utf8")).toBe(before);
  });

  it("serves health, discovery with Auth0's issuer form, and the key set", async () => {
    expect(standin.origin).toBe(`https://${standin.domain}`);
    expect(standin.domain).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(await call("GET", "/health")).toMatchObject({ status: 200, text: "ok" });
    const discovery = JSON.parse((await call("GET", "/.well-known/openid-configuration")).text);
    expect(discovery).toMatchObject({
      issuer: `${standin.origin}/`,
      authorization_endpoint: `${standin.origin}/authorize`,
      token_endpoint: `${standin.origin}/oauth/token`,
      jwks_uri: `${standin.origin}/.well-known/jwks.json`,
      end_session_endpoint: `${standin.origin}/v2/logout`,
    });
    const { keys } = JSON.parse((await call("GET", "/.well-known/jwks.json")).text) as JSONWebKeySet;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.any(String) });
    expect(keys[0]).not.toHaveProperty("d"); // public half only
  });
});

describe("OIDC stand-in: /authorize", () => {
  it("renders an accessible, script-free sign-in form that carries the whole request", async () => {
    const query = authorizeQuery({ state: `a"<b>&c` });
    const reply = await call("GET", `/authorize?${query}`);
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(reply.headers["content-security-policy"]).toContain("default-src 'none'");
    const html = reply.text;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<title>Sign in – Stand-in identity provider</title>");
    expect(html).toMatch(/<main>[\s\S]*<h1>Sign in<\/h1>[\s\S]*<\/main>/);
    expect(html).toContain('<form method="post" action="/authorize">');
    expect(html).toMatch(/<label for="email">Email<\/label>[\s\S]*<input id="email" name="email" type="email"/);
    expect(html).toMatch(
      /<label for="password">Password<\/label>[\s\S]*<input id="password" name="password" type="password"/,
    );
    expect(html).toMatch(/<button type="submit" name="action" value="continue">Continue<\/button>/);
    expect(html).toMatch(/<button type="submit" name="action" value="cancel" formnovalidate>Cancel<\/button>/);
    expect(html).not.toMatch(/<script|\son\w+=/i);
    for (const [name, value] of query) {
      const escaped = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
      expect(html).toContain(`<input type="hidden" name="${name}" value="${escaped}">`);
    }
  });

  it.each([
    ["an unknown client", { client_id: "nobody" }],
    ["no state", { state: null }],
    ["response_type other than code", { response_type: "token" }],
    ["no PKCE", { code_challenge: null, code_challenge_method: null }],
    ["plain PKCE", { code_challenge_method: "plain" }],
    ["a non-http redirect_uri", { redirect_uri: "javascript:alert(1)" }],
    ["no redirect_uri", { redirect_uri: null }],
  ])("answers 400 (and does not redirect) for %s", async (_, overrides) => {
    const reply = await call("GET", `/authorize?${authorizeQuery(overrides)}`);
    expect(reply.status).toBe(400);
    expect(reply.headers.location).toBeUndefined();
    expect(reply.text).toContain("<h1>Bad authorisation request</h1>");
  });

  it("re-renders the form with 401 for a wrong password, keeping the email but never the password", async () => {
    const secretGuess = "hunter2-not-it";
    const reply = await call("POST", "/authorize", {
      form: { ...Object.fromEntries(authorizeQuery()), email: alice.email, password: secretGuess, action: "continue" },
    });
    expect(reply.status).toBe(401);
    expect(reply.text).toContain('<p id="sign-in-error" role="alert">Wrong email or password.</p>');
    expect(reply.text).toContain(`value="${alice.email}"`);
    expect(reply.text).not.toContain(secretGuess);
    expect(reply.text).toContain(`<input type="hidden" name="state" value="state-123">`);
    const unknown = await call("POST", "/authorize", {
      form: {
        ...Object.fromEntries(authorizeQuery()),
        email: "nobody@example.test",
        password: PASSWORD,
        action: "continue",
      },
    });
    expect(unknown.status).toBe(401);
  });

  it("sends a cancelled sign-in back with error=access_denied and the state", async () => {
    const reply = await call("POST", "/authorize", {
      form: { ...Object.fromEntries(authorizeQuery()), email: "", password: "", action: "cancel" },
    });
    expect(reply.status).toBe(302);
    const back = new URL(String(reply.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("error_description")).toBe("The user cancelled the sign-in");
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(back.searchParams.has("code")).toBe(false);
  });
});

describe("OIDC stand-in: /oauth/token", () => {
  it("exchanges a code (with PKCE) for tokens whose id token verifies against the key set", async () => {
    const { back, code, verifier } = await signIn({ email: " Alice@Example.TEST ", password: PASSWORD });
    expect(back.searchParams.get("state")).toBe("state-123");
    expect(code).toMatch(/^[\w-]{43}$/);

    const reply = await exchange(code, verifier);
    expect(reply.status).toBe(200);
    expect(reply.headers["cache-control"]).toBe("no-store");
    const tokens = JSON.parse(reply.text);
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "openid profile email" });
    expect(tokens.access_token).toEqual(expect.any(String));

    const { payload, protectedHeader } = await verify(tokens.id_token);
    expect(protectedHeader).toMatchObject({ alg: "RS256", kid: expect.any(String) });
    expect(payload).toMatchObject({
      iss: `${standin.origin}/`,
      aud: CLIENT.clientId,
      sub: "auth0|alice",
      email: "alice@example.test",
      email_verified: true,
      given_name: "Alice",
      family_name: "Liddell",
      name: "Alice Liddell",
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(60);
  });

  it("refuses a code_verifier that does not match the challenge, and the code is spent", async () => {
    const { code, verifier } = await signIn(alice);
    const wrong = await exchange(code, randomBytes(32).toString("base64url"));
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.text)).toEqual({
      error: "invalid_grant",
      error_description: "code_verifier does not match the code_challenge.",
    });
    expect((await exchange(code, verifier)).status).toBe(400);
  });

  it("accepts a code only once", async () => {
    const { code, verifier } = await signIn(alice);
    expect((await exchange(code, verifier)).status).toBe(200);
    const again = await exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(JSON.parse(again.text)).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code after its 60 seconds", async () => {
    const { code, verifier } = await signIn(alice);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const late = await exchange(code, verifier);
      expect(late.status).toBe(400);
      expect(JSON.parse(late.text)).toMatchObject({ error: "invalid_grant" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a redirect_uri other than the authorisation request's", async () => {
    const { code, verifier } = await signIn(alice);
    const reply = await exchange(code, verifier, { redirectUri: "http://evil.localhost/callback" });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toMatchObject({ error: "invalid_grant" });
  });

  it("answers 401 invalid_client for a wrong or missing client secret, before touching the code", async () => {
    const { code, verifier } = await signIn(alice);
    const wrong = await exchange(code, verifier, { client: { ...CLIENT, clientSecret: "guess" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toMatch(/^Basic /);
    expect(JSON.parse(wrong.text)).toEqual({
      error: "invalid_client",
      error_description: "Client authentication failed.",
    });
    const anonymous = await call("POST", "/oauth/token", {
      form: { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
    });
    expect(anonymous.status).toBe(401);
    // A code issued to one client is no use to another, even one that authenticates.
    expect(JSON.parse((await exchange(code, verifier, { client: TRICKY })).text)).toMatchObject({
      error: "invalid_grant",
    });
  });

  it("authenticates clients the way arctic does, the RFC 6749 way, and by client_secret_post", async () => {
    const tricky = async () => signIn(alice, { client_id: TRICKY.clientId });
    let { code, verifier } = await tricky();
    expect((await exchange(code, verifier, { client: TRICKY })).status).toBe(200); // raw "id:secret"
    ({ code, verifier } = await tricky());
    const formEncoded = basic(
      encodeURIComponent(TRICKY.clientId),
      new URLSearchParams({ s: TRICKY.clientSecret }).toString().slice(2),
    );
    const rfc = await call("POST", "/oauth/token", {
      headers: { authorization: formEncoded },
      form: { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
    });
    expect(rfc.status).toBe(200);
    ({ code, verifier } = await tricky());
    const post = await call("POST", "/oauth/token", {
      form: {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: TRICKY.clientId,
        client_secret: TRICKY.clientSecret,
      },
    });
    expect(post.status).toBe(200);
  });

  it("answers unsupported_grant_type and invalid_request as JSON", async () => {
    const refresh = await call("POST", "/oauth/token", {
      headers: { authorization: basic(CLIENT.clientId, CLIENT.clientSecret) },
      form: { grant_type: "refresh_token", refresh_token: "x" },
    });
    expect(refresh.status).toBe(400);
    expect(JSON.parse(refresh.text)).toMatchObject({ error: "unsupported_grant_type" });
    const notAForm = await call("POST", "/oauth/token", {
      headers: { authorization: basic(CLIENT.clientId, CLIENT.clientSecret), "content-type": "application/json" },
    });
    expect(notAForm.status).toBe(400);
    expect(JSON.parse(notAForm.text)).toMatchObject({ error: "invalid_request" });
  });
});

describe("OIDC stand-in: tampered id tokens fail verification for the right reason", () => {
  const user = (tamper: NonNullable<StandinUser["tamper"]>) => tampered.find((u) => u.tamper === tamper)!;

  it("bad-signature: signed by a key that is not in the key set, under its kid", async () => {
    const idToken = await idTokenFor(user("bad-signature"));
    const { keys } = JSON.parse((await call("GET", "/.well-known/jwks.json")).text) as JSONWebKeySet;
    expect(decodeProtectedHeader(idToken).kid).toBe(keys[0]!.kid);
    await expect(verify(idToken)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
  });

  it("expired: exp an hour ago", async () => {
    const error = await verify(await idTokenFor(user("expired"))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.JWTExpired);
    expect((error as errors.JWTExpired).payload.exp).toBeLessThan(Date.now() / 1000 - 3000);
  });

  it("wrong-audience: aud is someone else", async () => {
    const error = await verify(await idTokenFor(user("wrong-audience"))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.JWTClaimValidationFailed);
    expect(error).toMatchObject({ claim: "aud", payload: { aud: "someone-else" } });
  });

  it("wrong-issuer: iss is another provider", async () => {
    const error = await verify(await idTokenFor(user("wrong-issuer"))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.JWTClaimValidationFailed);
    expect(error).toMatchObject({ claim: "iss", payload: { iss: "https://evil.example/" } });
  });
});

describe("OIDC stand-in: logout and revocation", () => {
  it("redirects /v2/logout to an http(s) returnTo, and refuses anything else", async () => {
    const returnTo = "http://portal.localhost:4310/auth/signin";
    const reply = await call("GET", `/v2/logout?${new URLSearchParams({ client_id: CLIENT.clientId, returnTo })}`);
    expect(reply.status).toBe(302);
    expect(reply.headers.location).toBe(returnTo);
    expect((await call("GET", `/v2/logout?returnTo=${encodeURIComponent("javascript:alert(1)")}`)).status).toBe(400);
    expect((await call("GET", "/v2/logout")).status).toBe(400);
  });

  it("answers 200 to /oauth/revoke", async () => {
    const reply = await call("POST", "/oauth/revoke", {
      headers: { authorization: basic(CLIENT.clientId, CLIENT.clientSecret) },
      form: { token: "anything" },
    });
    expect(reply.status).toBe(200);
  });
});

describe("OIDC stand-in: the real arctic Auth0 client", () => {
  it("builds an authorisation URL the stand-in accepts, and exchanges the code over NODE_EXTRA_CA_CERTS", async () => {
    const auth0 = new Auth0(standin.domain, TRICKY.clientId, TRICKY.clientSecret, REDIRECT_URI);
    const state = generateState();
    const verifier = generateCodeVerifier();
    const url = auth0.createAuthorizationURL(state, verifier, ["openid", "profile", "email"]);
    expect(url.origin).toBe(standin.origin);
    expect((await call("GET", `${url.pathname}${url.search}`)).status).toBe(200);
    const reply = await call("POST", "/authorize", {
      form: {
        ...Object.fromEntries(url.searchParams),
        email: alice.email,
        password: alice.password,
        action: "continue",
      },
    });
    const back = new URL(String(reply.headers.location));
    expect(back.searchParams.get("state")).toBe(state);

    // arctic uses the global fetch, which only trusts the certificate through NODE_EXTRA_CA_CERTS
    // (read at start-up), exactly as the portal does: so the exchange runs in a child process.
    const script = `
      import { Auth0, OAuth2RequestError } from "arctic";
      const [domain, clientId, secret, redirectUri, code, verifier] = process.argv.slice(1);
      const auth0 = new Auth0(domain, clientId, secret, redirectUri);
      const tokens = await auth0.validateAuthorizationCode(code, verifier);
      const reuse = await auth0.validateAuthorizationCode(code, verifier).then(() => "accepted", (e) => e instanceof OAuth2RequestError ? e.code : String(e));
      await auth0.revokeToken(tokens.accessToken());
      console.log(JSON.stringify({ idToken: tokens.idToken(), scopes: tokens.scopes(), reuse }));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        script,
        standin.domain,
        TRICKY.clientId,
        TRICKY.clientSecret,
        REDIRECT_URI,
        back.searchParams.get("code")!,
        verifier,
      ],
      {
        cwd: fileURLToPath(new URL("../..", import.meta.url)),
        env: { ...process.env, NODE_EXTRA_CA_CERTS: standin.caCertPath },
        timeout: 30_000,
      },
    );
    const result = JSON.parse(stdout) as { idToken: string; scopes: string[]; reuse: string };
    expect(result.scopes).toEqual(["openid", "profile", "email"]);
    expect(result.reuse).toBe("invalid_grant");
    const { payload } = await verify(result.idToken, TRICKY.clientId);
    expect(payload.sub).toBe("auth0|alice");
  });
});

describe("OIDC stand-in: the CLI", () => {
  it("prints where it listens, signs in the demo users, and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/oidc-standin-cli.ts"], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      env: { ...process.env, OIDC_PORT: "0", OIDC_CERT_DIR: certDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      let output = "";
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("\n")) resolve(output.split("\n")[0]!);
        });
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        void exited.then((code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const match = /^oidc stand-in listening on (https:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      expect(match, line).not.toBeNull();
      const origin = match![1]!;
      expect((await call("GET", "/health", { origin })).status).toBe(200);

      const mia = HARBOUR_USERS.find((u) => u.email === "mia@harbour.example")!;
      const verifier = generateCodeVerifier();
      const query = authorizeQuery({ client_id: HARBOUR_CLIENT.clientId }, verifier);
      const signedIn = await call("POST", "/authorize", {
        origin,
        form: { ...Object.fromEntries(query), email: mia.email, password: mia.password, action: "continue" },
      });
      const code = new URL(String(signedIn.headers.location)).searchParams.get("code")!;
      const tokens = await call("POST", "/oauth/token", {
        origin,
        headers: { authorization: basic(HARBOUR_CLIENT.clientId, HARBOUR_CLIENT.clientSecret) },
        form: { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
      });
      expect(tokens.status).toBe(200);
      const { name, sub } = decodeJwt((JSON.parse(tokens.text) as { id_token: string }).id_token);
      expect({ name, sub }).toEqual({ name: "Mia Chen", sub: "auth0|harbour-mia" });
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
