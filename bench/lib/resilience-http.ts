import http from "node:http";

/**
 * Plain HTTP for the resilience bench, loopback only: every request goes to 127.0.0.1 with the
 * brand's host name in the Host header (what a browser sends for *.localhost). Keep-alive, as a
 * browser keeps its connection; redirects are not followed (a payment's answer is its redirect).
 */
export type Answer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
};

const agent = new http.Agent({ keepAlive: true, maxSockets: 2_000 });

function send(
  port: number,
  host: string,
  path: string,
  options: { method: string; cookie?: string; form?: Record<string, string>; timeoutMs: number },
): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method,
        agent,
        headers: {
          host: `${host}:${port}`,
          ...(body ? { "content-type": "application/x-www-form-urlencoded", origin: `http://${host}:${port}` } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer in ${options.timeoutMs / 1000} s`)));
    req.on("error", reject);
    req.end(body);
  });
}

export const get = (port: number, host: string, path: string, cookie?: string, timeoutMs = 30_000) =>
  send(port, host, path, { method: "GET", cookie, timeoutMs });

export const post = (
  port: number,
  host: string,
  path: string,
  form: Record<string, string>,
  cookie?: string,
  timeoutMs = 60_000,
) => send(port, host, path, { method: "POST", form, cookie, timeoutMs });

/** Signs in through the real sign-in form; the session's cookies as a Cookie header. */
export async function signIn(port: number, host: string, email: string, password: string): Promise<string> {
  const response = await post(port, host, "/auth/signin", { email, password, callbackUrl: "/" });
  const session = (response.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]!).join("; ");
  if (response.status !== 302 || !session) {
    throw new Error(`Signing in ${email} failed: HTTP ${response.status}`);
  }
  return session;
}
