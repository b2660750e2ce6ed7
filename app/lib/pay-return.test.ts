import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  MAX_CHOSEN,
  MAX_RETURN_PATH,
  PAY_PAGE_PATH,
  isPayReturn,
  payPageChoiceOf,
  payPagePath,
  payReturnPath,
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
