import http from "node:http";
import { BENCH_PORT } from "../config";

/**
 * Plain HTTP to the bench's portal on loopback. Browsers resolve *.localhost to loopback,
 * Node does not, so every call goes to 127.0.0.1 with the brand's host name in the Host
 * header (what a browser sends). Redirects are not followed: the bench looks at them.
 */
export type BenchResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

export function request(
  host: string,
  path: string,
  options: {
    method?: string;
    cookie?: string;
    form?: Record<string, string>;
    /** A connection pool of the caller's own (bench/documents.ts polls /heartbeat on a connection of its own). */
    agent?: http.Agent;
  } = {},
): Promise<BenchResponse> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: BENCH_PORT,
        path,
        method: options.method ?? "GET",
        ...(options.agent ? { agent: options.agent } : {}),
        headers: {
          host: `${host}:${BENCH_PORT}`,
          // Same-origin, as the browser would say for its own form.
          ...(body
            ? { "content-type": "application/x-www-form-urlencoded", origin: `http://${host}:${BENCH_PORT}` }
            : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${path}: no answer in 30 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** Signs in through the real sign-in form and returns the cookies it set, as a Cookie header. */
export async function signIn(host: string, email: string, password: string): Promise<string> {
  const response = await request(host, "/auth/signin", { method: "POST", form: { email, password, callbackUrl: "/" } });
  const setCookie = response.headers["set-cookie"] ?? [];
  const session = setCookie.map((line) => line.split(";")[0]!).join("; ");
  if (response.status !== 302 || !session) {
    throw new Error(`Signing in ${email} on ${host} failed: HTTP ${response.status}`);
  }
  return session;
}

/** Polls until the portal answers its health check, or fails after `timeoutMs`. */
export async function waitForPortal(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await request("127.0.0.1", "/api/host/heartbeat");
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`The portal did not answer on port ${BENCH_PORT} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
