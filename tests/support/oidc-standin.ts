import { createHash, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

/**
 * A small OpenID Connect provider that plays Auth0 for tests and local demos: the
 * authorisation-code flow with PKCE (S256) and state, RS256 id tokens with a published
 * key set, and Auth0's logout endpoint. It speaks HTTPS, because the portal's Auth0
 * strategy only ever calls https://<domain>/…
 */
export type StandinUser = {
  sub: string;
  email: string;
  password: string;
  givenName?: string;
  familyName?: string;
  emailVerified?: boolean;
  /** Negative-test hooks: this user's id token is deliberately broken. */
  tamper?: "bad-signature" | "expired" | "wrong-audience" | "wrong-issuer";
};
export type StandinClient = { clientId: string; clientSecret: string };

/** A self-signed certificate for 127.0.0.1 (made once), usable as NODE_EXTRA_CA_CERTS. */
export function ensureStandinCertificate(certDir: string): { certPath: string; keyPath: string } {
  const certPath = path.resolve(certDir, "cert.pem");
  const keyPath = path.resolve(certDir, "key.pem");
  if (!fs.existsSync(certPath) || !fs.existsSync(keyPath)) {
    fs.mkdirSync(path.dirname(certPath), { recursive: true });
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "365", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", keyPath, "-out", certPath],
      { stdio: "ignore" },
    );
  }
  return { certPath, keyPath };
}

type Code = { clientId: string; redirectUri: string; challenge: string; user: StandinUser; expires: number };

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function loginPage(params: URLSearchParams, error?: string) {
  const hidden = [...params]
    .filter(([key]) => !["email", "password", "action"].includes(key))
    .map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(value)}">`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in – Stand-in identity provider</title></head><body><main>
