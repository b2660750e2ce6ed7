import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProductFruits } from "~/components/ProductFruits";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { securityHeaders } from "~/services/platform/security-headers.server";
import { createSession } from "~/services/auth/session.server";
import { openSeededPglite } from "../tests/support/test-db";
import { loader } from "./root";

let handle: DatabaseHandle;
let cookie: string;

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  const olivia = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", "olivia@coastal.example")
    .executeTakeFirstOrThrow();
  cookie = (
    await createSession(new Request("http://acme.localhost/"), {
      businessId: olivia.business_id,
      contactId: olivia.id,
      authMethod: "credentials",
    })
  ).split(";")[0]!;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

const rootData = async () =>
  loader({
    request: new Request("http://acme.localhost/", { headers: { host: "acme.localhost", cookie } }),
    params: {},
    context: {},
  });

describe("the ProductFruits tour (spec §6)", () => {
  it("is off when the toggle is off", async () => {
    expect((await rootData()).productFruits).toBeNull();
  });

  it("is on with the workspace code and the contact's position as role when the toggle is on", async () => {
    await handle.db
      .updateTable("feature_toggles")
      .set({ enabled: true, configuration_value: JSON.stringify({ workspaceCode: "acme</script><script>x" }) })
      .where("name", "=", "ProductFruit")
      .execute();
    const data = await rootData();
    expect(data.productFruits).toEqual({
      workspaceCode: "acme</script><script>x",
      language: "en",
      username: "olivia@coastal.example",
      role: "Accounts Payable",
    });
    const html = renderToStaticMarkup(<ProductFruits config={data.productFruits!} nonce="n0nce" />);
    expect(html).not.toContain("</script><script>x");
    expect(html).toContain("\\u003c/script>");
    expect(html).toContain('nonce="n0nce"');
    expect(
      securityHeaders(new Request("http://acme.localhost/"), "n", {
        thirdPartyOrigins: ["https://app.productfruits.com"],
      })["Content-Security-Policy"],
    ).toContain("script-src 'self' 'nonce-n' https://app.productfruits.com");
  });

  it("stays off with an empty workspace code", async () => {
    await handle.db
      .updateTable("feature_toggles")
      .set({ enabled: true, configuration_value: JSON.stringify({ workspaceCode: "  " }) })
      .where("name", "=", "ProductFruit")
      .execute();
    expect((await rootData()).productFruits).toBeNull();
  });
});
