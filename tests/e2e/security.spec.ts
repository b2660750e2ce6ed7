import http from "node:http";
import net from "node:net";
import type { Page } from "@playwright/test";
import { DEMO_PASSWORD } from "../../db/seed/demo";
import { ACME, expect, PORT, signInAs, test } from "./fixtures";

/**
 * Issue 12's probes of the running portal (decision 024), over real HTTP against the built
 * server as `npm start` runs it (scripts/serve.js).
 */

async function sessionCookie(page: Page) {
  const cookie = (await page.context().cookies(ACME)).find((c) => c.name === "portal_session");
  if (!cookie) throw new Error("not signed in");
  return `portal_session=${cookie.value}`;
}

/** Raw bytes to the portal; resolves with everything it sends back before closing. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(PORT, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

/**
 * A chunked POST of `pieces` × 8 KB that is never finished; resolves with the status. Any answer at all
 * came before the body ended, so it was given "at once"; one that waited would never come, and the test's
 * time-out would fail it.
 */
function endlessPost(path: string, contentType: string, pieces = 40) {
  return new Promise<{ status: number }>((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port: PORT,
      path,
      method: "POST",
      headers: { host: new URL(ACME).host, origin: ACME, "content-type": contentType },
    });
    req.on("response", (res) => {
      res.resume();
      resolve({ status: res.statusCode! });
      req.destroy();
    });
    req.on("error", reject);
    const piece = `a=${"x".repeat(8190)}`;
    let sent = 0;
    const pump = () => {
      while (sent < pieces) {
        sent++;
        if (!req.write(piece)) {
          req.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
}

test.describe("signed-in pages are never kept by the browser", () => {
  test("sign out, then Back: the saved cards are not shown again", async ({ page }) => {
    await signInAs(page, ACME, "olivia@coastal.example", DEMO_PASSWORD);
    const cards = await page.goto(`${ACME}/payment-methods`);
    expect(cards?.headers()["cache-control"]).toBe("private, no-store");
    await expect(page.getByRole("main")).toContainText("1111");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(`${ACME}/auth/signin`);
    await page.goBack();
    // The page is asked for again, and the server sends the signed-out visitor to sign in.
    await expect(page).toHaveURL(/\/auth\/signin\?callbackUrl=%2Fpayment-methods/);
    await expect(page.getByRole("main")).not.toContainText("1111");
  });

  test("documents and single-fetch data carry Cache-Control: private, no-store", async ({ page, hostRequest }) => {
    await signInAs(page, ACME, "olivia@coastal.example", DEMO_PASSWORD);
    const cookie = await sessionCookie(page);
    for (const path of ["/", "/payment-methods", "/statements", "/payment-methods.data", "/_root.data"]) {
      const response = await hostRequest.get(`${ACME}${path}`, { headers: { cookie } });
      expect(response.status(), path).toBe(200);
      expect(response.headers()["cache-control"], path).toBe("private, no-store");
    }
    // Signed-out pages too: one rule for every document.
    const signIn = await hostRequest.get(`${ACME}/auth/signin`);
    expect(signIn.status()).toBe(200);
    expect(signIn.headers()["cache-control"]).toBe("private, no-store");
  });
});

test.describe("the front door", () => {
  test("TRACE, TRACK and CONNECT are 405 with Allow, on any path", async () => {
    for (const [method, target] of [
      ["TRACE", "/payment-methods"],
      ["TRACE", "/api/host/heartbeat"],
      ["TRACK", "/"],
      ["CONNECT", "acme.localhost:443"],
    ]) {
      const answer = await raw(`${method} ${target} HTTP/1.1\r\nHost: ${new URL(ACME).host}\r\n\r\n`);
      expect(answer, `${method} ${target}`).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(answer, `${method} ${target}`).toMatch(/\r\nAllow: GET, HEAD, POST/i);
    }
  });

  test("a chunked body over 64 KB is answered at once on every kind of route", async () => {
    for (const [path, type, expected] of [
      ["/auth/signin", "application/x-www-form-urlencoded", 413],
      ["/language", "application/x-www-form-urlencoded", 413],
      ["/auth/password/reset", "application/x-www-form-urlencoded", 413],
      ["/api/sample/forgot-send", "application/json", 413],
      // No action here: refused without reading the body.
      ["/api/host/heartbeat", "application/json", 405],
    ] as const) {
      const { status } = await endlessPost(path, type);
      expect(status, path).toBe(expected);
    }
  });

  test("U+0000 in a query string is a clear 400, on pages and in the API", async ({ page, hostRequest }) => {
    const anonymous = await hostRequest.get(`${ACME}/accounts?q=a%00b`);
    expect(anonymous.status()).toBe(400);
    expect(await anonymous.text()).toContain("control characters");
    await signInAs(page, ACME, "olivia@coastal.example", DEMO_PASSWORD);
    const cookie = await sessionCookie(page);
    const search = await hostRequest.get(`${ACME}/accounts?q=${encodeURIComponent("coast\u0000")}`, {
      headers: { cookie },
    });
    expect(search.status()).toBe(400);
    const filter = encodeURIComponent(JSON.stringify([{ field: "text", value: "coast\u0000" }]));
    const api = await hostRequest.get(`${ACME}/api/sample/accounts-search?skip=0&take=5&filter=${filter}`, {
      headers: { cookie },
    });
    expect(api.status()).toBe(400);
    expect((await api.json()).message).toContain("control characters");
    // The same search without it works.
    const fine = await hostRequest.get(`${ACME}/accounts?q=coast`, { headers: { cookie } });
    expect(fine.status()).toBe(200);
  });

  test("a payment note with U+0000 is refused with a message, nothing paid", async ({ page, hostRequest }) => {
    await signInAs(page, ACME, "olivia@coastal.example", DEMO_PASSWORD);
    const cookie = await sessionCookie(page);
    const answer = await hostRequest.post(`${ACME}/customer/invoices-and-payments/pay`, {
      headers: { cookie, origin: ACME },
      form: { intent: "pay", note: "thanks\u0000", method: "card" },
    });
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain("control characters");
  });
});

test.describe("look-ups by a key from the address use own keys only", () => {
  test("?notice=__proto__ and ?sort=__proto__ are ignored, not a 500", async ({ page }) => {
    await signInAs(page, ACME, "olivia@coastal.example", DEMO_PASSWORD);
    for (const key of ["__proto__", "constructor", "toString"]) {
      const notice = await page.goto(`${ACME}/payment-methods?notice=${key}`);
      expect(notice?.status(), key).toBe(200);
      const sorted = await page.goto(`${ACME}/statements?sort=${key}`);
      expect(sorted?.status(), key).toBe(200);
    }
    // Not remembered either: the statement opens with its default order.
    await page.goto(`${ACME}/statements`);
    await expect(page.getByLabel("Sort")).toHaveValue("date-desc");
  });
});
