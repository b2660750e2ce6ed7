import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  ADHOC_PAGE_FOLDER,
  MAX_AMOUNT_RETURN_PATH,
  MAX_CHOSEN,
  MAX_RETURN_PATH,
  PAY_PAGE_PATH,
  REQUEST_PAGE_FOLDER,
  adhocPagePath,
  amountPageChoiceOf,
  isPayReturn,
  payPageChoiceOf,
  payPagePath,
  payReturnOf,
  payReturnPath,
  payToSetUpPath,
  requestPagePath,
  withAgreement,
} from "./pay-return";

/**
 * The way back to the pay page (decision 077): only the pay page's own path with known, bounded
 * parameters is ever followed, written afresh; anything else is ignored (null), and the pages
 * behave as before.
 */
const A = "3f1c2a4e-8b7d-4c1e-9a2b-1c2d3e4f5a6b";
const B = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b";
const AGREEMENT = "11111111-2222-4333-8444-555555555555";

describe("payReturnPath", () => {
  it("keeps the pay page with its invoices, typed amounts and agreement, written afresh", () => {
    const path = `${PAY_PAGE_PATH}?invoice=${A}&invoice=${B}&amount-${A}=1234`;
    expect(payReturnPath(path)).toBe(path);
    expect(payReturnPath(`${PAY_PAGE_PATH}?all=1`)).toBe(`${PAY_PAGE_PATH}?all=1`);
    // Upper-case ids and a repeated invoice come back in one form.
    expect(payReturnPath(`${PAY_PAGE_PATH}?invoice=${A.toUpperCase()}&invoice=${A}`)).toBe(
      `${PAY_PAGE_PATH}?invoice=${A}`,
    );
    expect(payReturnPath(`${PAY_PAGE_PATH}?invoice=${A}&agreement=${AGREEMENT}`)).toBe(
      `${PAY_PAGE_PATH}?invoice=${A}&agreement=${AGREEMENT}`,
    );
  });

  it("ignores open redirects, other paths and anything not the pay page's own", () => {
    for (const value of [
      "//evil.example",
      `//evil.example${PAY_PAGE_PATH}?invoice=${A}`,
      "/\\evil.example",
      `/\\evil.example${PAY_PAGE_PATH}?invoice=${A}`,
      `${PAY_PAGE_PATH}?invoice=${A}&x=\\`,
      "https://evil.example/",
      `https://evil.example${PAY_PAGE_PATH}?invoice=${A}`,
      `http://acme.localhost${PAY_PAGE_PATH}?invoice=${A}`,
      "javascript:alert(1)",
      `%2F%2Fevil.example${PAY_PAGE_PATH}?invoice=${A}`,
      `/%2Fevil.example${PAY_PAGE_PATH}?invoice=${A}`,
      `${PAY_PAGE_PATH}/../../admin?invoice=${A}`,
      `${PAY_PAGE_PATH}//?invoice=${A}`,
      `${PAY_PAGE_PATH}?invoice=${A}#x`,
      `${PAY_PAGE_PATH}?invoice=${A} `,
      `${PAY_PAGE_PATH}?invoice=${A}\n`,
      "/payment-methods",
      "/customer/invoices-and-payments/invoices",
      "/customer/payment-schedule/PS-ABC123",
      `/customer/invoices-and-payments/pay2?invoice=${A}`,
      PAY_PAGE_PATH,
      `${PAY_PAGE_PATH}?`,
      "",
      null,
      undefined,
      42,
      { toString: () => PAY_PAGE_PATH },
    ]) {
      expect(payReturnPath(value), String(value)).toBeNull();
    }
  });

  it("ignores unknown or malformed parameters rather than passing them on", () => {
    for (const query of [
      `invoice=${A}&next=//evil.example`,
      `invoice=${A}&returnTo=/x`,
      "invoice=not-a-uuid",
      `invoice=${A}'--`,
      `invoice=${A}&amount-${A}=12.34`,
      `invoice=${A}&amount-${A}=0`,
      `invoice=${A}&amount-${A}=-5`,
      `invoice=${A}&amount-${A}=1e3`,
      `invoice=${A}&amount-${A}=0012`,
      `invoice=${A}&amount-${A}=1234567890123`,
      `invoice=${A}&amount-${B}=100`,
      `invoice=${A}&amount-nope=100`,
      `invoice=${A}&agreement=nope`,
      `invoice=${A}&agreement=${AGREEMENT}&agreement=${AGREEMENT}`,
      `all=1&invoice=${A}`,
      "all=yes",
    ]) {
      expect(payReturnPath(`${PAY_PAGE_PATH}?${query}`), query).toBeNull();
    }
  });

  it("is bounded: at most 50 invoices and 6,000 characters", () => {
    const ids = Array.from({ length: MAX_CHOSEN }, () => randomUUID());
    const fifty = payPagePath({
      invoices: ids,
      amounts: Object.fromEntries(ids.map((id) => [id, 999_999_999_999])),
      agreementId: AGREEMENT,
    });
    expect(fifty.length).toBeLessThanOrEqual(MAX_RETURN_PATH);
    expect(payReturnPath(fifty)).toBe(fifty);
    const fiftyOne = `${PAY_PAGE_PATH}?${[...ids, randomUUID()].map((id) => `invoice=${id}`).join("&")}`;
    expect(payReturnPath(fiftyOne)).toBeNull();
    expect(payReturnPath(`${PAY_PAGE_PATH}?invoice=${A}&${"a".repeat(MAX_RETURN_PATH)}`)).toBeNull();
  });
});

