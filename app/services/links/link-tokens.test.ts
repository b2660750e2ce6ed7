import { randomBytes, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { setDatabaseForTesting } from "../platform/database.server";
import { withRequestScope } from "../platform/request-scope.server";
import type { DatabaseHandle } from "../platform/db.server";
import { paymentRequestFixtures } from "../../../tests/support/payment-request-fixtures";
import {
  checkLinkAccess,
  checkLinkToken,
  createLinkToken,
  LINK_TOKEN_PATTERN,
  linkSecretMatches,
  linkSelectorOf,
  mintLinkSecret,
  recordLinkOpened,
  redactLinkToken,
  rememberLinkInBrowser,
  revokeLinkTokens,
} from "./link-tokens.server";

// Every constant-time comparison is counted (and still made): a check's work is counted, not timed.
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof import("node:crypto")>();
  return { ...crypto, timingSafeEqual: vi.fn(crypto.timingSafeEqual) };
});

let handle: DatabaseHandle;
let acme: string;
let kiwi: string;
let contactId: string;
const subjectId = "0b7f5a52-7c1e-4b4a-9d39-3f1f5b0d7a11";
const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000);

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  const contact = await handle.db
    .selectFrom("contacts")
    .innerJoin("hosts", "hosts.business_id", "contacts.business_id")
    .select(["contacts.id", "contacts.business_id"])
    .where("hosts.hostname", "=", "acme.localhost")
    .executeTakeFirstOrThrow();
  acme = contact.business_id;
  contactId = contact.id;
  kiwi = (
    await handle.db.selectFrom("hosts").select("business_id").where("business_id", "!=", acme).executeTakeFirstOrThrow()
  ).business_id;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

const make = (overrides: { expiresAt?: Date; purpose?: "payment-request" | "invoice" | "adhoc" } = {}) =>
  createLinkToken(handle.db, {
    businessId: acme,
    purpose: overrides.purpose ?? "payment-request",
    subjectId,
    contactId,
    expiresAt: overrides.expiresAt ?? inAnHour(),
  });

