import { afterEach, describe, expect, it } from "vitest";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import {
  checkReceiptLink,
  MAX_RECEIPT_TOKEN_LENGTH,
  RECEIPT_LINK_DAYS,
  receiptTokenShape,
  signReceiptLink,
} from "./receipt-links.server";

/**
 * A receipt email's signed link (decision 076): an HMAC over (business, payment, expiry). It opens
 * its own payment for its own business until it expires on the portal's clock; any change to any
 * part, another business, another payment's token and anything too long or malformed are refused.
 */
const ACME = "6f1c2a3b-4d5e-4f60-8a71-92b3c4d5e6f7";
const KIWI = "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d";
const PAYMENT = "1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b";
const OTHER_PAYMENT = "2f3e4d5c-6b7a-4899-8a1b-2c3d4e5f6a7b";
const ISSUED = "2026-12-03T01:02:03Z";
const DAY_MS = 86_400_000;

afterEach(() => setClockForTesting(undefined));

/** Each character of the token replaced by another of the alphabet, one at a time. */
function* everySingleChange(token: string) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
  for (let i = 0; i < token.length; i++) {
    for (const replacement of [alphabet[(alphabet.indexOf(token[i]!) + 1) % alphabet.length]!, "A", "z", "0"]) {
      if (replacement !== token[i]) yield token.slice(0, i) + replacement + token.slice(i + 1);
    }
  }
}

describe("signed receipt links", () => {
  it("open their own payment for their own business, on the injected clock", () => {
    const clock = fixedClock(ISSUED);
    setClockForTesting(clock);
    const token = signReceiptLink(ACME, PAYMENT);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    expect(token.length).toBeLessThanOrEqual(MAX_RECEIPT_TOKEN_LENGTH);
    expect(checkReceiptLink(ACME, token)).toBe(PAYMENT);
    clock.advanceDays(RECEIPT_LINK_DAYS - 1);
    expect(checkReceiptLink(ACME, token)).toBe(PAYMENT);
  });

  it("expire after RECEIPT_LINK_DAYS, judged by the portal's clock", () => {
    const clock = fixedClock(ISSUED);
    setClockForTesting(clock);
    const token = signReceiptLink(ACME, PAYMENT);
    clock.advanceMs(RECEIPT_LINK_DAYS * DAY_MS - 1_000);
    expect(checkReceiptLink(ACME, token)).toBe(PAYMENT);
    clock.advanceMs(1_000);
    expect(checkReceiptLink(ACME, token)).toBeNull();
    clock.advanceDays(365);
    expect(checkReceiptLink(ACME, token)).toBeNull();
  });

  it("refuse a token with any one character changed (payment, expiry or MAC)", () => {
    setClockForTesting(fixedClock(ISSUED));
    const token = signReceiptLink(ACME, PAYMENT);
    let tried = 0;
    for (const changed of everySingleChange(token)) {
      tried++;
      expect(checkReceiptLink(ACME, changed), changed).toBeNull();
    }
    expect(tried).toBeGreaterThan(100);
  });

  it("refuse another business's link, and never open another payment", () => {
    setClockForTesting(fixedClock(ISSUED));
    const token = signReceiptLink(ACME, PAYMENT);
    expect(checkReceiptLink(KIWI, token)).toBeNull();
    // Another payment's id with this payment's expiry and MAC: the MAC covers the payment.
    const [, expires, mac] = token.split(".");
    const otherId = signReceiptLink(ACME, OTHER_PAYMENT).split(".")[0];
    expect(checkReceiptLink(ACME, `${otherId}.${expires}.${mac}`)).toBeNull();
    expect(checkReceiptLink(ACME, signReceiptLink(ACME, OTHER_PAYMENT))).toBe(OTHER_PAYMENT);
  });

  it("refuse an expiry moved later, or one further off than a link ever lives", () => {
    const clock = fixedClock(ISSUED);
    setClockForTesting(clock);
    const [id, expires, mac] = signReceiptLink(ACME, PAYMENT).split(".");
    const later = (parseInt(expires!, 36) + 86_400).toString(36);
    expect(checkReceiptLink(ACME, `${id}.${later}.${mac}`)).toBeNull();
    // Signed for the future (a clock set back): longer than RECEIPT_LINK_DAYS from now is refused.
    const future = signReceiptLink(ACME, PAYMENT, { issuedAt: new Date(Date.parse(ISSUED) + 10 * DAY_MS) });
    expect(checkReceiptLink(ACME, future)).toBeNull();
  });

  it("refuse what is too long or malformed before any work", () => {
    setClockForTesting(fixedClock(ISSUED));
    const token = signReceiptLink(ACME, PAYMENT);
    for (const bad of [
      "",
      "short",
      token + "A",
      `${token}.${token}`,
      "x".repeat(10_000),
      token.replace(/\./g, "/"),
      token.toUpperCase(),
      // A leading zero on the expiry: the MAC covers the text, and only one spelling is the token's.
      token.replace(/\.([0-9a-z]+)\./, ".0$1."),
      null,
      42,
      { token },
    ]) {
      expect(checkReceiptLink(ACME, bad), String(bad).slice(0, 40)).toBeNull();
    }
    expect(receiptTokenShape("x".repeat(MAX_RECEIPT_TOKEN_LENGTH + 1))).toBe(false);
    expect(receiptTokenShape(token)).toBe(true);
    expect(checkReceiptLink("not-a-uuid", token)).toBeNull();
  });
});