describe("the pay page's own query", () => {
  it("keeps what is good and leaves out the rest, at most 50 of each", () => {
    const many = Array.from({ length: 60 }, () => randomUUID());
    const params = new URLSearchParams([
      ...many.map((id) => ["invoice", id]),
      ["invoice", "nope"],
      [`amount-${many[0]}`, "1500"],
      [`amount-${many[1]}`, "15.00"],
      [`amount-${many[59]}`, "100"],
      ["agreement", AGREEMENT],
      ["utm", "x"],
    ]);
    const choice = payPageChoiceOf(params)!;
    expect(choice.invoices).toEqual(many.slice(0, 50));
    expect(choice.amounts).toEqual({ [many[0]!]: 1500 });
    expect(choice.agreementId).toBe(AGREEMENT);
    expect(payPageChoiceOf(new URLSearchParams("utm=x"), true)).toBeNull();
  });

  it("the way back names the new agreement", () => {
    const back = payReturnPath(`${PAY_PAGE_PATH}?invoice=${A}&invoice=${B}&amount-${B}=500`)!;
    expect(isPayReturn(back)).toBe(true);
    expect(isPayReturn("/customer/payment-schedule/PS-ABC123")).toBe(false);
    expect(withAgreement(back, AGREEMENT)).toBe(
      `${PAY_PAGE_PATH}?invoice=${A}&invoice=${B}&amount-${B}=500&agreement=${AGREEMENT}`,
    );
  });
});

/**
 * A payment request's signed-in page and the signed-in ad-hoc page (issue 31): the same rule, for
 * exactly those pages' paths with an amount in whole cents, an agreement, and (ad hoc) the payer's
 * reference; nothing else.
 */
const REQUEST = `${REQUEST_PAGE_FOLDER}PR-7K2M9QXA`;
const ACCOUNT = "0b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
const ADHOC = `${ADHOC_PAGE_FOLDER}${ACCOUNT}`;

