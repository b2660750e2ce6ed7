import { describe, expect, it } from "vitest";
import { isPayableState, paymentRequestState, type PaymentRequestFacts } from "./payment-request-state";

const now = new Date("2026-11-24T10:00:00Z");
const base: PaymentRequestFacts = {
  status: "created",
  expiresAt: "2026-12-01T00:00:00Z",
  openedAt: null,
  paidCents: 0,
};

describe("a payment request's state", () => {
  it("follows created → sent → opened → part-paid → paid", () => {
    expect(paymentRequestState(base, now)).toBe("created");
    expect(paymentRequestState({ ...base, status: "sent" }, now)).toBe("sent");
    expect(paymentRequestState({ ...base, status: "sent", openedAt: now }, now)).toBe("opened");
    expect(paymentRequestState({ ...base, status: "sent", openedAt: now, paidCents: 1 }, now)).toBe("part-paid");
    expect(paymentRequestState({ ...base, status: "paid", paidCents: 100 }, now)).toBe("paid");
  });
  it("expires at its expiry unless paid or cancelled first", () => {
    const expired = { ...base, status: "sent" as const, expiresAt: now };
    expect(paymentRequestState(expired, now)).toBe("expired");
    expect(paymentRequestState({ ...expired, paidCents: 50 }, now)).toBe("expired");
    expect(paymentRequestState({ ...expired, status: "paid" }, now)).toBe("paid");
    expect(paymentRequestState({ ...expired, status: "cancelled" }, now)).toBe("cancelled");
  });
  it("takes money only while created, sent, opened or part-paid", () => {
    expect(["created", "sent", "opened", "part-paid"].every((s) => isPayableState(s as never))).toBe(true);
    expect(["paid", "expired", "cancelled"].some((s) => isPayableState(s as never))).toBe(false);
  });
});
