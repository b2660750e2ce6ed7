import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

/**
 * A small OpenID Connect provider that plays Auth0 for end-to-end tests and local demos:
 * the authorisation-code flow with PKCE (S256) and state, RS256 id tokens with a published
 * key set, and Auth0's logout and revocation endpoints. It speaks HTTPS because the portal's
 * Auth0 strategy (remix-auth-auth0 → arctic) only ever calls https://<domain>/….
 */
export type StandinUser = {
  sub: string;
  email: string;
  password: string;
  givenName?: string;
  familyName?: string;
  emailVerified?: boolean;
  /** Negative-test hooks: the id token for this user is deliberately broken. */
  tamper?: "bad-signature" | "expired" | "wrong-audience" | "wrong-issuer";
};
export type StandinClient = { clientId: string; clientSecret: string };
export type OidcStandin = { origin: string; domain: string; caCertPath: string; close(): Promise<void> };

/**
 * A self-signed certificate for 127.0.0.1 and localhost, valid for a year, made once and
 * usable as NODE_EXTRA_CA_CERTS by the portal (the README points at <certDir>/cert.pem).
 * Synchronous because playwright.config.ts needs the file before it can export its config;
 * selfsigned 5 is async-only, hence openssl.
 */
export function ensureStandinCertificate(certDir: string): { certPath: string; keyPath: string } {
  const dir = path.resolve(certDir);
  const certPath = path.join(dir, "cert.pem");
  const keyPath = path.join(dir, "key.pem");
  const made = () => fs.existsSync(certPath) && fs.existsSync(keyPath);
  if (made()) return { certPath, keyPath };
  fs.mkdirSync(dir, { recursive: true });
  // Processes can race here (Playwright loads its config in every worker): one makes the pair
  // under a lock, so no one ever pairs its key with another process's certificate.
  const lock = path.join(dir, ".lock");
  for (let waited = 0; ; waited += 50) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (waited > 30_000)
        fs.rmSync(lock, { recursive: true, force: true }); // left by a crashed process
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50); // a synchronous sleep
    }
  }
  try {
    if (!made()) {
      const [newCert, newKey] = [`${certPath}.${process.pid}`, `${keyPath}.${process.pid}`];
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-sha256",
          "-days",
          "365",
          "-subj",
          "/CN=127.0.0.1",
          "-addext",
          "subjectAltName=IP:127.0.0.1,DNS:localhost",
          "-addext",
          "extendedKeyUsage=serverAuth",
          "-keyout",
          newKey,
          "-out",
          newCert,
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      fs.renameSync(newKey, keyPath);
      fs.renameSync(newCert, certPath);
    }
  } finally {
    fs.rmdirSync(lock);
  }
  return { certPath, keyPath };
}

/** What an authorisation code stands for until it is exchanged (once) at the token endpoint. */
type Grant = {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  nonce: string | null;
  user: StandinUser;
  expiresAt: number;
};

const CODE_LIFETIME_MS = 60_000;
const TOKEN_LIFETIME_S = 3600;
/** Fields of the sign-in form itself; everything else in it is the original authorisation request. */
const FORM_FIELDS = new Set(["email", "password", "action"]);
const FORM_TYPE = "application/x-www-form-urlencoded";