<h1>Sign in</h1><p>Stand-in identity provider (plays Auth0 for tests and demos).</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/authorize">${hidden}
<p><label for="email">Email</label><br><input id="email" name="email" type="email" autocomplete="username" required></p>
<p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password"></p>
<p><button type="submit" name="action" value="login">Continue</button> <button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></p>
</form></main></body></html>`;
}

async function readBody(req: import("node:http").IncomingMessage) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startOidcStandin(options: {
  port: number;
  host?: string;
  certDir: string;
  clients: StandinClient[];
  users: StandinUser[];
}) {
  const host = options.host ?? "127.0.0.1";
  const { certPath, keyPath } = ensureStandinCertificate(options.certDir);
  const kid = randomBytes(8).toString("hex");
  const signing = await generateKeyPair("RS256", { extractable: true });
  const impostor = await generateKeyPair("RS256");
  const publicJwk: JWK = { ...(await exportJWK(signing.publicKey)), kid, alg: "RS256", use: "sig" };
  const codes = new Map<string, Code>();
  let origin = "";

  async function idToken(user: StandinUser, clientId: string) {
    const now = Math.floor(Date.now() / 1000);
    const key: CryptoKey = user.tamper === "bad-signature" ? impostor.privateKey : signing.privateKey;
    return new SignJWT({
      email: user.email,
      email_verified: user.emailVerified ?? false,
      given_name: user.givenName,
      family_name: user.familyName,
      name: [user.givenName, user.familyName].filter(Boolean).join(" ") || user.email,
    })
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .setIssuer(user.tamper === "wrong-issuer" ? "https://evil.example/" : `${origin}/`)
      .setAudience(user.tamper === "wrong-audience" ? "someone-else" : clientId)
      .setSubject(user.sub)
      .setIssuedAt(user.tamper === "expired" ? now - 7200 : now)
      .setExpirationTime(user.tamper === "expired" ? now - 3600 : now + 3600)
      .sign(key);
  }

  const server = https.createServer({ cert: fs.readFileSync(certPath), key: fs.readFileSync(keyPath) }, (req, res) => {
    const url = new URL(req.url ?? "/", "https://standin");
    const send = (status: number, body: string, type = "text/html; charset=utf-8", headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers });
      res.end(body);
    };
    const json = (status: number, body: unknown) => send(status, JSON.stringify(body), "application/json");
    const redirect = (location: string) => {
      res.writeHead(302, { location });
      res.end();
    };

    (async () => {
      if (req.method === "GET" && url.pathname === "/health") return send(200, "ok", "text/plain");
      if (req.method === "GET" && url.pathname === "/.well-known/jwks.json") return json(200, { keys: [publicJwk] });
      if (req.method === "GET" && url.pathname === "/.well-known/openid-configuration") {
        return json(200, {
          issuer: `${origin}/`,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/oauth/token`,
          jwks_uri: `${origin}/.well-known/jwks.json`,
          end_session_endpoint: `${origin}/v2/logout`,
          code_challenge_methods_supported: ["S256"],
        });
      }
      if (url.pathname === "/authorize") {
        const params = req.method === "POST" ? await readBody(req) : url.searchParams;
        const client = options.clients.find((c) => c.clientId === params.get("client_id"));
        const redirectUri = params.get("redirect_uri") ?? "";
        const state = params.get("state");
        if (
          !client ||
          params.get("response_type") !== "code" ||
          params.get("code_challenge_method") !== "S256" ||
          !params.get("code_challenge") ||
          !state ||
          !/^https?:\/\//.test(redirectUri)
        ) {
          return send(400, "<!doctype html><title>Bad request</title><h1>Bad authorisation request</h1>");
        }
        if (req.method === "GET") return send(200, loginPage(params));
        const back = new URL(redirectUri);
        if (params.get("action") === "cancel") {
          back.searchParams.set("error", "access_denied");
          back.searchParams.set("error_description", "The user cancelled the sign-in");
          back.searchParams.set("state", state);
          return redirect(back.toString());
        }
        const user = options.users.find((u) => u.email === params.get("email")?.trim().toLowerCase());
        if (!user || user.password !== params.get("password")) {
          return send(401, loginPage(params, "Wrong email or password."));
        }
        const code = randomBytes(24).toString("base64url");
        codes.set(code, { clientId: client.clientId, redirectUri, challenge: params.get("code_challenge")!, user, expires: Date.now() + 60_000 });
        back.searchParams.set("code", code);
        back.searchParams.set("state", state);
        return redirect(back.toString());
      }
      if (req.method === "POST" && url.pathname === "/oauth/token") {
        const body = await readBody(req);
        // arctic sends the client credentials as HTTP Basic; accept body credentials too.
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
        const [id, secret] = basic
          ? Buffer.from(basic[1]!, "base64").toString("utf8").split(":").map(decodeURIComponent)
          : [body.get("client_id"), body.get("client_secret")];
        const client = options.clients.find((c) => c.clientId === id);
        if (!client || client.clientSecret !== secret) {
          return json(401, { error: "invalid_client", error_description: "Client authentication failed" });
        }
        if (body.get("grant_type") !== "authorization_code") {
          return json(400, { error: "unsupported_grant_type", error_description: "Only authorization_code" });
        }
        const code = codes.get(body.get("code") ?? "");
        codes.delete(body.get("code") ?? "");
        const verifier = body.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!code || code.expires < Date.now() || code.clientId !== client.clientId || code.redirectUri !== body.get("redirect_uri") || code.challenge !== challenge) {
          return json(400, { error: "invalid_grant", error_description: "Invalid authorization code or PKCE verifier" });
        }
        return json(200, {
          access_token: randomBytes(24).toString("base64url"),
          token_type: "Bearer",
          id_token: await idToken(code.user, client.clientId),
          expires_in: 3600,
          scope: "openid profile email",
        });
      }
      if (req.method === "GET" && url.pathname === "/v2/logout") {
        const returnTo = url.searchParams.get("returnTo") ?? "";
        if (!/^https?:\/\//.test(returnTo)) return send(400, "<!doctype html><title>Bad request</title><h1>Bad logout request</h1>");
        return redirect(returnTo);
      }
      if (req.method === "POST" && url.pathname === "/oauth/revoke") return send(200, "", "text/plain");
      return send(404, "<!doctype html><title>Not found</title><h1>Not found</h1>");
    })().catch(() => send(400, "<!doctype html><title>Bad request</title><h1>Bad request</h1>"));
  });

  await new Promise<void>((resolve) => server.listen(options.port, host, resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `https://${host}:${port}`;
  return {
    origin,
    domain: `${host}:${port}`,
    caCertPath: certPath,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
