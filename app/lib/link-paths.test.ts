import { describe, expect, it } from "vitest";
import { isLinkPagePath, redactLinkPath } from "./link-paths";

/** Decision 031: a link's token is never logged whole, and its pages send no Referer. */
const TOKEN = "Zx9-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012";

describe("redactLinkPath", () => {
  it("cuts the token segment of each link folder to six characters and an ellipsis", () => {
    expect(redactLinkPath(`/customer/payment-request/${TOKEN}`)).toBe("/customer/payment-request/Zx9-_a…");
    expect(redactLinkPath(`/customer/payment-request/${TOKEN}/invoice/abc`)).toBe(
      "/customer/payment-request/Zx9-_a…/invoice/abc",
    );
    expect(redactLinkPath(`/customer/invoices-and-payments/${TOKEN}`)).toBe("/customer/invoices-and-payments/Zx9-_a…");
    // An invoice's PDF through either link (issue 34); signed in, the invoice's own id is no token.
    expect(redactLinkPath(`/customer/invoices-and-payments/${TOKEN}/pdf`)).toBe(
      "/customer/invoices-and-payments/Zx9-_a…/pdf",
    );
    expect(redactLinkPath(`/customer/payment-request/${TOKEN}/invoice/abc/pdf`)).toBe(
      "/customer/payment-request/Zx9-_a…/invoice/abc/pdf",
    );
    expect(isLinkPagePath("/customer/invoices-and-payments/invoice/abc/pdf")).toBe(false);
    expect(redactLinkPath(`/customer/adhoc/${TOKEN}`)).toBe("/customer/adhoc/Zx9-_a…");
    // A receipt email's signed link (decision 076).
    const receipt = "AbCdEfGhIjKlMnOpQrStUv.tq3x9c.0123456789abcdefghijkl";
    expect(redactLinkPath(`/customer/receipt/${receipt}`)).toBe("/customer/receipt/AbCdEf…");
    expect(isLinkPagePath(`/customer/receipt/${receipt}.data`)).toBe(true);
    expect(redactLinkPath(`/agreements/acceptance/${TOKEN}`)).toBe("/agreements/acceptance/Zx9-_a…");
    expect(redactLinkPath(`/agreements/acceptance/${TOKEN}/download?format=text`)).toBe(
      "/agreements/acceptance/Zx9-_a…/download",
    );
    // A response request's question and its complete page (decision 040): the token, not "complete".
    expect(redactLinkPath(`/response/${TOKEN}`)).toBe("/response/Zx9-_a…");
    expect(redactLinkPath(`/response/complete/${TOKEN}`)).toBe("/response/complete/Zx9-_a…");
    expect(redactLinkPath(`/response/complete/${TOKEN}.data`)).toBe("/response/complete/Zx9-_a….data");
    // A single-fetch request keeps its .data suffix, not the token.
    expect(redactLinkPath(`/customer/payment-request/${TOKEN}.data`)).toBe("/customer/payment-request/Zx9-_a….data");
    // Whatever case the address is typed in (routes match without case).
    expect(redactLinkPath(`/Customer/Payment-Request/${TOKEN}`)).toBe("/Customer/Payment-Request/Zx9-_a…");
  });

  it("cuts any segment in that place, well formed or not, and drops the query and fragment", () => {
    expect(redactLinkPath("/customer/payment-request/short")).toBe("/customer/payment-request/short…");
    expect(redactLinkPath(`/customer/payment-request/${TOKEN}?token=${TOKEN}#${TOKEN}`)).toBe(
      "/customer/payment-request/Zx9-_a…",
    );
    expect(redactLinkPath(`/reset?token=${TOKEN}`)).toBe("/reset");
  });

  it("leaves every other path alone, including the signed-in invoice pages", () => {
    for (const path of [
      "/",
      "/customer/invoices-and-payments/invoices",
      "/customer/invoices-and-payments/invoice/0b7f5a52-7c1e-4b4a-9d39-3f1f5b0d7a11",
      "/customer/invoices-and-payments/pay",
      "/customer/payment-request/",
      "/payment/payment-request/PR-ABC123",
      "/payment/complete/PAY-0123456789",
      // The signed-in acceptance page and the signed-in agreement pages name a reference.
      "/agreements/acceptance/AG-DEMO0002",
      "/agreements/acceptance/AG-DEMO0002/download",
      "/customer/agreement/all",
      "/customer/agreement/AG-DEMO0001/download",
    ]) {
      expect(redactLinkPath(path), path).toBe(path);
      expect(isLinkPagePath(path), path).toBe(false);
    }
  });

  it("knows the link pages, so they answer Referrer-Policy: strict-origin", () => {
    expect(isLinkPagePath(`/customer/payment-request/${TOKEN}`)).toBe(true);
    expect(isLinkPagePath(`/customer/payment-request/${TOKEN}/invoice/x`)).toBe(true);
    expect(isLinkPagePath(`/customer/invoices-and-payments/${TOKEN}`)).toBe(true);
    expect(isLinkPagePath(`/customer/adhoc/${TOKEN}.data`)).toBe(true);
    expect(isLinkPagePath(`/agreements/acceptance/${TOKEN}`)).toBe(true);
    expect(isLinkPagePath(`/agreements/acceptance/${TOKEN}/download`)).toBe(true);
    expect(isLinkPagePath(`/response/${TOKEN}`)).toBe(true);
    expect(isLinkPagePath(`/response/complete/${TOKEN}`)).toBe(true);
    // A reference typed in lower case is no reference: its page treats it as a (bad) token too.
    expect(isLinkPagePath("/agreements/acceptance/ag-demo0002")).toBe(true);
  });
});

