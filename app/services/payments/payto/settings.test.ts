import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { findHostBranding } from "../../host/host.server";
import { setDatabaseForTesting } from "../../platform/database.server";
import type { DatabaseHandle } from "../../platform/db.server";
import { getPayToConfiguration, payToConfigurationOf } from "./settings.server";

/** PayTo's configuration arrives with the host (no query of its own) and means the same as the direct read. */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

describe("PayTo configuration", () => {
  it.each([
    ["acme.localhost", true],
    ["kiwi.localhost", false],
    ["harbour.localhost", false],
  ])("%s: offered %s, the same from the host as from the business", async (hostname, offered) => {
    const branding = (await findHostBranding(handle.db, hostname))!;
    const fromHost = payToConfigurationOf(branding);
    expect(fromHost.enabled).toBe(offered);
    expect(fromHost).toEqual(await getPayToConfiguration(branding.businessId));
  });

  it("acme's settings: its limit and its receivable PayIDs' domain", async () => {
    const branding = (await findHostBranding(handle.db, "acme.localhost"))!;
    expect(payToConfigurationOf(branding)).toMatchObject({
      maxPaymentCents: 1_000_000,
      payIdDomain: "pay.acme.example",
    });
  });

  it("is never offered outside Australia, whatever the settings say", () => {
    const settings = { enabled: true, providerName: "X", maxPaymentCents: 100, payIdDomain: null };
    expect(payToConfigurationOf({ country: "NZ", payToSettings: settings }).enabled).toBe(false);
    expect(payToConfigurationOf({ country: "AU", payToSettings: settings }).enabled).toBe(true);
  });
});
