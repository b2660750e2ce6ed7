import { describe, expect, it } from "vitest";
import { CUSTOMER_STYLE_ROUTES, hasPortalAccess, isAuthRoute, PUBLIC_ROUTES, routeAccess } from "./access.server";

/** A concrete path for a spec §2 pattern. */
const example = (pattern: string) => pattern.replace("[...slug]", "abc/def").replace("[slug]", "abc");

describe("the spec §2 route lists", () => {
  it("holds every public route of the spec", () => {
    expect(PUBLIC_ROUTES).toEqual([
      "/auth/signin",
      "/auth/password",
      "/auth/password/reset",
      "/auth/verify",
      "/user/login",
      "/heartbeat",
      "/communication",
      "/customer/invoices-and-payments/[...slug]",
      "/customer/payment-request/[...slug]",
      "/credit",
      "/credit-trade-reference",
      "/response/[...slug]",
      "/response/complete/[slug]",
      "/privacy-policy",
      "/terms-and-conditions",
    ]);
  });

  it("holds every customer-style route of the spec", () => {
    expect(CUSTOMER_STYLE_ROUTES).toEqual([
      "/payment/payment-request/[slug]",
      "/payment/complete/[slug]",
      "/payment/adhoc/[slug]",
      "/payment-schedule/acceptance/[...slug]",
      "/agreements/acceptance/[slug]",
      "/customer/invoices-and-payments/[...slug]",
      "/customer/payment-request/[...slug]",
      "/customer/payment-schedule/[...slug]",
      "/customer/adhoc/[slug]",
      "/customer/agreement/[...slug]",
      "/communication",
    ]);
  });

  it.each(PUBLIC_ROUTES.map((p) => [example(p)]))("%s is public", (path) => {
    expect(routeAccess(path)).toBe("public");
  });

  const customerOnly = CUSTOMER_STYLE_ROUTES.filter((p) => !(PUBLIC_ROUTES as readonly string[]).includes(p));
  it.each(customerOnly.map((p) => [example(p)]))("%s needs a session but not portal access", (path) => {
    expect(routeAccess(path)).toBe("customer");
  });

  it.each([
    ["/"],
    ["/accounts"],
    ["/payment/complete"], // [slug] needs a segment
    ["/payment/complete/a/b"], // [slug] is one segment only
    ["/customer/adhoc/a/b"],
    ["/auth/signin/extra"],
    ["/privacy-policy-x"],
    ["/heartbeat/../accounts"],
    ["/customer/invoices-and-payments"], // [...slug] needs at least one segment
  ])("%s needs portal access", (path) => {
    expect(routeAccess(path)).toBe("portal");
  });

  it("keeps the public forms' sub-paths public, and nothing beside them", () => {
    for (const path of [
      "/credit/business",
      "/credit/check-your-answers",
      "/credit-trade-reference/abc",
      "/communication/unsubscribe",
    ]) {
      expect(routeAccess(path)).toBe("public");
    }
    for (const path of ["/credit-x", "/credit-trade-reference/a/b", "/communications"]) {
      expect(routeAccess(path)).toBe("portal");
    }
  });

  it("treats a trailing slash like the path without it", () => {
    expect(routeAccess("/auth/signin/")).toBe("public");
    expect(routeAccess("/payment/complete/abc/")).toBe("customer");
  });

  it("keeps the sign-in plumbing public", () => {
    for (const path of ["/error", "/api/auth/signin", "/api/auth/callback/auth0", "/auth/auth0", "/auth/signout"]) {
      expect(routeAccess(path)).toBe("public");
    }
  });
});

describe("portal access", () => {
  it("needs both the permission and a verified contact", () => {
    expect(hasPortalAccess({ verified: true, permissions: ["accessCustomerPortal"] })).toBe(true);
    expect(hasPortalAccess({ verified: false, permissions: ["accessCustomerPortal"] })).toBe(false);
    expect(hasPortalAccess({ verified: true, permissions: [] })).toBe(false);
    expect(hasPortalAccess({ verified: true, permissions: ["accesscustomerportal"] })).toBe(false);
  });

  it("knows the auth routes a verified user is sent away from", () => {
    expect(isAuthRoute("/auth/signin")).toBe(true);
    expect(isAuthRoute("/user/login")).toBe(true);
    expect(isAuthRoute("/auth/verify")).toBe(true);
    expect(isAuthRoute("/auth/password")).toBe(false);
    expect(isAuthRoute("/")).toBe(false);
  });
});