describe("link tokens", () => {
  it("are 59 URL-safe characters, different every time, and the table never holds one", async () => {
    const a = await make();
    const b = await make();
    expect(a.token).toMatch(LINK_TOKEN_PATTERN);
    expect(a.token).not.toBe(b.token);
    const row = await handle.db.selectFrom("link_tokens").selectAll().where("id", "=", a.id).executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(a.token);
    expect(stored).not.toContain(a.token.slice(16));
    expect(row.verifier_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("open the record they were made for, on their own business and purpose only", async () => {
    const { id, token } = await make();
    const check = await checkLinkToken(acme, "payment-request", token);
    expect(check.status).toBe("valid");
    if (check.status !== "valid") return;
    expect(check.link).toMatchObject({ id, subjectId, contactId, businessId: acme });
    expect((await checkLinkToken(kiwi, "payment-request", token)).status).toBe("unknown");
    expect((await checkLinkToken(acme, "invoice", token)).status).toBe("unknown");
  });

  it("refuse tampered, truncated, extended and malformed tokens with the one answer", async () => {
    const { token } = await make();
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    for (const bad of [
      flip(token, 3), // selector
      flip(token, 40), // verifier
      token.slice(0, -1),
      token + "A",
      token.toUpperCase(),
      "",
      " ".repeat(59),
      "<script>alert(1)</script>".padEnd(59, "x"),
      "' OR 1=1 --".padEnd(59, "-"),
      "ü".repeat(59),
      null,
      undefined,
      42,
      { token },
      [token],
    ]) {
      expect(await checkLinkToken(acme, "payment-request", bad)).toEqual({ status: "unknown" });
    }
  });

  it("expire: the holder of a real link is told it expired, anyone else learns nothing", async () => {
    const { token } = await make({ expiresAt: new Date(Date.now() - 1000) });
    expect((await checkLinkToken(acme, "payment-request", token)).status).toBe("expired");
    const live = await make({ expiresAt: new Date(Date.now() + 60_000) });
    expect((await checkLinkToken(acme, "payment-request", live.token, new Date(Date.now() + 120_000))).status).toBe(
      "expired",
    );
  });

  it("are revoked for one record (cancel, resend) and say so only to their holder", async () => {
    const other = "6c0a3f0e-2d56-4f4c-8f0a-2b7c9a3d5e10";
    const mine = await createLinkToken(handle.db, {
      businessId: acme,
      purpose: "invoice",
      subjectId: other,
      contactId,
      expiresAt: inAnHour(),
    });
    const unrelated = await make({ purpose: "invoice" });
    expect(await revokeLinkTokens(handle.db, { businessId: acme, purpose: "invoice", subjectId: other })).toBe(1);
    expect((await checkLinkToken(acme, "invoice", mine.token)).status).toBe("revoked");
    expect((await checkLinkToken(acme, "invoice", unrelated.token)).status).toBe("valid");
    // Another business cannot revoke it, and revoking twice changes nothing.
    expect(await revokeLinkTokens(handle.db, { businessId: kiwi, purpose: "invoice", subjectId })).toBe(0);
    expect(await revokeLinkTokens(handle.db, { businessId: acme, purpose: "invoice", subjectId: other })).toBe(0);
  });

  it("are not spent by opening: a mail scanner's visit leaves the link working", async () => {
    const { id, token } = await make();
    for (let i = 0; i < 3; i++) {
      const check = await checkLinkToken(acme, "payment-request", token);
      expect(check.status).toBe("valid");
      await recordLinkOpened(acme, id);
    }
    const row = await handle.db
      .selectFrom("link_tokens")
      .select(["open_count", "first_opened_at", "last_opened_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.open_count).toBe(3);
    expect(row.first_opened_at).not.toBeNull();
  });

  it("count an opening only under their own business", async () => {
    await expectOpeningsOfOwnBusiness(handle);
  });

  it("checked against their record: withdrawn once the contact may no longer act for its account", async () => {
    // An ad-hoc link (its record is the account itself) shows the helper fits any purpose.
    const fx = paymentRequestFixtures(handle);
    const account = await handle.db
      .selectFrom("accounts")
      .select("id")
      .where("business_id", "=", acme)
      .where("number", "=", "ACME-1000")
      .executeTakeFirstOrThrow();
    const payer = await fx.contact({ businessId: acme, accountId: account.id });
    const live = await createLinkToken(handle.db, {
      businessId: acme,
      purpose: "adhoc",
      subjectId: account.id,
      contactId: payer.scope.contactId,
      expiresAt: inAnHour(),
    });
    const expired = await createLinkToken(handle.db, {
      businessId: acme,
      purpose: "adhoc",
      subjectId: account.id,
      contactId: payer.scope.contactId,
      expiresAt: new Date(Date.now() - 1_000),
    });
    const load = async (link: { subjectId: string }): Promise<{ accountId: string } | null> => ({
      accountId: link.subjectId,
    });
    const status = async (token: string, loader = load) => (await checkLinkAccess(acme, "adhoc", token, loader)).status;
    expect(await status(live.token)).toBe("valid");
    expect(await status(expired.token)).toBe("expired");
    await payer.unlink();
    expect([await status(live.token), await status(expired.token)]).toEqual(["withdrawn", "withdrawn"]);
    await payer.relink();
    await payer.disable();
    expect(await status(live.token)).toBe("withdrawn");
    await payer.enable();
    expect(await status(live.token)).toBe("valid");
    // A record that is gone, another host and a bad token: one "unknown", and nothing is loaded for those.
    expect(await status(live.token, async () => null)).toBe("unknown");
    let loaded = 0;
    const counting = async (link: { subjectId: string }) => (loaded++, { accountId: link.subjectId });
    expect((await checkLinkAccess(kiwi, "adhoc", live.token, counting)).status).toBe("unknown");
    expect((await checkLinkAccess(acme, "adhoc", "A".repeat(59), counting)).status).toBe("unknown");
    expect(loaded).toBe(0);
  });

  it("link sessions: remembering a browser clears every expired one, and keeps the live ones", async () => {
    const link = await make();
    const check = await checkLinkToken(acme, "payment-request", link.token);
    if (check.status !== "valid") throw new Error("the link should be valid");
    const hash = () => randomBytes(32).toString("hex");
    const [stale, live] = [hash(), hash()];
    await handle.db
      .insertInto("link_sessions")
      .values([
        { id_hash: stale, business_id: acme, link_token_id: link.id, expires_at: new Date(Date.now() - 1_000) },
        { id_hash: live, business_id: acme, link_token_id: link.id, expires_at: inAnHour() },
      ])
      .execute();
    const request = new Request("http://acme.localhost/customer/payment-request/x", {
      headers: { host: "acme.localhost" },
    });
    expect(await rememberLinkInBrowser(request, check.link)).toMatch(/^portal_link=/);
    const left = await handle.db.selectFrom("link_sessions").select(["id_hash", "expires_at"]).execute();
    expect(left.map((row) => row.id_hash)).toContain(live);
    expect(left.map((row) => row.id_hash)).not.toContain(stale);
    expect(left.every((row) => new Date(row.expires_at).getTime() > Date.now())).toBe(true);
    // The browser just remembered is one of them.
    expect(left).toHaveLength(2);
  });

  it("are never logged whole", () => {
    const token = randomBytes(44).toString("base64url").slice(0, 59);
    const shown = redactLinkToken(token);
    expect(shown).toBe(`${token.slice(0, 6)}…`);
    // Six characters of the 16-character selector: not enough to find the row, none of the verifier.
    expect(shown.length).toBeLessThan(16);
  });

  it("10,000 random tokens find nothing, and a miss does the same work as a real link's check", async () => {
    const real = await make();
    const random = () => randomBytes(45).toString("base64url").slice(0, 59);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) {
      if ((await checkLinkToken(acme, "payment-request", random())).status !== "unknown") hits++;
    }
    expect(hits).toBe(0);

    // The same work whatever the token, so that timing cannot tell a guess (no such selector), a
    // near miss (real selector, wrong verifier), a malformed token and a real link apart: one
    // indexed lookup and one constant-time comparison of two SHA-256 digests. Counted, not timed
    // (issue 29): a skipped query or comparison shows as a different count on any machine.
    const nearMiss = real.token.slice(0, 16) + random().slice(16);
    const work = async (token: string) => {
      const compared = vi.mocked(timingSafeEqual).mock.calls.length;
      const { scope, result } = withRequestScope(() => checkLinkToken(acme, "payment-request", token));
      const check = await result;
      return {
        status: check.status,
        statements: scope.statements,
        comparisons: vi.mocked(timingSafeEqual).mock.calls.length - compared,
      };
    };
    expect(await work(real.token)).toEqual({ status: "valid", statements: 1, comparisons: 1 });
    for (const token of [random(), nearMiss, "not a token", ""]) {
      expect(await work(token)).toEqual({ status: "unknown", statements: 1, comparisons: 1 });
    }
  });
});

/** Another business's id with a link's id counts nothing; the link's own business counts. */
async function expectOpeningsOfOwnBusiness(database: DatabaseHandle) {
  const business = async (host: string) =>
    (await database.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow())
      .business_id;
  const [own, other] = [await business("acme.localhost"), await business("kiwi.localhost")];
  const contact = await database.db
    .selectFrom("contacts")
    .select("id")
    .where("business_id", "=", own)
    .executeTakeFirstOrThrow();
  const { id } = await createLinkToken(database.db, {
    businessId: own,
    purpose: "payment-request",
    subjectId,
    contactId: contact.id,
    expiresAt: inAnHour(),
  });
  const opened = async () =>
    database.db
      .selectFrom("link_tokens")
      .select(["open_count", "first_opened_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  await recordLinkOpened(other, id);
  expect(await opened()).toEqual({ open_count: 0, first_opened_at: null });
  await recordLinkOpened(own, id);
  expect((await opened()).open_count).toBe(1);
}

describe.skipIf(!TEST_DATABASE_URL)("link openings on PostgreSQL (TEST_DATABASE_URL)", () => {
  let postgres: Awaited<ReturnType<typeof createSeededPostgresDatabase>>;
  beforeAll(async () => {
    postgres = await createSeededPostgresDatabase();
    setDatabaseForTesting(postgres.handle);
  });
  afterAll(async () => {
    setDatabaseForTesting(handle);
    await postgres?.drop();
  });

  it("count an opening only under their own business", async () => {
    await expectOpeningsOfOwnBusiness(postgres.handle);
  });
});

describe("link secrets kept outside link_tokens", () => {
  it("mints a token whose selector finds it and whose verifier alone matches", () => {
    const minted = mintLinkSecret();
    expect(minted.token).toMatch(LINK_TOKEN_PATTERN);
    expect(linkSelectorOf(minted.token)).toBe(minted.selector);
    expect(linkSecretMatches(minted.token, minted.verifierHash)).toBe(true);
    const other = mintLinkSecret();
    expect(linkSecretMatches(other.token, minted.verifierHash)).toBe(false);
    expect(linkSecretMatches(minted.selector + other.token.slice(16), minted.verifierHash)).toBe(false);
  });

  it("refuses malformed tokens and missing rows without throwing", () => {
    const minted = mintLinkSecret();
    for (const bad of [undefined, null, 42, "", "short", `${minted.token}x`, minted.token.replace(/.$/, "!")]) {
      expect(linkSelectorOf(bad)).toBe("");
      expect(linkSecretMatches(bad, minted.verifierHash)).toBe(false);
    }
    expect(linkSecretMatches(minted.token, null)).toBe(false);
    expect(linkSecretMatches(minted.token, "not hex")).toBe(false);
  });
});
