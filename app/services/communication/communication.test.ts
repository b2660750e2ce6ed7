import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSmtpCatcher, type SmtpCatcher, type CaughtMail } from "../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { findBusinessBranding } from "../host/host.server";
import { checkLinkToken } from "../links/link-tokens.server";
import { sendReceipt } from "../payments/receipts.server";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import { cancelPaymentRequest, createPaymentRequest } from "../requests/commands.server";
import { remindPaymentRequest, sendPaymentRequest } from "../requests/sending.server";
import { RequestProblem } from "../platform/problems.server";
import { sendContactMail } from "./contact-mail.server";
import { checkLink, signLink, unsubscribeLinkPath } from "./preference-links.server";
import { unsubscribeAction } from "./preference-page.server";
import { changePreferences, countPreferenceChanges, emailWanted, readPreferences } from "./preferences.server";

/**
 * Communication preferences against a real database (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set) and a real SMTP catcher (issue 17; decision 039): the defaults, a
 * change and its history; a payment reminder skipped for a recipient who opted out (who keeps
 * their link) while a receipt to the same contact is still sent; every contact mail's signed links.
 */
let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
});
afterAll(async () => {
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});
beforeEach(() => {
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});
afterEach(() => {
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});

async function problemOf(run: () => Promise<unknown>): Promise<RequestProblem> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RequestProblem) return error;
    throw error;
  }
  throw new Error("expected a RequestProblem");
}

const HOUR = 3_600_000;

/** The token of the mail's link to `/communication/<token>` (its footer). */
const preferencesToken = (mail: CaughtMail) =>
  mail.links
    .find((l) => /\/communication\/[^/?]+$/.test(l) && !l.includes("/unsubscribe"))
    ?.split("/communication/")[1];

function communicationSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme: string;
  let kiwi: string;
  const contact: Record<string, string> = {};

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const business = async (host: string) =>
      (await handle.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow())
        .business_id;
    acme = await business("acme.localhost");
    kiwi = await business("kiwi.localhost");
    for (const email of ["olivia@coastal.example", "new@coastal.example", "aroha@orchards.example"]) {
      contact[email] = (
        await handle.db.selectFrom("contacts").select("id").where("email", "=", email).executeTakeFirstOrThrow()
      ).id;
    }
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  it("a contact starts with the defaults: statements, invoices and reminders by email; nothing by post; no marketing", async () => {
    const view = (await readPreferences(acme, contact["new@coastal.example"]!))!;
    expect(view.contact.email).toBe("new@coastal.example");
    expect(view.choices.map((c) => [`${c.topic}.${c.channel}`, c.enabled, c.chosen])).toEqual([
      ["statements.email", true, false],
      ["statements.post", false, false],
      ["invoices.email", true, false],
      ["invoices.post", false, false],
      ["reminders.email", true, false],
      ["marketing.email", false, false],
    ]);
    expect(view.history).toEqual([]);
    // Another business's contact is nobody here.
    expect(await readPreferences(acme, contact["aroha@orchards.example"]!)).toBeNull();
    expect(await readPreferences(kiwi, contact["new@coastal.example"]!)).toBeNull();
    expect(await readPreferences(acme, "' OR 1=1 --")).toBeNull();
  });

  it("a change is kept with its history (what, on or off, how, when); the same change again is none", async () => {
    const who = contact["new@coastal.example"]!;
    const clock = fixedClock("2026-11-30T01:00:00Z");
    setClockForTesting(clock);
    try {
      const first = await changePreferences(
        acme,
        who,
        { "statements.post": true, "statements.email": true, "marketing.email": true },
        { via: "portal" },
      );
      expect(first).toEqual({ changed: ["statements.post", "marketing.email"] });
      clock.advanceMs(60_000);
      const again = await changePreferences(
        acme,
        who,
        { "statements.post": true, "marketing.email": true },
        { via: "link" },
      );
      expect(again).toEqual({ changed: [] });
      clock.advanceMs(60_000);
      const off = await changePreferences(acme, who, { "marketing.email": false }, { via: "one-click" });
      expect(off).toEqual({ changed: ["marketing.email"] });
    } finally {
      setClockForTesting(undefined);
    }
    const view = (await readPreferences(acme, who))!;
    expect(view.choices.find((c) => c.topic === "statements" && c.channel === "post")).toMatchObject({
      enabled: true,
      chosen: true,
      updatedAt: "2026-11-30T01:00:00.000Z",
    });
    expect(view.choices.find((c) => c.topic === "marketing")).toMatchObject({
      enabled: false,
      chosen: true,
      updatedAt: "2026-11-30T01:02:00.000Z",
    });
    // Newest first; the two changes of one save share their moment.
    expect(view.history[0]).toEqual({
      topic: "marketing",
      channel: "email",
      enabled: false,
      via: "one-click",
      by: "contact",
      note: null,
      changedAt: "2026-11-30T01:02:00.000Z",
    });
    expect(
      view.history
        .slice(1)
        .map((h) => `${h.topic}.${h.channel}=${h.enabled}/${h.via}/${h.by}@${h.changedAt}`)
        .sort(),
    ).toEqual([
      "marketing.email=true/portal/contact@2026-11-30T01:00:00.000Z",
      "statements.post=true/portal/contact@2026-11-30T01:00:00.000Z",
    ]);
    expect(await countPreferenceChanges(handle.db, acme, who)).toBe(3);
    // History is a record: never rewritten or removed.
    await expect(
      handle.db
        .updateTable("communication_preference_changes")
        .set({ enabled: true })
        .where("contact_id", "=", who)
        .execute(),
    ).rejects.toThrow(/never changed or deleted/);
    await expect(
      handle.db.deleteFrom("communication_preference_changes").where("contact_id", "=", who).execute(),
    ).rejects.toThrow(/never changed or deleted/);
    // Another business, or a contact of another business: nothing changes.
    expect(await changePreferences(kiwi, who, { "statements.post": false }, { via: "portal" })).toBeNull();
    expect(
      await changePreferences(acme, contact["aroha@orchards.example"]!, { "statements.post": true }, { via: "portal" }),
    ).toBeNull();
    expect(await countPreferenceChanges(handle.db, kiwi, contact["aroha@orchards.example"]!)).toBe(0);
    // Receipts (or anything unknown) are not a choice: ignored, never stored.
    expect(await changePreferences(acme, who, { "receipts.email": false } as never, { via: "portal" })).toEqual({
      changed: [],
    });
    // The database refuses a topic or channel the portal does not offer.
    await expect(
      handle.db
        .insertInto("communication_preferences")
        .values({ business_id: acme, contact_id: who, topic: "reminders", channel: "post", enabled: true })
        .execute(),
    ).rejects.toThrow();
  });

  it("news and offers: a signed link may turn them off, never on; signed in or recorded by the business, they may", async () => {
    const who = (
      await handle.db
        .insertInto("contacts")
        .values({
          business_id: acme,
          email: "offers@coastal.example",
          first_name: "Ollie",
          last_name: "Offers",
          position: "Buyer",
          verified_at: new Date(),
          permissions: [],
          password_hash: null,
          external_subject: null,
          disabled_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const marketing = async () =>
      (await readPreferences(acme, who))!.choices.find((c) => c.topic === "marketing")!.enabled;
    // Off (the default): neither a link nor a one-click can turn it on, even with another change beside it.
    for (const via of ["link", "one-click"] as const) {
      expect(await changePreferences(acme, who, { "marketing.email": true, "statements.post": true }, { via })).toEqual(
        { changed: [], refused: ["marketing.email"] },
      );
    }
    expect(await marketing()).toBe(false);
    expect(await countPreferenceChanges(handle.db, acme, who)).toBe(0);
    // Signed in, the contact may; a link may then turn it off, and "on" again while on is no change.
    expect(await changePreferences(acme, who, { "marketing.email": true }, { via: "portal" })).toEqual({
      changed: ["marketing.email"],
    });
    expect(await changePreferences(acme, who, { "marketing.email": true }, { via: "link" })).toEqual({ changed: [] });
    expect(await changePreferences(acme, who, { "marketing.email": false }, { via: "link" })).toEqual({
      changed: ["marketing.email"],
    });
    expect(await changePreferences(acme, who, { "marketing.email": true }, { via: "link" })).toMatchObject({
      refused: ["marketing.email"],
    });
    // The business may record a yes the contact gave it, with a note of how.
    const key = await handle.db
      .selectFrom("api_keys")
      .select("id")
      .where("business_id", "=", acme)
      .executeTakeFirstOrThrow();
    expect(
      await changePreferences(
        acme,
        who,
        { "marketing.email": true },
        { via: "api", apiKeyId: key.id, note: "Ticked the box on our paper form" },
      ),
    ).toEqual({ changed: ["marketing.email"] });
    expect(await marketing()).toBe(true);
    // Any other choice a link may turn back on.
    await changePreferences(acme, who, { "reminders.email": false }, { via: "one-click" });
    expect(await changePreferences(acme, who, { "reminders.email": true }, { via: "link" })).toEqual({
      changed: ["reminders.email"],
    });
    expect((await readPreferences(acme, who))!.history.map((h) => `${h.topic}=${h.enabled}/${h.via}`)).toEqual([
      "reminders=true/link",
      "reminders=false/one-click",
      "marketing=true/api",
      "marketing=false/link",
      "marketing=true/portal",
    ]);
  });

  it("a payment reminder goes to recipients who want reminders, is skipped for one who opted out (their link still works), and a receipt still reaches them", async () => {
    const olivia = contact["olivia@coastal.example"]!;
    const request = await createPaymentRequest(acme, {
      account: "ACME-1000",
      amountCents: 45_00,
      description: "Reminder test",
      recipients: ["olivia@coastal.example", "new@coastal.example"],
    });
    // Not sent yet: nothing to remind about.
    expect((await problemOf(() => remindPaymentRequest(acme, request.id))).message).toMatch(/send it first/);
    const since = Date.now();
    await sendPaymentRequest(acme, request.id);
    const sentMail = await catcher.waitForMail("olivia@coastal.example", { after: since, subject: /Payment request/ });
    // A request is transactional: a preferences link, no List-Unsubscribe.
    expect(sentMail.headers["list-unsubscribe"]).toBeUndefined();
    expect(checkLink(acme, preferencesToken(sentMail), "preferences")).toMatchObject({ ok: true, contactId: olivia });
    expect(sentMail.text).toContain("Choose which emails you get from Acme Plumbing Supplies");

    // Both want reminders (the default).
    const first = await remindPaymentRequest(acme, request.reference);
    expect(first.sent.map((s) => s.email)).toEqual(["new@coastal.example", "olivia@coastal.example"]);
    expect(first.skipped).toEqual([]);
    expect(first.request.recipients.map((r) => r.remindCount)).toEqual([1, 1]);
    const reminder = await catcher.waitForMail("olivia@coastal.example", { after: since, subject: /^Reminder: / });
    expect(reminder.subject).toContain(request.reference);
    const unsubscribe = reminder.headers["list-unsubscribe"]!;
    expect(unsubscribe).toMatch(/^<http:\/\/acme\.localhost:3000\/communication\/unsubscribe\?token=[^>]+>$/);
    expect(reminder.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const token = new URL(unsubscribe.slice(1, -1)).searchParams.get("token");
    expect(checkLink(acme, token, "unsubscribe")).toMatchObject({
      ok: true,
      contactId: olivia,
      purpose: { kind: "unsubscribe", topic: "reminders" },
    });
    // The same unsubscribe page is in the footer, and the text part carries both links.
    expect(reminder.links).toContain(unsubscribe.slice(1, -1));
    expect(reminder.text).toContain(`Unsubscribe from payment reminders: ${unsubscribe.slice(1, -1)}`);
    const reminderLink = reminder.links.find((l) => l.includes("/customer/payment-request/"))!;
    const oliviasLink = reminderLink.split("/customer/payment-request/")[1]!;
    expect((await checkLinkToken(acme, "payment-request", oliviasLink)).status).toBe("valid");

    // Olivia unsubscribes from reminders (one click): the next reminder skips her, and her link lives on.
    await changePreferences(acme, olivia, { "reminders.email": false }, { via: "one-click" });
    expect(await emailWanted(handle.db, acme, olivia, "reminders")).toBe(false);
    const before = catcher.messages.length;
    // A day later (reminders are at most one a day to each recipient).
    const second = await remindPaymentRequest(acme, request.id, { now: new Date(Date.now() + 25 * HOUR) });
    expect(second.sent).toEqual([{ email: "new@coastal.example" }]);
    expect(second.skipped).toEqual([{ email: "olivia@coastal.example", reason: "opted-out" }]);
    expect(second.failed).toEqual([]);
    await catcher.waitForMail("new@coastal.example", { after: before, subject: /^Reminder: / });
    expect(catcher.messages.slice(before).filter((m) => m.to.includes("olivia@coastal.example"))).toEqual([]);
    expect((await checkLinkToken(acme, "payment-request", oliviasLink)).status).toBe("valid");
    expect(second.request.recipients.find((r) => r.email === "olivia@coastal.example")!.remindCount).toBe(1);

    // Nothing she can opt out of stops a receipt: a succeeded payment of hers is receipted.
    await changePreferences(
      acme,
      olivia,
      { "statements.email": false, "invoices.email": false, "marketing.email": false },
      { via: "portal" },
    );
    const payment = await handle.db
      .selectFrom("payments")
      .select("id")
      .where("business_id", "=", acme)
      .where("created_by", "=", olivia)
      .where("status", "=", "succeeded")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    const branding = (await findBusinessBranding(handle.db, acme))!;
    const receiptsBefore = catcher.messages.length;
    await sendReceipt(branding, payment.id);
    const receipt = await catcher.waitForMail("olivia@coastal.example", { after: receiptsBefore, subject: /^Receipt/ });
    expect(receipt.headers["list-unsubscribe"]).toBeUndefined();
    expect(checkLink(acme, preferencesToken(receipt), "preferences")).toMatchObject({ ok: true, contactId: olivia });

    // Cancelled: nothing to remind about; another business's request is not found.
    await cancelPaymentRequest(acme, request.id);
    expect((await problemOf(() => remindPaymentRequest(acme, request.id))).message).toMatch(/cancelled/);
    expect((await problemOf(() => remindPaymentRequest(kiwi, request.id))).code).toBe("not-found");
    expect((await problemOf(() => remindPaymentRequest(acme, "PR-NOPE0000"))).code).toBe("not-found");
  });

  it("a reminder adds a link and revokes none, counts only mail that left, and comes at most once a day to each recipient", async () => {
    const noah = contact["new@coastal.example"]!;
    const olivia = contact["olivia@coastal.example"]!;
    await changePreferences(acme, olivia, { "reminders.email": true }, { via: "portal" });
    await changePreferences(acme, noah, { "reminders.email": true }, { via: "portal" });
    const request = await createPaymentRequest(acme, {
      account: "ACME-1000",
      amountCents: 30_00,
      description: "Reminder spacing",
      recipients: ["olivia@coastal.example", "new@coastal.example"],
    });
    const subject = new RegExp(request.reference);
    let since = catcher.messages.length;
    await sendPaymentRequest(acme, request.id);
    const tokenIn = (mail: CaughtMail) =>
      mail.links.find((l) => l.includes("/customer/payment-request/"))!.split("/customer/payment-request/")[1]!;
    const links = [
      tokenIn(await catcher.waitForMail("olivia@coastal.example", { after: since, subject })),
      tokenIn(await catcher.waitForMail("new@coastal.example", { after: since, subject })),
    ];
    const statuses = async () =>
      Promise.all(links.map(async (token) => (await checkLinkToken(acme, "payment-request", token)).status));
    const counts = async () =>
      (
        await handle.db
          .selectFrom("payment_request_recipients")
          .select(["contact_id", "remind_count", "last_reminded_at"])
          .where("request_id", "=", request.id)
          .execute()
      )
        .map(
          (r) => `${r.contact_id === olivia ? "olivia" : "noah"}:${r.remind_count}:${r.last_reminded_at ? "at" : "-"}`,
        )
        .sort();

    // Olivia's mail server refuses the message; Noah opts out after the plan, just before his leaves.
    catcher.refused.add("olivia@coastal.example");
    since = catcher.messages.length;
    const refused = await remindPaymentRequest(acme, request.id, {
      onLink: async (email) => {
        if (email === "new@coastal.example") {
          await changePreferences(acme, noah, { "reminders.email": false }, { via: "one-click" });
        }
      },
    });
    catcher.refused.clear();
    expect(refused.sent).toEqual([]);
    expect(refused.skipped).toEqual([{ email: "new@coastal.example", reason: "opted-out" }]);
    expect(refused.failed).toEqual([
      { email: "olivia@coastal.example", error: "The mail server did not take the message." },
    ]);
    // Neither lost the link they had, and neither is counted as reminded.
    expect(await statuses()).toEqual(["valid", "valid"]);
    expect(await counts()).toEqual(["noah:0:-", "olivia:0:-"]);
    expect(refused.request.recipients.map((r) => r.remindCount)).toEqual([0, 0]);
    expect(catcher.messages.slice(since).filter((m) => subject.test(m.subject))).toEqual([]);

    // Noah wants reminders again; Olivia's server still refuses: Noah alone is reminded and counted.
    await changePreferences(acme, noah, { "reminders.email": true }, { via: "portal" });
    catcher.refused.add("olivia@coastal.example");
    const start = Date.now();
    const first = await remindPaymentRequest(acme, request.id, { now: new Date(start) });
    catcher.refused.clear();
    expect(first.sent).toEqual([{ email: "new@coastal.example" }]);
    expect(first.failed.map((f) => f.email)).toEqual(["olivia@coastal.example"]);
    expect(await counts()).toEqual(["noah:1:at", "olivia:0:-"]);
    const noahsReminder = tokenIn(await catcher.waitForMail("new@coastal.example", { after: since, subject }));
    links.push(noahsReminder);

    // An hour later Olivia, never reminded, is due one; Noah, reminded an hour ago, is not.
    since = catcher.messages.length;
    const retry = await remindPaymentRequest(acme, request.id, { now: new Date(start + HOUR) });
    expect(retry.sent).toEqual([{ email: "olivia@coastal.example" }]);
    expect(retry.skipped).toEqual([{ email: "new@coastal.example", reason: "reminded-recently" }]);
    expect(await counts()).toEqual(["noah:1:at", "olivia:1:at"]);
    links.push(tokenIn(await catcher.waitForMail("olivia@coastal.example", { after: since, subject })));
    // Every link each of them was sent still works: a reminder revokes nothing.
    expect(await statuses()).toEqual(["valid", "valid", "valid", "valid"]);

    // Two hours in, nobody is due one: refused as a conflict, nothing sent, nothing counted.
    since = catcher.messages.length;
    const tooSoon = await problemOf(() => remindPaymentRequest(acme, request.id, { now: new Date(start + 2 * HOUR) }));
    expect(tooSoon.code).toBe("conflict");
    expect(tooSoon.message).toBe(
      `A reminder was sent less than 24 hours ago (at ${new Date(start + HOUR).toISOString()}): the next one can be sent from ${new Date(start + 25 * HOUR).toISOString()}. Nothing was sent.`,
    );
    expect(await counts()).toEqual(["noah:1:at", "olivia:1:at"]);
    expect(await statuses()).toEqual(["valid", "valid", "valid", "valid"]);

    // A day after each: both are reminded again.
    const later = await remindPaymentRequest(acme, request.id, { now: new Date(start + 25 * HOUR) });
    expect(later.sent.map((s) => s.email)).toEqual(["new@coastal.example", "olivia@coastal.example"]);
    expect(later.request.recipients.map((r) => r.remindCount)).toEqual([2, 2]);
    expect(catcher.messages.slice(since).filter((m) => subject.test(m.subject))).toHaveLength(2);
    expect(await statuses()).toEqual(["valid", "valid", "valid", "valid"]);
    await cancelPaymentRequest(acme, request.id);
  });

  it("the one-click POST (RFC 8058) turns off the link's topic by email and nothing else; again is no change", async () => {
    const olivia = contact["olivia@coastal.example"]!;
    const branding = (await findBusinessBranding(handle.db, acme))!;
    await changePreferences(acme, olivia, { "marketing.email": true, "statements.post": true }, { via: "portal" });
    const before = (await readPreferences(acme, olivia))!;
    const changes = await countPreferenceChanges(handle.db, acme, olivia);
    const token = signLink(acme, olivia, { kind: "unsubscribe", topic: "marketing" });
    const oneClick = () =>
      unsubscribeAction(
        branding,
        new Request(`http://acme.localhost:3000${unsubscribeLinkPath(token)}`, {
          method: "POST",
          headers: { host: "acme.localhost:3000", "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        }),
        "one-click",
      );
    for (let click = 0; click < 3; click++) {
      const answer = (await oneClick()) as unknown as {
        data: { kind: string; enabled: boolean };
        init: { status?: number } | null;
      };
      expect(answer.data).toMatchObject({ kind: "unsubscribe", enabled: false });
      expect(answer.init?.status ?? 200).toBe(200);
    }
    const after = (await readPreferences(acme, olivia))!;
    const differs = after.choices.filter((c, i) => c.enabled !== before.choices[i]!.enabled);
    expect(differs.map((c) => `${c.topic}.${c.channel}`)).toEqual(["marketing.email"]);
    expect(await countPreferenceChanges(handle.db, acme, olivia)).toBe(changes + 1);
    expect(after.history[0]).toMatchObject({ topic: "marketing", enabled: false, via: "one-click", by: "contact" });
    // Another business's host: the same link is nobody's there.
    const kiwiBranding = (await findBusinessBranding(handle.db, kiwi))!;
    const elsewhere = (await unsubscribeAction(
      kiwiBranding,
      new Request(`http://kiwi.localhost:3000${unsubscribeLinkPath(token)}`, { method: "POST" }),
      "one-click",
    )) as unknown as { data: { kind: string }; init: { status?: number } };
    expect(elsewhere.data.kind).toBe("invalid");
    expect(elsewhere.init.status).toBe(404);
    expect(await countPreferenceChanges(handle.db, acme, olivia)).toBe(changes + 1);
  });

  it("sendContactMail checks the preference at sending, for a topic chosen off meanwhile", async () => {
    const noah = contact["new@coastal.example"]!;
    const branding = (await findBusinessBranding(handle.db, acme))!;
    await changePreferences(acme, noah, { "statements.email": false }, { via: "portal" });
    let rendered = 0;
    const outcome = await sendContactMail({
      branding,
      contact: { id: noah, email: "new@coastal.example" },
      category: "statements",
      render: () => {
        rendered++;
        return { subject: "Statement", text: "x" };
      },
    });
    expect(outcome).toEqual({ sent: false, skipped: "opted-out" });
    expect(rendered).toBe(0);
    await changePreferences(acme, noah, { "statements.email": true }, { via: "portal" });
    const before = catcher.messages.length;
    const sent = await sendContactMail({
      branding,
      contact: { id: noah, email: "new@coastal.example" },
      category: "statements",
      render: (links) => ({ subject: "Your statement", text: `Statement\n${links.unsubscribe}` }),
    });
    expect(sent.sent).toBe(true);
    const mail = await catcher.waitForMail("new@coastal.example", { after: before, subject: /Your statement/ });
    expect(mail.headers["list-unsubscribe"]).toContain("unsub-statements");
  });
}

describe("on PGlite", () => {
  communicationSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  communicationSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
