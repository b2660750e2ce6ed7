import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTesting } from "../platform/env.server";
import { checkLink, LINK_LIFETIME_DAYS, linkKey, signLink, type LinkPurpose } from "./preference-links.server";

/**
 * The signed links in emails (decision 039): an HMAC over (business, contact, purpose, issued at).
 * Any change to any part is refused, as are another business's links, another purpose's, expired
 * ones and ones from the future; a good one names its contact and purpose.
 */
const ACME = "6f1c2a3b-4d5e-4f60-8a71-92b3c4d5e6f7";
const KIWI = "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d";
const OLIVIA = "1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b";
const SAM = "2f3e4d5c-6b7a-4899-8a1b-2c3d4e5f6a7b";
const ISSUED = new Date("2026-11-30T01:02:03Z");
const LATER = new Date("2026-12-01T00:00:00Z");
const PREFS: LinkPurpose = { kind: "preferences" };
const REMINDERS: LinkPurpose = { kind: "unsubscribe", topic: "reminders" };

const sign = (purpose: LinkPurpose = PREFS, business = ACME, contact = OLIVIA, issuedAt = ISSUED) =>
  signLink(business, contact, purpose, { issuedAt });

afterEach(() => {
  delete process.env.COMMUNICATION_LINK_SECRET;
  resetEnvForTesting();
});

/** Each character of the token replaced by another of the alphabet, one at a time. */
function* everySingleChange(token: string) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
  for (let i = 0; i < token.length; i++) {
    for (const replacement of [alphabet[(alphabet.indexOf(token[i]!) + 1) % alphabet.length]!, "A", "z", "0"]) {
      if (replacement !== token[i]) yield token.slice(0, i) + replacement + token.slice(i + 1);
    }
  }
}

describe("signed communication links", () => {
  it("check out for their business, contact and purpose, and say which", () => {
    const token = sign();
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}\.prefs\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    expect(checkLink(ACME, token, "preferences", { at: LATER })).toEqual({
      ok: true,
      contactId: OLIVIA,
      purpose: PREFS,
      issuedAt: ISSUED,
    });
    const unsubscribe = sign(REMINDERS);
    expect(checkLink(ACME, unsubscribe, "unsubscribe", { at: LATER })).toMatchObject({
      ok: true,
      contactId: OLIVIA,
      purpose: REMINDERS,
    });
  });

  it("refuse a token with any one character changed (contact, purpose, time or MAC)", () => {
    const token = sign(REMINDERS);
    let tried = 0;
    for (const changed of everySingleChange(token)) {
      tried++;
      expect(checkLink(ACME, changed, "unsubscribe", { at: LATER }).ok, changed).toBe(false);
    }
    expect(tried).toBeGreaterThan(token.length * 3);
  });

  it("refuse each part swapped for another good token's", () => {
    const good = sign(REMINDERS).split(".");
    const others = [
      sign(REMINDERS, ACME, SAM).split("."), // another contact
      sign({ kind: "unsubscribe", topic: "marketing" }).split("."), // another topic
      sign(REMINDERS, ACME, OLIVIA, new Date(ISSUED.getTime() + 1000)).split("."), // another time
    ];
    for (const other of others) {
      for (let part = 0; part < 4; part++) {
        if (other[part] === good[part]) continue;
        const spliced = [...good];
        spliced[part] = other[part]!;
        expect(checkLink(ACME, spliced.join("."), "unsubscribe", { at: LATER }).ok, `part ${part}`).toBe(false);
      }
    }
  });

  it("refuse another business's link, another purpose's, and another key's", () => {
    expect(checkLink(KIWI, sign(), "preferences", { at: LATER }).ok).toBe(false);
    expect(checkLink(ACME, sign(PREFS, KIWI), "preferences", { at: LATER }).ok).toBe(false);
    // An unsubscribe link opens no preference page, nor the other way round.
    expect(checkLink(ACME, sign(REMINDERS), "preferences", { at: LATER }).ok).toBe(false);
    expect(checkLink(ACME, sign(PREFS), "unsubscribe", { at: LATER }).ok).toBe(false);
    const before = linkKey();
    process.env.COMMUNICATION_LINK_SECRET = "x".repeat(40);
    resetEnvForTesting();
    expect(linkKey().equals(before)).toBe(false);
    expect(
      checkLink(ACME, signLink(ACME, OLIVIA, PREFS, { issuedAt: ISSUED, key: before }), "preferences", { at: LATER })
        .ok,
    ).toBe(false);
  });

  it("expire after LINK_LIFETIME_DAYS, and refuse a link issued in the future", () => {
    const token = sign();
    const day = 86_400_000;
    expect(
      checkLink(ACME, token, "preferences", { at: new Date(ISSUED.getTime() + LINK_LIFETIME_DAYS * day - 1000) }).ok,
    ).toBe(true);
    expect(
      checkLink(ACME, token, "preferences", { at: new Date(ISSUED.getTime() + LINK_LIFETIME_DAYS * day + 1000) }).ok,
    ).toBe(false);
    expect(LINK_LIFETIME_DAYS).toBeGreaterThanOrEqual(30); // Spam Act 2003 s 18: at least 30 days
    const future = sign(PREFS, ACME, OLIVIA, new Date(LATER.getTime() + 3_600_000));
    expect(checkLink(ACME, future, "preferences", { at: LATER }).ok).toBe(false);
    // A few minutes of clock difference between portal processes is not "the future".
    const skewed = sign(PREFS, ACME, OLIVIA, new Date(LATER.getTime() + 60_000));
    expect(checkLink(ACME, skewed, "preferences", { at: LATER }).ok).toBe(true);
  });

  it("refuse malformed input of every kind without throwing", () => {
    const token = sign();
    const [contact, purpose, issued, mac] = token.split(".") as [string, string, string, string];
    for (const hostile of [
      undefined,
      null,
      42,
      {},
      "",
      ".",
      "...",
      token + ".",
      `${token}x`,
      token.toUpperCase(),
      `${contact}.${purpose}.${issued}`,
      `${contact}.${purpose}.0${issued}.${mac}`, // the same number, spelt otherwise
      `${contact}.unsub-receipts.${issued}.${mac}`,
      `${contact}.unsub-<script>.${issued}.${mac}`,
      `${contact}.${purpose}.${issued}.${mac.slice(0, -1)}`,
      `' OR 1=1 --.${purpose}.${issued}.${mac}`,
      "a".repeat(10_000),
      token.replace(/\./g, "%2E"),
    ]) {
      expect(checkLink(ACME, hostile, "preferences", { at: LATER }).ok, String(hostile).slice(0, 40)).toBe(false);
    }
    expect(checkLink("not-a-uuid", token, "preferences", { at: LATER }).ok).toBe(false);
    expect(() => signLink(ACME, "not-a-uuid", PREFS)).toThrow();
  });

  it("use their own key when COMMUNICATION_LINK_SECRET is set, else one derived from SESSION_SECRET", () => {
    const derived = sign();
    process.env.COMMUNICATION_LINK_SECRET = "communication-link-secret-for-tests-0123456789";
    resetEnvForTesting();
    const own = sign();
    expect(own).not.toBe(derived);
    expect(checkLink(ACME, own, "preferences", { at: LATER }).ok).toBe(true);
    expect(checkLink(ACME, derived, "preferences", { at: LATER }).ok).toBe(false);
  });
});