describe("the way back to a payment request's page", () => {
  it("keeps the request's page with the part payment and the agreement, written afresh", () => {
    expect(payReturnPath(REQUEST)).toBe(REQUEST);
    expect(payReturnPath(`${REQUEST}?amount=15000`)).toBe(`${REQUEST}?amount=15000`);
    expect(payReturnPath(`${REQUEST}?amount=15000&agreement=${AGREEMENT}`)).toBe(
      `${REQUEST}?amount=15000&agreement=${AGREEMENT}`,
    );
    // In its own order, the agreement's id in lower case.
    expect(payReturnPath(`${REQUEST}?agreement=${AGREEMENT.toUpperCase()}&amount=1`)).toBe(
      `${REQUEST}?amount=1&agreement=${AGREEMENT}`,
    );
    expect(payReturnOf(`${REQUEST}?amount=15000`)).toEqual({
      page: "request",
      requestReference: "PR-7K2M9QXA",
      choice: { amountCents: 15000, reference: null, agreementId: null },
    });
    expect(isPayReturn(`${REQUEST}?amount=15000`)).toBe(true);
  });

  it("ignores any other request path, hostile or malformed", () => {
    for (const value of [
      `//evil.example${REQUEST}`,
      `/\\evil.example${REQUEST}`,
      `https://evil.example${REQUEST}`,
      `http://acme.localhost${REQUEST}`,
      `${REQUEST}/../../admin`,
      `${REQUEST}/`,
      `${REQUEST}//`,
      `${REQUEST}?amount=100#x`,
      `${REQUEST}?amount=100 `,
      `${REQUEST}?amount=100\n`,
      `${REQUEST}?amount=100\t`,
      `${REQUEST}?amount=\\100`,
      `${REQUEST_PAGE_FOLDER}pr-7k2m9qxa`,
      `${REQUEST_PAGE_FOLDER}PR-7K2`,
      `${REQUEST_PAGE_FOLDER}PR-7K2M9QXA7K2M9`,
      `${REQUEST_PAGE_FOLDER}PS-7K2M9QXA`,
      `${REQUEST_PAGE_FOLDER}PR-7K2M9QXA%2F..`,
      `${REQUEST_PAGE_FOLDER}%50R-7K2M9QXA`,
      `${REQUEST_PAGE_FOLDER}`,
      `${REQUEST_PAGE_FOLDER}all`,
      // The link's own page (a token, never followed back to: a link page has no saved methods).
      `/customer/payment-request/${"A".repeat(59)}`,
      "/payment/payment-request",
      "/payment/payment-requestPR-7K2M9QXA",
    ]) {
      expect(payReturnPath(value), value).toBeNull();
    }
  });

  it("ignores bad cents, unknown, repeated and over-long parameters rather than passing them on", () => {
    for (const query of [
      "amount=12.34",
      "amount=0",
      "amount=-5",
      "amount=1e3",
      "amount=0012",
      "amount=+12",
      "amount=%2012",
      "amount=1234567890123",
      "amount=",
      "amount=100&amount=200",
      "agreement=nope",
      `agreement=${AGREEMENT}&agreement=${AGREEMENT}`,
      // The invoice a request's page shows is not a way back; nor is anything else.
      `invoice=${A}`,
      "amount=100&next=//evil.example",
      "amount=100&returnTo=/x",
      "reference=Rent",
      "amount=100&utm=x",
      `amount=100&${"x".repeat(MAX_AMOUNT_RETURN_PATH)}`,
    ]) {
      expect(payReturnPath(`${REQUEST}?${query}`), query).toBeNull();
    }
  });
});

