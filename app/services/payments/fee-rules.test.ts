import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeRulesFromRow } from "~/lib/payment-calc";
import { openSeededPglite } from "../../../tests/support/test-db";
import { findHostBranding } from "../host/host.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { getFeeRules } from "./payable.server";

/** The fee rules arrive with the host (no query of their own on the pay page) and mean the same as the direct read. */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

describe("fee rules", () => {
  it.each(["acme.localhost", "kiwi.localhost", "harbour.localhost"])(
    "%s: the same from the host as from the business",
    async (hostname) => {
      const branding = (await findHostBranding(handle.db, hostname))!;
      expect(branding.feeRules).toEqual(await getFeeRules(branding.businessId));
    },
  );

  it("acme's: surcharge by brand, a late fee and an early-payment discount", async () => {
    const branding = (await findHostBranding(handle.db, "acme.localhost"))!;
    expect(branding.feeRules).toMatchObject({
      surcharge: { visa: { bps: 120, fixedCents: 0 } },
      lateFee: { bps: 200, fixedCents: 500 },
      earlyDiscount: { bps: 100, daysBeforeDue: 10 },
    });
  });

  it("zero rates are no fee, and no row is no rules", () => {
    expect(feeRulesFromRow(null)).toEqual({ surcharge: {}, lateFee: null, earlyDiscount: null });
    expect(
      feeRulesFromRow({
        surcharge: {},
        lateFeeBps: 0,
        lateFeeFixedCents: 0,
        earlyDiscountBps: 0,
        earlyDiscountDays: 5,
      }),
    ).toEqual({ surcharge: {}, lateFee: null, earlyDiscount: null });
    expect(
      feeRulesFromRow({
        surcharge: null,
        lateFeeBps: 0,
        lateFeeFixedCents: 300,
        earlyDiscountBps: 0,
        earlyDiscountDays: 0,
      }).lateFee,
    ).toEqual({ bps: 0, fixedCents: 300 });
  });
});
