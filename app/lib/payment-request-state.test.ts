import { describe, expect, it } from "vitest";
import {
  isPayableState,
  paymentRequestState,
  requestOwingCents,
  type PaymentRequestFacts,
} from "./payment-request-state";

const now = new Date("2026-11-24T10:00:00Z");
const base: PaymentRequestFacts = {
  status: "created",
  expiresAt: "2026-12-01T00:00:00Z",
  openedAt: null,
  amountCents: 100,
  paidCents: 0,
  owingCents: 100,
};

describe("a payment request's state", () => {
  it("follows created → sent → opened → part-paid → paid", () => {
    expect(paymentRequestState(base, now)).toBe("created");
    expect(paymentRequestState({ ...base, status: "sent" }, now)).toBe("sent");
    expect(paymentRequestState({ ...base, status: "sent", openedAt: now }, now)).toBe("opened");
    expect(paymentRequestState({ ...base, status: "sent", openedAt: now, paidCents: 1, owingCents: 99 }, now)).toBe(
      "part-paid",
    );
    expect(paymentRequestState({ ...base, status: "paid", paidCents: 100, owingCents: 0 }, now)).toBe("paid");
  });
  it("reads as paid once nothing is owing, and part-paid once less is, whatever paid it", () => {
    // A request of invoices whose invoices were paid another way: nothing reached paid_cents.
    const sent = { ...base, status: "sent" as const, openedAt: now };
    expect(paymentRequestState({ ...sent, owingCents: 0 }, now)).toBe("paid");
    expect(paymentRequestState({ ...sent, owingCents: 40 }, now)).toBe("part-paid");
    // Paid before expired: a request paid in time stays paid.
    expect(paymentRequestState({ ...sent, owingCents: 0, expiresAt: now }, now)).toBe("paid");
    expect(paymentRequestState({ ...sent, owingCents: 0, status: "cancelled" }, now)).toBe("cancelled");
  });
  it("owes, of a request of invoices, each invoice's balance at most what was asked of it", () => {
    const invoices = { kind: "invoices" as const, amountCents: 300, paidCents: 0 };
    expect(
      requestOwingCents(invoices, [
        { askedCents: 100, balanceCents: 100 },
        { askedCents: 200, balanceCents: 250 },
      ]),
    ).toBe(300);
    expect(
      requestOwingCents(invoices, [
        { askedCents: 100, balanceCents: 0 },
        { askedCents: 200, balanceCents: 50 },
      ]),
    ).toBe(50);
    expect(requestOwingCents(invoices, [{ askedCents: 100, balanceCents: -20 }])).toBe(0);
    expect(requestOwingCents({ kind: "amount", amountCents: 500, paidCents: 200 }, [])).toBe(300);
    expect(requestOwingCents({ kind: "amount", amountCents: 500, paidCents: 600 }, [])).toBe(0);
  });
  it("expires at its expiry unless paid or cancelled first", () => {
    const expired = { ...base, status: "sent" as const, expiresAt: now };
    expect(paymentRequestState(expired, now)).toBe("expired");
    expect(paymentRequestState({ ...expired, paidCents: 50, owingCents: 50 }, now)).toBe("expired");
    expect(paymentRequestState({ ...expired, status: "paid" }, now)).toBe("paid");
    expect(paymentRequestState({ ...expired, status: "cancelled" }, now)).toBe("cancelled");
  });
  it("takes money only while created, sent, opened or part-paid", () => {
    expect(["created", "sent", "opened", "part-paid"].every((s) => isPayableState(s as never))).toBe(true);
    expect(["paid", "expired", "cancelled"].some((s) => isPayableState(s as never))).toBe(false);
  });
});
