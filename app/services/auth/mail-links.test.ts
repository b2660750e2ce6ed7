import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSeededPglite } from "../../../tests/support/test-db";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import type { DatabaseHandle } from "../platform/db.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { resetEnvForTesting } from "../platform/env.server";
import { findHostBranding, publicBaseUrl, type HostBranding } from "../host/host.server";
import { sendReceipt } from "../payments/receipts.server";
import { requestPasswordReset, sendVerificationMail } from "./password-flows.server";
import { createSession, getSession } from "./session.server";

/**
 * Every link in every email is built from the host's canonical base URL (decision 024),
 * never from what the request says its host, port or scheme is.
 */
let handle: DatabaseHandle;
let catcher: SmtpCatcher;
let acme: HostBranding;
const saved = { SMTP_URL: process.env.SMTP_URL, TRUST_PROXY: process.env.TRUST_PROXY };
const CANONICAL = "https://pay.acme.example";

/** A request as a hostile or misconfigured proxy would pass it on. */
const skewed = (path: string, cookie?: string) =>
  new Request(`http://acme.localhost:8443${path}`, {
    method: "POST",
    headers: {
      host: "acme.localhost:8443",
      "x-forwarded-host": "acme.localhost:6666",
      "x-forwarded-proto": "http",
      ...(cookie ? { cookie } : {}),
    },
  });

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  process.env.SMTP_URL = catcher.smtpUrl;
  process.env.TRUST_PROXY = "true";
  resetEnvForTesting();
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  await handle.db
    .updateTable("hosts")
    .set({ public_base_url: CANONICAL })
    .where("hostname", "=", "acme.localhost")
    .execute();
  acme = (await findHostBranding(handle.db, "acme.localhost"))!;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
  await catcher.close();
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvForTesting();
});

describe("links in mail", () => {
  it("the host's configured base URL, or https on its own name when none is set", () => {
    expect(publicBaseUrl(acme)).toBe(CANONICAL);
    expect(publicBaseUrl({ hostname: "kiwi.localhost", publicBaseUrl: null })).toBe("https://kiwi.localhost");
  });

  it("password reset", async () => {
    const since = catcher.messages.length;
    expect(await requestPasswordReset(acme, "olivia@coastal.example", skewed("/auth/password"))).toEqual({ ok: true });
    const mail = await catcher.waitForMail("olivia@coastal.example", { after: since });
    const link = mail.links.find((l) => l.includes("/auth/password/reset?"));
    expect(link).toMatch(
      /^https:\/\/pay\.acme\.example\/auth\/password\/reset\?token=[\w-]+&email=olivia%40coastal\.example$/,
    );
    expect(mail.text).not.toContain("8443");
    expect(mail.text).not.toContain("6666");
  });

  it("email verification", async () => {
    const contact = await handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", "sam@coastal.example")
      .executeTakeFirstOrThrow();
    const cookie = (
      await createSession(skewed("/"), {
        businessId: acme.businessId,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
    const session = (await getSession(skewed("/", cookie), acme.businessId))!;
    const since = catcher.messages.length;
    expect(await sendVerificationMail(acme, session, skewed("/auth/verify", cookie))).toEqual({ ok: true });
    const mail = await catcher.waitForMail("sam@coastal.example", { after: since });
    expect(mail.links.find((l) => l.includes("/auth/verify?"))).toMatch(
      /^https:\/\/pay\.acme\.example\/auth\/verify\?token=[\w-]+$/,
    );
    expect(mail.links.every((l) => l.startsWith(`${CANONICAL}/`))).toBe(true);
  });

  it("receipts", async () => {
    const account = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("business_id", "=", acme.businessId)
      .where("number", "=", "ACME-1000")
      .executeTakeFirstOrThrow();
    const contact = await handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", "olivia@coastal.example")
      .executeTakeFirstOrThrow();
    const payment = await handle.db
      .insertInto("payments")
      .values({
        business_id: acme.businessId,
        account_id: account.id,
        request_guid: randomUUID(),
        request_hash: "0".repeat(64),
        reference: "RCPT-LINK-1",
        method: "card",
        status: "succeeded",
        currency: "AUD",
        amount_cents: 1_000,
        subtotal_cents: 1_000,
        card_brand: "visa",
        card_last4: "1111",
        created_by: contact.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const since = catcher.messages.length;
    await sendReceipt(acme, payment.id);
    const mail = await catcher.waitForMail("olivia@coastal.example", { after: since });
    // The receipt's link, and (decision 039) the signed link to the contact's preferences: both canonical.
    // The receipt's own signed link (decision 076): it opens without signing in.
    expect(mail.links).toEqual([
      expect.stringMatching(/^https:\/\/pay\.acme\.example\/customer\/receipt\/[\w-]{22}\.[0-9a-z]+\.[\w-]{22}$/),
      expect.stringMatching(/^https:\/\/pay\.acme\.example\/communication\/[\w-]+\.prefs\.[0-9a-z]+\.[\w-]+$/),
    ]);
    // The HTML part is the same receipt in the host's branded frame, its link on the same origin.
    expect(mail.html).toContain(`href="${mail.links[0]}"`);
    expect(mail.html).toContain('src="https://pay.acme.example/brands/acme/email-logo.png"');
    expect(mail.text).toContain("Reference: RCPT-LINK-1");
  });
});