export async function startOidcStandin(options: {
  port: number;
  host?: string;
  certDir: string;
  clients: StandinClient[];
  users: StandinUser[];
}): Promise<OidcStandin> {
  const host = options.host ?? "127.0.0.1";
  const { certPath, keyPath } = ensureStandinCertificate(options.certDir);
  const kid = randomBytes(8).toString("hex");
  const signing = await generateKeyPair("RS256");
  // Signs "bad-signature" tokens under the same kid, and is never published.
  const impostor = await generateKeyPair("RS256");
  const jwks = { keys: [{ ...(await exportJWK(signing.publicKey)), kid, alg: "RS256", use: "sig" }] };
  const grants = new Map<string, Grant>();
  let origin = ""; // known once listening (port 0 picks a free port)

  function idToken(grant: Grant) {
    const { user } = grant;
    const now = Math.floor(Date.now() / 1000);
    const name = [user.givenName, user.familyName].filter(Boolean).join(" ") || user.email;
    return new SignJWT({
      email: user.email,
      email_verified: user.emailVerified ?? false,
      given_name: user.givenName,
      family_name: user.familyName,
      name,
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
    })
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .setIssuer(user.tamper === "wrong-issuer" ? "https://evil.example/" : `${origin}/`) // Auth0's issuer ends in "/"
      .setAudience(user.tamper === "wrong-audience" ? "someone-else" : grant.clientId)
      .setSubject(user.sub)
      .setIssuedAt(user.tamper === "expired" ? now - 2 * TOKEN_LIFETIME_S : now)
      .setExpirationTime(user.tamper === "expired" ? now - TOKEN_LIFETIME_S : now + TOKEN_LIFETIME_S)
      .sign(user.tamper === "bad-signature" ? impostor.privateKey : signing.privateKey);
  }

  function authorize(res: ServerResponse, params: URLSearchParams, submitted: boolean) {
    const client = options.clients.find((c) => c.clientId === params.get("client_id"));
    const redirectUri = params.get("redirect_uri") ?? "";
    const state = params.get("state");
    const problem = [
      [!client, "Unknown client_id."],
      [params.get("response_type") !== "code", "response_type must be code."],
      [
        params.get("code_challenge_method") !== "S256" || !/^[\w-]{43}$/.test(params.get("code_challenge") ?? ""),
        "PKCE is required: code_challenge_method=S256 and a base64url SHA-256 code_challenge.",
      ],
      [!state, "state is required."],
      [!isHttpUrl(redirectUri), "redirect_uri must be an http(s) URL."],
    ].find(([failed]) => failed)?.[1] as string | undefined;
    // Never redirect a bad request: the redirect_uri itself may be what is wrong (RFC 6749 §4.1.2.1).
    if (problem || !client || !state) return badRequest(res, "Bad authorisation request", problem);
    if (!submitted) return send(res, 200, signInPage(params));

    const back = new URL(redirectUri);
    if (params.get("action") === "cancel") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user cancelled the sign-in");
      back.searchParams.set("state", state);
      return redirect(res, back.href);
    }
    const email = (params.get("email") ?? "").trim().toLowerCase();
    const user = options.users.find((u) => u.email.toLowerCase() === email);
    if (!user || user.password !== params.get("password")) {
      return send(res, 401, signInPage(params, "Wrong email or password."));
    }
    for (const [code, grant] of grants) if (grant.expiresAt < Date.now()) grants.delete(code);
    const code = randomBytes(32).toString("base64url");
    grants.set(code, {
      clientId: client.clientId,
      redirectUri,
      codeChallenge: params.get("code_challenge")!,
      scope: params.get("scope") || "openid",
      nonce: params.get("nonce"),
      user,
      expiresAt: Date.now() + CODE_LIFETIME_MS,
    });
    back.searchParams.set("code", code);
    back.searchParams.set("state", state);
    return redirect(res, back.href);
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const body = await readForm(req);
    if (!body) return oauthError(res, 400, "invalid_request", `The body must be ${FORM_TYPE}, at most 64 KiB.`);
    const credentials = clientCredentials(req.headers.authorization, body);
    const client = credentials && options.clients.find((c) => sameCredential(credentials.id, c.clientId));
    if (!client || !sameCredential(credentials.secret, client.clientSecret)) {
      // RFC 6749 §5.2: 401 with a challenge for the scheme the client tried.
      return oauthError(res, 401, "invalid_client", "Client authentication failed.", {
        "www-authenticate": 'Basic realm="oidc-standin"',
      });
    }
    if (body.get("grant_type") !== "authorization_code") {
      return oauthError(res, 400, "unsupported_grant_type", "Only authorization_code is supported.");
    }
    const code = body.get("code") ?? "";
    const grant = grants.get(code);
    if (!grant || grant.expiresAt < Date.now()) {
      return oauthError(res, 400, "invalid_grant", "The authorization code is unknown, expired or already used.");
    }
    grants.delete(code); // one-time: once presented by its client, a code is spent whatever follows
    if (grant.clientId !== client.clientId) {
      return oauthError(res, 400, "invalid_grant", "The authorization code was issued to another client.");
    }
    if (grant.redirectUri !== body.get("redirect_uri")) {
      return oauthError(res, 400, "invalid_grant", "redirect_uri does not match the authorization request.");
    }
    const verifier = body.get("code_verifier") ?? "";
    if (createHash("sha256").update(verifier).digest("base64url") !== grant.codeChallenge) {
      return oauthError(res, 400, "invalid_grant", "code_verifier does not match the code_challenge.");
    }
    return sendJson(res, 200, {
      access_token: randomBytes(32).toString("base64url"),
      token_type: "Bearer",
      id_token: await idToken(grant),
      expires_in: TOKEN_LIFETIME_S,
      scope: grant.scope,
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", origin);
    switch (`${req.method} ${url.pathname}`) {
      case "GET /health":
        return send(res, 200, "ok", { "content-type": "text/plain; charset=utf-8" });
      case "GET /.well-known/jwks.json":
        return sendJson(res, 200, jwks);
      case "GET /.well-known/openid-configuration":
        return sendJson(res, 200, {
          issuer: `${origin}/`,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/oauth/token`,
          jwks_uri: `${origin}/.well-known/jwks.json`,
          end_session_endpoint: `${origin}/v2/logout`,
          revocation_endpoint: `${origin}/oauth/revoke`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          id_token_signing_alg_values_supported: ["RS256"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        });
      case "GET /authorize":
        return authorize(res, url.searchParams, false);
      case "POST /authorize": {
        const form = await readForm(req);
        return form ? authorize(res, form, true) : badRequest(res, "Bad request", `The body must be ${FORM_TYPE}.`);
      }
      case "POST /oauth/token":
        return token(req, res);
      case "GET /v2/logout": {
        const returnTo = url.searchParams.get("returnTo") ?? "";
        return isHttpUrl(returnTo)
          ? redirect(res, returnTo)
          : badRequest(res, "Bad logout request", "returnTo must be an http(s) URL.");
      }
      case "POST /oauth/revoke":
        req.resume(); // tokens are not tracked, so there is nothing to revoke
        return send(res, 200, "", { "content-type": "text/plain; charset=utf-8" });
      default:
        return send(res, 404, htmlPage("Not found – Stand-in identity provider", "<main><h1>Not found</h1></main>"));
    }
  }

  const server = https.createServer({ cert: fs.readFileSync(certPath), key: fs.readFileSync(keyPath) }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("oidc stand-in:", error);
      if (res.headersSent) res.destroy();
      else send(res, 500, htmlPage("Error – Stand-in identity provider", "<main><h1>Internal error</h1></main>"));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const domain = `${host}:${(server.address() as AddressInfo).port}`;
  origin = `https://${domain}`;
  return {
    origin,
    domain,
    caCertPath: certPath,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // keep-alive sockets (fetch, browsers) would hold close() open
      }),
  };
}

/**
 * The client's id and secret. arctic sends client_secret_basic as base64("id:secret") with
 * the parts NOT form-encoded (RFC 6749 §2.3.1 says they should be) and no client_id in the
 * body; client_secret_post (both in the body) is accepted too.
 */
function clientCredentials(authorization: string | undefined, body: URLSearchParams) {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? "");
  if (basic) {
    const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":"); // the id cannot hold a colon; the secret may
    return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  const id = body.get("client_id");
  const secret = body.get("client_secret");
  return id && secret ? { id, secret } : null;
}

/** Equal as sent (arctic) or once form-decoded (RFC 6749 §2.3.1 clients). */
function sameCredential(sent: string, expected: string) {
  if (sent === expected) return true;
  try {
    return decodeURIComponent(sent.replace(/\+/g, " ")) === expected;
  } catch {
    return false;
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  if (!(req.headers["content-type"] ?? "").toLowerCase().startsWith(FORM_TYPE)) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function isHttpUrl(value: string) {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    // No scripts, styles or framing; the referrer would leak the authorisation request.
    "content-security-policy": "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  send(res, status, JSON.stringify(body), { "content-type": "application/json", pragma: "no-cache", ...headers });
}

/** An RFC 6749 §5.2 error response. */
function oauthError(
  res: ServerResponse,
  status: 400 | 401,
  error: string,
  description: string,
  headers: Record<string, string> = {},
) {
  sendJson(res, status, { error, error_description: description }, headers);
}

function badRequest(res: ServerResponse, heading: string, detail = "") {
  send(
    res,
    400,
    htmlPage(
      "Bad request – Stand-in identity provider",
      `<main><h1>${heading}</h1><p>${escapeHtml(detail)}</p></main>`,
    ),
  );
}

function redirect(res: ServerResponse, location: string) {
  res.writeHead(302, { location, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  res.end();
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function htmlPage(title: string, body: string) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
${body}
</body>
</html>`;
}

/**
 * A plain form that posts back to /authorize with the original request in hidden fields, so
 * it works without JavaScript. The password is never written back into the page.
 */
function signInPage(params: URLSearchParams, error?: string) {
  const hidden = [...params]
    .filter(([name]) => !FORM_FIELDS.has(name))
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  const invalid = error ? ' aria-invalid="true" aria-describedby="sign-in-error"' : "";
  return htmlPage(
    "Sign in – Stand-in identity provider",
    `<main>
<h1>Sign in</h1>
<p>This stand-in identity provider plays Auth0 for tests and local demos.</p>
${error ? `<p id="sign-in-error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/authorize">
${hidden}
<p><label for="email">Email</label><br>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(params.get("email") ?? "")}"${invalid}></p>
<p><label for="password">Password</label><br>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}></p>
<p><button type="submit" name="action" value="continue">Continue</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></p>
</form>
</main>`,
  );
}