describe("payment schedules' paths (decision 034)", () => {
  it("treats a token as a link and a reference as a signed-in page, in both folders", () => {
    for (const folder of ["/payment-schedule/acceptance/", "/customer/payment-schedule/"]) {
      expect(isLinkPagePath(`${folder}${TOKEN}`)).toBe(true);
      expect(redactLinkPath(`${folder}${TOKEN}`)).toBe(`${folder}Zx9-_a…`);
      expect(redactLinkPath(`${folder}${TOKEN}.data`)).toBe(`${folder}Zx9-_a….data`);
      expect(isLinkPagePath(`${folder}PS-AB12CD34`)).toBe(false);
      expect(redactLinkPath(`${folder}PS-AB12CD34`)).toBe(`${folder}PS-AB12CD34`);
      // Anything else there may be a token: cut, never logged whole.
      expect(redactLinkPath(`${folder}ps-ab12cd34`)).toBe(`${folder}ps-ab1…`);
    }
    expect(isLinkPagePath("/customer/payment-schedule")).toBe(false);
    expect(isLinkPagePath("/customer/payment-schedule/")).toBe(false);
  });
});

describe("the preference centre's paths (decision 039)", () => {
  const SIGNED = "xDhhhGTaStKmP7KN2036aA.prefs.tp12vu.4q4zI8ZvWO8Yg7J2vHj7kw";

  it("treats /communication/<token> as a link page and logs six characters of it", () => {
    expect(isLinkPagePath(`/communication/${SIGNED}`)).toBe(true);
    expect(redactLinkPath(`/communication/${SIGNED}`)).toBe("/communication/xDhhhG…");
    expect(redactLinkPath(`/communication/${SIGNED}.data`)).toBe("/communication/xDhhhG….data");
  });

  it("treats the unsubscribe page as a link page (its token is in the query, which no log keeps)", () => {
    expect(isLinkPagePath("/communication/unsubscribe")).toBe(true);
    expect(isLinkPagePath("/communication/unsubscribe.data")).toBe(true);
    expect(redactLinkPath(`/communication/unsubscribe?token=${SIGNED}`)).toBe("/communication/unsubscribe");
  });

  it("leaves the signed-in page alone: the shell shows the session there", () => {
    expect(isLinkPagePath("/communication")).toBe(false);
    expect(redactLinkPath("/communication?saved=1")).toBe("/communication");
  });
});