describe("the way back to the ad-hoc page", () => {
  it("keeps the account's page with the amount, the payer's reference and the agreement, written afresh", () => {
    expect(payReturnPath(ADHOC)).toBe(ADHOC);
    expect(payReturnPath(`${ADHOC}?amount=2500&reference=Rent+March&agreement=${AGREEMENT}`)).toBe(
      `${ADHOC}?amount=2500&reference=Rent+March&agreement=${AGREEMENT}`,
    );
    // The account's id in lower case; the reference trimmed and encoded as this module writes it.
    expect(payReturnPath(`${ADHOC_PAGE_FOLDER}${ACCOUNT.toUpperCase()}?reference=%20a%2Fb%26c%3Dd%20`)).toBe(
      `${ADHOC}?reference=a%2Fb%26c%3Dd`,
    );
    // Markup, quotes and any other Unicode are only text: the page shows them escaped.
    const reference = `<script>alert("x")</script> ' OR 1=1 -- 日本 🙂`;
    const path = adhocPagePath(ACCOUNT, { amountCents: 1000, reference, agreementId: null });
    expect(payReturnPath(path)).toBe(path);
    expect(payReturnOf(path)).toEqual({
      page: "adhoc",
      accountId: ACCOUNT,
      choice: { amountCents: 1000, reference, agreementId: null },
    });
  });

  it("ignores any other ad-hoc path, hostile or malformed", () => {
    for (const value of [
      `//evil.example${ADHOC}`,
      `/\\evil.example${ADHOC}`,
      `https://evil.example${ADHOC}`,
      `${ADHOC}/../../admin`,
      `${ADHOC}/`,
      `${ADHOC}?amount=100#x`,
      `${ADHOC_PAGE_FOLDER}not-a-uuid`,
      `${ADHOC_PAGE_FOLDER}${ACCOUNT}x`,
      `${ADHOC_PAGE_FOLDER}`,
      // The link's own page (a token).
      `/customer/adhoc/${"A".repeat(59)}`,
    ]) {
      expect(payReturnPath(value), value).toBeNull();
    }
  });

  it("ignores a reference the page would not take, bad cents and unknown parameters", () => {
    for (const query of [
      "reference=",
      "reference=%20%20",
      `reference=${"x".repeat(81)}`,
      "reference=a%0Ab",
      "reference=a%00b",
      "reference=%E2%80%AEevil",
      "reference=a&reference=b",
      "amount=1.50",
      "amount=0",
      "amount=1234567890123",
      "agreement=nope",
      "amount=100&invoice=x",
      "amount=100&next=//evil.example",
    ]) {
      expect(payReturnPath(`${ADHOC}?${query}`), query).toBeNull();
    }
    // Bytes that are not UTF-8 are read as replacement characters: only text, and written as such.
    expect(payReturnPath(`${ADHOC}?reference=%ED%A0%80`)).toBe(`${ADHOC}?reference=${"%EF%BF%BD".repeat(3)}`);
  });

  it("is bounded: 80 characters of reference fit, and no path over 1,200 characters is read", () => {
    const longest = adhocPagePath(ACCOUNT, {
      amountCents: 999_999_999_999,
      reference: "🙂".repeat(80),
      agreementId: AGREEMENT,
    });
    expect(longest.length).toBeLessThanOrEqual(MAX_AMOUNT_RETURN_PATH);
    expect(payReturnPath(longest)).toBe(longest);
    // The same reference written with every character percent-encoded is too long to read.
    const padded = `${ADHOC}?reference=${"%61".repeat(400)}`;
    expect(padded.length).toBeGreaterThan(MAX_AMOUNT_RETURN_PATH);
    expect(payReturnPath(padded)).toBeNull();
  });
});

describe("the way back with the new agreement", () => {
  it("adds the agreement to a request's and the ad-hoc page, keeping what was typed", () => {
    expect(withAgreement(`${REQUEST}?amount=15000`, AGREEMENT)).toBe(`${REQUEST}?amount=15000&agreement=${AGREEMENT}`);
    expect(withAgreement(REQUEST, AGREEMENT)).toBe(`${REQUEST}?agreement=${AGREEMENT}`);
    expect(withAgreement(`${ADHOC}?amount=2500&reference=Rent`, AGREEMENT)).toBe(
      `${ADHOC}?amount=2500&reference=Rent&agreement=${AGREEMENT}`,
    );
    // Another agreement replaces one already there.
    expect(withAgreement(`${REQUEST}?agreement=${randomUUID()}`, AGREEMENT)).toBe(`${REQUEST}?agreement=${AGREEMENT}`);
  });

  it("the set-up's address carries the way back as one parameter", () => {
    const back = `${REQUEST}?amount=15000`;
    const url = new URL(payToSetUpPath(back), "http://acme.localhost");
    expect(url.pathname).toBe("/payment-methods/payto/new");
    expect([...url.searchParams.keys()]).toEqual(["returnTo"]);
    expect(url.searchParams.get("returnTo")).toBe(back);
    expect(requestPagePath("PR-7K2M9QXA", { amountCents: null, reference: "ignored", agreementId: null })).toBe(
      REQUEST,
    );
  });
});

describe("the pages' own queries", () => {
  it("keep what is well formed and leave out the rest; the first of a repeated parameter counts", () => {
    const read = (query: string, withReference: boolean) =>
      amountPageChoiceOf(new URLSearchParams(query), withReference);
    expect(read(`amount=100&amount=200&agreement=nope&agreement=${AGREEMENT}&utm=x`, false)).toEqual({
      amountCents: 100,
      reference: null,
      agreementId: AGREEMENT,
    });
    expect(read("amount=1.5&reference=Rent", false)).toEqual({ amountCents: null, reference: null, agreementId: null });
    expect(read("reference=%0A&reference=Rent", true)).toEqual({
      amountCents: null,
      reference: "Rent",
      agreementId: null,
    });
    expect(amountPageChoiceOf(new URLSearchParams("utm=x"), false, true)).toBeNull();
  });
});
