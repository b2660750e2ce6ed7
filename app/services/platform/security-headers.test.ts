import { createRequestHandler, redirect, type ServerBuild } from "@remix-run/server-runtime";
import { describe, expect, it } from "vitest";
import { withDataRequestHeaders } from "./security-headers.server";

/**
 * Single-fetch `.data` answers (issue 28): Remix's own request handler, with a two-route build
 * whose entry's `handleDataRequest` is the portal's, so loaders, actions and redirects all pass
 * through the very code path `remix-serve` runs.
 */
const route = (id: string, path: string | undefined, parentId: string | undefined, module: object) => ({
  id,
  path,
  parentId,
  index: undefined,
  caseSensitive: undefined,
  module: { default: () => null, ...module },
});

const build = {
  mode: "production",
  entry: {
    module: {
      default: () => new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } }),
      handleDataRequest: (response: Response, { request }: { request: Request }) =>
        withDataRequestHeaders(response, request),
    },
  },
  routes: {
    root: route("root", "", undefined, {}),
    "routes/payment-methods": route("routes/payment-methods", "payment-methods", "root", {
      loader: () => ({ cards: ["visa 1111"] }),
    }),
    "routes/credit.business": route("routes/credit.business", "credit/business", "root", {
      loader: () => null,
      action: () => redirect("/credit/directors"),
    }),
    "routes/customer.invoices-and-payments.$token": route(
      "routes/customer.invoices-and-payments.$token",
      "customer/invoices-and-payments/:token",
      "root",
      { loader: () => ({ invoice: "INV-1" }) },
    ),
  },
  assets: { version: "test", url: "/build/manifest.js", entry: { module: "/build/entry.js", imports: [] }, routes: {} },
  publicPath: "/build/",
  assetsBuildDirectory: "public/build",
  future: { v3_singleFetch: true },
  isSpaMode: false,
} as unknown as ServerBuild;

const handle = createRequestHandler(build, "production");

describe("single-fetch .data answers", () => {
  it("a loader's data: nosniff, no-store, the referrer policy", async () => {
    const response = await handle(new Request("http://acme.localhost/payment-methods.data"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/x-script");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("an action's redirect (POST /credit/business.data) carries them too", async () => {
    const response = await handle(
      new Request("http://acme.localhost/credit/business.data", {
        method: "POST",
        body: new URLSearchParams({ legalName: "Acme" }),
      }),
    );
    expect(response.status).toBe(202);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("a link page's data never sends its token on", async () => {
    const response = await handle(new Request("http://acme.localhost/customer/invoices-and-payments/tok3n.data"));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin");
  });
});
