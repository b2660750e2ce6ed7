import { createHmac, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../../tests/support/test-db";
import {
  AGREEMENT_STATUSES,
  AGREEMENT_TRANSITIONS,
  TERMINAL_AGREEMENT_STATUSES,
  type AgreementStatus,
} from "~/lib/payto-states";
import { BACKGROUND_HANDLERS } from "../../jobs/background.server";
import { setDatabaseForTesting } from "../../platform/database.server";
import type { DatabaseHandle } from "../../platform/db.server";
import { QUEUES } from "../../platform/queue.server";
import { parseTokenRequest } from "./agreement-request.server";
import {
  applyAgreementSnapshot,
  cancelAgreement,
  createAgreement,
  getAgreement,
  listAgreements,
  pollAgreements,
  type AgreementActor,
} from "./agreements.server";
import { getPayToProvider, setPayToProviderForTesting, webhookSecret } from "./index.server";
import {
  PayToTimeoutError,
  type PayToDebtor,
  type PayToProvider,
  type ProviderAgreement,
} from "./payto-provider.server";
import { createSandboxPayTo, type SandboxPayTo } from "./sandbox-provider.server";
import { receiveWebhook } from "./webhook.server";

/** The sandbox's payer outcomes (decision 027) by PayID. */
const payId = (local: string): PayToDebtor => ({
  partyType: "PERS",
  partyName: "Olivia Nguyen",
  ultimatePartyName: "",
  kind: "alias",
  aliasType: "EMAL",
  aliasValue: `${local}@payto.test`,
});

function agreementSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let actor: AgreementActor;
  let otherAccountActor: AgreementActor;
  let harbour: AgreementActor;
  let sandbox: SandboxPayTo;
  const hostname = "acme.localhost";

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    // The real sandbox, answering at once; its webhooks go nowhere (0: no answer), so what the
    // portal learns here it learns from its own calls and the poller, and the webhook tests
    // below deliver signed events themselves.
    sandbox = createSandboxPayTo({ secret: webhookSecret(), delayMs: 0, deliver: async () => 0 });
    setPayToProviderForTesting(sandbox);
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", "olivia@coastal.example")
      .executeTakeFirstOrThrow();
    const account = (number: string) =>
      handle.db
        .selectFrom("accounts")
        .select(["id", "business_id"])
        .where("number", "=", number)
        .executeTakeFirstOrThrow();
    actor = { businessId: contact.business_id, accountId: (await account("ACME-1000")).id, contactId: contact.id };
    otherAccountActor = { ...actor, accountId: (await account("ACME-1001")).id };
    const mia = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", "mia@harbour.example")
      .executeTakeFirstOrThrow();
    harbour = { businessId: mia.business_id, accountId: (await account("HE-9000")).id, contactId: mia.id };
  });
  afterAll(async () => {
    setPayToProviderForTesting(undefined);
    setDatabaseForTesting(undefined);
    await close();
  });

  /** An agreement row as the portal holds it after the provider's answer, at `status`/`version`. */
  async function holding(status: AgreementStatus, version: number, who = actor) {
    const providerId = `test_${randomUUID()}`;
    const row = await handle.db
      .insertInto("payto_agreements")
      .values({
        business_id: who.businessId,
        account_id: who.accountId,
        request_guid: randomUUID(),
        request_hash: "0".repeat(64),
        status,
        provider_agreement_id: providerId,
        provider_version: version,
        party_name: "Olivia Nguyen",
        alias_type: "EMAL",
        alias_value: "olivia@example.com",
        max_amount_cents: 1_000_000,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, providerId };
  }

  const snapshot = (
    providerId: string,
    status: AgreementStatus,
    version: number,
    merchant = actor.businessId,
  ): ProviderAgreement => ({
    agreementId: providerId,
    idempotencyKey: `k:${providerId}`,
    merchant,
    status,
    version,
    statusReason: status === "DECLINED" ? "Declined by payer" : null,
    maxAmountCents: 1_000_000,
    updatedAt: new Date().toISOString(),
  });

  const stateOf = (id: string) =>
    handle.db
      .selectFrom("payto_agreements")
      .select(["status", "provider_version", "status_reason"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const eventsOf = (id: string) =>
    handle.db
      .selectFrom("payto_agreement_events")
      .select(["from_status", "to_status", "version", "source"])
      .where("agreement_id", "=", id)
      .orderBy("id")
      .execute();
  const count = async (table: "payto_agreements" | "payto_agreement_events" | "sandbox_payto_agreements") =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe("applying snapshots (decision 027's table)", () => {
    it.each(AGREEMENT_TRANSITIONS.map((t) => [t.from, t.to] as const))(
      "%s → %s is applied, with one event",
      async (from, to) => {
        const { id, providerId } = await holding(from, 2);
        expect(await applyAgreementSnapshot(actor.businessId, snapshot(providerId, to, 3), "webhook")).toBe("applied");
        expect(await stateOf(id)).toMatchObject({ status: to, provider_version: 3 });
        expect(await eventsOf(id)).toEqual([{ from_status: from, to_status: to, version: 3, source: "webhook" }]);
        // The same snapshot again, or an older one, is old news.
        expect(await applyAgreementSnapshot(actor.businessId, snapshot(providerId, to, 3), "poll")).toBe("stale");
        expect(await applyAgreementSnapshot(actor.businessId, snapshot(providerId, from, 2), "poll")).toBe("stale");
        expect(await eventsOf(id)).toHaveLength(1);
      },
    );

    const impossible = AGREEMENT_STATUSES.flatMap((from) =>
      AGREEMENT_STATUSES.filter((to) => to !== from && TERMINAL_AGREEMENT_STATUSES.includes(from)).map(
        (to) => [from, to] as const,
      ),
    ).concat([
      ["ACTIVE", "CREATED"],
      ["SUSPENDED", "CREATED"],
      ["ACTIVE", "DECLINED"],
      ["SUSPENDED", "EXPIRED"],
    ]);
    it.each(impossible)("%s → %s is refused as impossible and changes nothing", async (from, to) => {
      const { id, providerId } = await holding(from, 2);
      expect(await applyAgreementSnapshot(actor.businessId, snapshot(providerId, to, 5), "webhook")).toBe("impossible");
      expect(await stateOf(id)).toMatchObject({ status: from, provider_version: 2 });
      expect(await eventsOf(id)).toEqual([]);
    });

    it("a newer snapshot past missed steps is applied (CREATED → SUSPENDED: ACTIVE was missed)", async () => {
      const { id, providerId } = await holding("CREATED", 1);
      expect(await applyAgreementSnapshot(actor.businessId, snapshot(providerId, "SUSPENDED", 3), "poll")).toBe(
        "applied",
      );
      expect(await eventsOf(id)).toEqual([
        { from_status: "CREATED", to_status: "SUSPENDED", version: 3, source: "poll" },
      ]);
    });

    it("the reason travels with the status", async () => {
      const { id, providerId } = await holding("CREATED", 1);
      await applyAgreementSnapshot(actor.businessId, snapshot(providerId, "DECLINED", 2), "webhook");
      expect((await stateOf(id)).status_reason).toBe("Declined by payer");
    });

    it("an agreement this business never made is unknown; another business's is unknown too", async () => {
      expect(await applyAgreementSnapshot(actor.businessId, snapshot("nope", "ACTIVE", 2), "webhook")).toBe("unknown");
      const { id, providerId } = await holding("CREATED", 1);
      expect(
        await applyAgreementSnapshot(
          harbour.businessId,
          snapshot(providerId, "ACTIVE", 2, harbour.businessId),
          "webhook",
        ),
      ).toBe("unknown");
      // A snapshot naming another merchant is not this business's either.
      expect(
        await applyAgreementSnapshot(
          actor.businessId,
          snapshot(providerId, "ACTIVE", 2, harbour.businessId),
          "webhook",
        ),
      ).toBe("unknown");
      expect(await stateOf(id)).toMatchObject({ status: "CREATED", provider_version: 1 });
    });
  });

  describe("webhooks and polling racing", () => {
    const story: [AgreementStatus, number][] = [
      ["CREATED", 1],
      ["ACTIVE", 2],
      ["SUSPENDED", 3],
      ["ACTIVE", 4],
      ["CANCELLED", 5],
    ];

    it("in order: one event per change, ending CANCELLED at version 5", async () => {
      const { id, providerId } = await holding("CREATED", 0);
      for (const [status, version] of story) {
        await applyAgreementSnapshot(actor.businessId, snapshot(providerId, status, version), "webhook");
      }
      expect(await stateOf(id)).toMatchObject({ status: "CANCELLED", provider_version: 5 });
      expect((await eventsOf(id)).map((e) => [e.from_status, e.to_status, e.version])).toEqual([
        [null, "CREATED", 1],
        ["CREATED", "ACTIVE", 2],
        ["ACTIVE", "SUSPENDED", 3],
        ["SUSPENDED", "ACTIVE", 4],
        ["ACTIVE", "CANCELLED", 5],
      ]);
    });

    it("in reverse order: the newest wins at once, the rest are stale", async () => {
      const { id, providerId } = await holding("CREATED", 0);
      const results = [];
      for (const [status, version] of [...story].reverse()) {
        results.push(await applyAgreementSnapshot(actor.businessId, snapshot(providerId, status, version), "poll"));
      }
      expect(results).toEqual(["applied", "stale", "stale", "stale", "stale"]);
      expect(await stateOf(id)).toMatchObject({ status: "CANCELLED", provider_version: 5 });
      expect(await eventsOf(id)).toHaveLength(1);
    });

    it("all at once, each twice (webhook and poll): the same end state, each version recorded at most once", async () => {
      const { id, providerId } = await holding("CREATED", 0);
      const deliveries = story.flatMap(([status, version]) => [
        applyAgreementSnapshot(actor.businessId, snapshot(providerId, status, version), "webhook"),
        applyAgreementSnapshot(actor.businessId, snapshot(providerId, status, version), "poll"),
      ]);
      const results = await Promise.all(deliveries.reverse());
      expect(results.every((r) => r === "applied" || r === "stale")).toBe(true);
      expect(await stateOf(id)).toMatchObject({ status: "CANCELLED", provider_version: 5 });
      const events = await eventsOf(id);
      expect(results.filter((r) => r === "applied")).toHaveLength(events.length);
      const versions = events.map((e) => e.version);
      expect(new Set(versions).size).toBe(versions.length);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(events.at(-1)).toMatchObject({ to_status: "CANCELLED", version: 5 });
    });
  });

  describe("reading agreements, account-scoped", () => {
    it("lists and shows the account's own, and nobody else's", async () => {
      const mine = await holding("ACTIVE", 2);
      const theirs = await holding("ACTIVE", 2, otherAccountActor);
      const harbours = await holding("ACTIVE", 2, harbour);
      expect((await listAgreements(actor)).map((a) => a.id)).toContain(mine.id);
      expect((await listAgreements(actor)).map((a) => a.id)).not.toContain(theirs.id);
      expect(await getAgreement(actor, mine.id)).toMatchObject({ id: mine.id, status: "ACTIVE", method: "payid" });
      expect(await getAgreement(actor, theirs.id)).toBeNull();
      expect(await getAgreement(actor, harbours.id)).toBeNull();
      for (const bad of ["not-a-uuid", "' OR 1=1 --", "", null, 42, randomUUID()]) {
        expect(await getAgreement(actor, bad)).toBeNull();
      }
      expect(await cancelAgreement(actor, theirs.id)).toEqual({ ok: false, reason: "not_found" });
      expect(await cancelAgreement(actor, harbours.id)).toEqual({ ok: false, reason: "not_found" });
      expect(await stateOf(theirs.id)).toMatchObject({ status: "ACTIVE" });
    });
  });

  describe("bad token requests", () => {
    const good = {
      requestGuid: randomUUID(),
      accountID: "x",
      payToDebtorInformation: {
        party_type: "PERS",
        party_name: "Olivia Nguyen",
        ultimate_party_name: "",
        account_alias_type_code: "EMAL",
        account_alias_identification: "approve@payto.test",
      },
    };
    const withDebtor = (changes: Record<string, unknown>) => ({
      ...good,
      payToDebtorInformation: { ...good.payToDebtorInformation, ...changes },
    });
    const cases: [string, Record<string, unknown>, string, string][] = [
      [
        "email PayID with two @",
        withDebtor({ account_alias_identification: "a@b@c.com" }),
        "account_alias_identification",
        "payto.error.email.invalid",
      ],
      [
        "+64 mobile",
        withDebtor({ account_alias_type_code: "TELI", account_alias_identification: "+64 21 123 4567" }),
        "account_alias_identification",
        "payto.error.mobile.country",
      ],
      [
        "ABN with a wrong check digit",
        withDebtor({ account_alias_type_code: "AUBN", account_alias_identification: "51 824 753 557" }),
        "account_alias_identification",
        "payto.error.abn.checksum",
      ],
      [
        "unknown alias type",
        withDebtor({ account_alias_type_code: "IBAN" }),
        "account_alias_type_code",
        "payto.error.payIdType.invalid",
      ],
      [
        "BSB of 5 digits",
        withDebtor({
          account_alias_type_code: undefined,
          account_identification_type_code: "BBAN",
          account_identification: "12345",
        }),
        "account_identification",
        "payto.error.bsb.invalid",
      ],
      [
        "account number of 3 digits",
        withDebtor({
          account_alias_type_code: undefined,
          account_identification_type_code: "BBAN",
          account_identification: "123456 123",
        }),
        "account_identification",
        "payto.error.accountNumber.invalid",
      ],
      [
        "account number of 10 digits",
        withDebtor({
          account_alias_type_code: undefined,
          account_identification_type_code: "BBAN",
          account_identification: "123456 1234567890",
        }),
        "account_identification",
        "payto.error.accountNumber.invalid",
      ],
      ["party_name empty", withDebtor({ party_name: "  " }), "party_name", "payto.error.partyName.required"],
      [
        "party_name of 141 characters",
        withDebtor({ party_name: "a".repeat(141) }),
        "party_name",
        "payto.error.partyName.tooLong",
      ],
      [
        "party_name with markup",
        withDebtor({ party_name: "<script>alert(1)</script>" }),
        "party_name",
        "payto.error.name.characters",
      ],
      [
        "party_name with a bidi override",
        withDebtor({ party_name: "Olivia\u202E" }),
        "party_name",
        "payto.error.name.control",
      ],
      [
        "ultimate_party_name of 141",
        withDebtor({ ultimate_party_name: "b".repeat(141) }),
        "ultimate_party_name",
        "payto.error.ultimatePartyName.tooLong",
      ],
      ["party_type not PERS", withDebtor({ party_type: "ORGN" }), "party_type", "payto.error.partyType.invalid"],
      [
        "neither BBAN nor alias",
        withDebtor({ account_alias_type_code: undefined }),
        "account_identification_type_code",
        "payto.error.identification.invalid",
      ],
      [
        "requestGuid not a uuid",
        { ...good, requestGuid: "'; DROP TABLE payto_agreements; --" },
        "requestGuid",
        "payto.error.requestGuid.invalid",
      ],
      ["requestGuid missing", { ...good, requestGuid: undefined }, "requestGuid", "payto.error.requestGuid.invalid"],
      ["party_name a number", withDebtor({ party_name: { $ne: 1 } }), "party_name", "payto.error.partyName.required"],
    ];
    it.each(cases)("%s → a message on its field", (_name, body, field, key) => {
      const parsed = parseTokenRequest(body);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.errors[field]).toBe(key);
    });
    it("a good one reads into the debtor the provider gets", () => {
      expect(parseTokenRequest(good)).toMatchObject({
        ok: true,
        request: { debtor: { kind: "alias", aliasType: "EMAL", aliasValue: "approve@payto.test", partyType: "PERS" } },
      });
      expect(
        parseTokenRequest(
          withDebtor({
            account_alias_type_code: undefined,
            account_identification_type_code: "BBAN",
            account_identification: "000-000 10000001",
          }),
        ),
      ).toMatchObject({ ok: true, request: { debtor: { kind: "bban", bsb: "000000", accountNumber: "10000001" } } });
    });
  });

  describe("creating agreements through the sandbox provider", () => {
    it("is refused when the business does not offer PayTo (harbour), nothing written", async () => {
      const before = await count("payto_agreements");
      expect(
        await createAgreement(harbour, { requestGuid: randomUUID(), debtor: payId("approve") }, { hostname }),
      ).toEqual({
        ok: false,
        reason: "disabled",
      });
      expect(await count("payto_agreements")).toBe(before);
    });

    it("creates one, pending approval, with the business's limit; a repeat answers the first result", async () => {
      const requestGuid = randomUUID();
      const first = await createAgreement(actor, { requestGuid, debtor: payId("olivia.pending") }, { hostname });
      expect(first).toMatchObject({
        ok: true,
        repeat: false,
        agreement: { status: "CREATED", maxAmountCents: 1_000_000 },
      });
      if (!first.ok) return;
      expect(first.agreement.providerAgreementId).toBeTruthy();
      const again = await createAgreement(actor, { requestGuid, debtor: payId("olivia.pending") }, { hostname });
      expect(again).toMatchObject({ ok: true, repeat: true, agreement: { id: first.agreement.id } });
      // The same guid with another PayID, or for another account, is a conflict.
      expect(await createAgreement(actor, { requestGuid, debtor: payId("someone.else") }, { hostname })).toEqual({
        ok: false,
        reason: "conflict",
      });
      expect(
        await createAgreement(otherAccountActor, { requestGuid, debtor: payId("olivia.pending") }, { hostname }),
      ).toEqual({ ok: false, reason: "conflict" });
      const events = await eventsOf(first.agreement.id);
      expect(events[0]).toMatchObject({ from_status: null, to_status: "CREATED", source: "portal" });
    });

    it("20 concurrent repeats of one requestGuid → one provider agreement, one answer", async () => {
      const requestGuid = randomUUID();
      const before = await count("sandbox_payto_agreements");
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () =>
          createAgreement(actor, { requestGuid, debtor: payId("olivia.twenty") }, { hostname }),
        ),
      );
      const ids = new Set(outcomes.map((o) => (o.ok ? o.agreement.id : "refused")));
      expect(ids.size).toBe(1);
      expect(outcomes.filter((o) => o.ok && !o.repeat)).toHaveLength(1);
      expect(await count("sandbox_payto_agreements")).toBe(before + 1);
      const rows = await handle.db
        .selectFrom("payto_agreements")
        .select("provider_agreement_id")
        .where("request_guid", "=", requestGuid)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it("a refusal by the provider is FAILED with its reason", async () => {
      const outcome = await createAgreement(
        actor,
        { requestGuid: randomUUID(), debtor: payId("unavailable") },
        { hostname },
      );
      expect(outcome).toMatchObject({ ok: true, agreement: { status: "FAILED", statusReason: "unavailable" } });
    });

    it("a creation whose answer was lost is found by our key by the poller", async () => {
      // The provider creates it, but its answer never arrives (a time-out after acceptance).
      const lossy: PayToProvider = {
        ...sandbox,
        createAgreement: async (input) => {
          await sandbox.createAgreement(input);
          throw new PayToTimeoutError();
        },
      };
      setPayToProviderForTesting(lossy);
      let outcome;
      try {
        outcome = await createAgreement(
          actor,
          { requestGuid: randomUUID(), debtor: payId("olivia.lost") },
          { hostname },
        );
      } finally {
        setPayToProviderForTesting(sandbox);
      }
      if (!outcome.ok) throw new Error("not created");
      expect(outcome.agreement).toMatchObject({ status: "CREATED", providerAgreementId: null });
      expect(await cancelAgreement(actor, outcome.agreement.id)).toEqual({ ok: false, reason: "unavailable" });
      await pollAgreements(new Date(), 1000);
      const found = await getAgreement(actor, outcome.agreement.id);
      expect(found?.providerAgreementId).toBeTruthy();
      expect(found?.events).toMatchObject([{ fromStatus: null, toStatus: "CREATED", source: "poll" }]);
    });

    it("a creation the provider never received is failed as unavailable after the grace period", async () => {
      const down: PayToProvider = {
        ...sandbox,
        createAgreement: async () => {
          throw new PayToTimeoutError();
        },
      };
      setPayToProviderForTesting(down);
      let outcome;
      try {
        outcome = await createAgreement(
          actor,
          { requestGuid: randomUUID(), debtor: payId("olivia.never") },
          { hostname },
        );
      } finally {
        setPayToProviderForTesting(sandbox);
      }
      if (!outcome.ok) throw new Error("not created");
      await pollAgreements(new Date(), 1000);
      expect((await stateOf(outcome.agreement.id)).status).toBe("CREATED");
      await pollAgreements(new Date(Date.now() + 11 * 60_000), 1000);
      expect(await stateOf(outcome.agreement.id)).toMatchObject({ status: "FAILED", status_reason: "unavailable" });
    });

    it("cancels an agreement through the provider, recorded with source portal", async () => {
      const outcome = await createAgreement(
        actor,
        { requestGuid: randomUUID(), debtor: payId("olivia.cancel") },
        { hostname },
      );
      if (!outcome.ok) throw new Error("not created");
      const cancelled = await cancelAgreement(actor, outcome.agreement.id);
      expect(cancelled).toMatchObject({ ok: true, agreement: { status: "CANCELLED" } });
      expect((await eventsOf(outcome.agreement.id)).at(-1)).toMatchObject({ to_status: "CANCELLED", source: "portal" });
      expect(await cancelAgreement(actor, outcome.agreement.id)).toEqual({ ok: false, reason: "ended" });
    });

    it("the poller learns what the provider knows (the bank approved it by itself)", async () => {
      const outcome = await createAgreement(
        actor,
        { requestGuid: randomUUID(), debtor: payId("approve") },
        { hostname },
      );
      if (!outcome.ok) throw new Error("not created");
      expect(outcome.agreement.status).toBe("CREATED");
      // The bank answers by itself a moment later; the webhook is lost (nobody listens here).
      await sandbox.runDue(new Date(Date.now() + 60_000));
      expect((await stateOf(outcome.agreement.id)).status).toBe("CREATED");
      await pollAgreements(new Date(), 1000);
      expect((await stateOf(outcome.agreement.id)).status).toBe("ACTIVE");
      expect((await eventsOf(outcome.agreement.id)).some((e) => e.to_status === "ACTIVE" && e.source === "poll")).toBe(
        true,
      );
    });
  });

  describe("the payto-agreement-poll job", () => {
    it("run twice (a retry, a second process's slot): the bank's approval recorded once; the second run changes nothing", async () => {
      const outcome = await createAgreement(
        actor,
        { requestGuid: randomUUID(), debtor: payId("approve") },
        { hostname },
      );
      if (!outcome.ok) throw new Error("not created");
      const id = outcome.agreement.id;
      await sandbox.runDue(new Date(Date.now() + 60_000));
      // First in the poll's order (least recently checked), whatever the other tests left.
      await handle.db
        .updateTable("payto_agreements")
        .set({ updated_at: new Date(Date.now() - 86_400_000) })
        .where("id", "=", id)
        .execute();
      const poll = () => BACKGROUND_HANDLERS[QUEUES.paytoAgreements]!({ id: randomUUID(), data: {} }, handle);
      await poll();
      const once = { state: await stateOf(id), events: await eventsOf(id) };
      expect(once.state.status).toBe("ACTIVE");
      expect(once.events.filter((e) => e.to_status === "ACTIVE")).toHaveLength(1);
      await handle.db
        .updateTable("payto_agreements")
        .set({ updated_at: new Date(Date.now() - 86_400_000) })
        .where("id", "=", id)
        .execute();
      await poll();
      expect({ state: await stateOf(id), events: await eventsOf(id) }).toEqual(once);
    });
  });

  describe("webhooks through receiveWebhook", () => {
    const sign = (body: string, at = Math.floor(Date.now() / 1000), secret = webhookSecret()) => {
      const signature = createHmac("sha256", secret).update(`${at}.${body}`).digest("hex");
      return new Headers({ "PayTo-Signature": `t=${at},v1=${signature}`, "content-type": "application/json" });
    };
    const event = (data: ProviderAgreement) =>
      JSON.stringify({
        id: `evt_${randomUUID()}`,
        type: "agreement.updated",
        createdAt: new Date().toISOString(),
        data,
      });

    it("applies a signed one once; the same event again is answered duplicate and changes nothing", async () => {
      const { id, providerId } = await holding("CREATED", 1);
      const body = event(snapshot(providerId, "ACTIVE", 2));
      const first = await receiveWebhook(actor.businessId, sign(body), body);
      expect(first).toMatchObject({ status: 200, body: { received: true, result: "applied" } });
      // Suspended meanwhile by polling: a replay must not move it back.
      await applyAgreementSnapshot(actor.businessId, snapshot(providerId, "SUSPENDED", 3), "poll");
      const second = await receiveWebhook(actor.businessId, sign(body), body);
      expect(second).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
      expect(await stateOf(id)).toMatchObject({ status: "SUSPENDED", provider_version: 3 });
      expect(await eventsOf(id)).toHaveLength(2);
    });

    it("forged, stale or missing signatures are 401 and change nothing", async () => {
      const { id, providerId } = await holding("CREATED", 1);
      const body = event(snapshot(providerId, "ACTIVE", 2));
      const forged = sign(body, undefined, "not-the-secret-not-the-secret-not-the-secret");
      const stale = sign(body, Math.floor(Date.now() / 1000) - 3600);
      const tampered = event(snapshot(providerId, "CANCELLED", 2));
      for (const [headers, raw] of [
        [forged, body],
        [stale, body],
        [new Headers(), body],
        [sign(body), tampered],
        [new Headers({ "PayTo-Signature": "t=abc,v1=<script>" }), body],
      ] as const) {
        const answer = await receiveWebhook(actor.businessId, headers, raw);
        expect(answer.status).toBe(401);
      }
      expect(await stateOf(id)).toMatchObject({ status: "CREATED", provider_version: 1 });
      expect(await eventsOf(id)).toEqual([]);
    });

    it("an agreement of another business is 404 and changes nothing", async () => {
      const theirs = await holding("CREATED", 1, harbour);
      const body = event(snapshot(theirs.providerId, "ACTIVE", 2, harbour.businessId));
      expect((await receiveWebhook(actor.businessId, sign(body), body)).status).toBe(404);
      const mine = event(snapshot(theirs.providerId, "ACTIVE", 2));
      expect((await receiveWebhook(actor.businessId, sign(mine), mine)).status).toBe(404);
      expect(await stateOf(theirs.id)).toMatchObject({ status: "CREATED", provider_version: 1 });
    });
  });

  it("uses the configured provider", () => {
    expect(getPayToProvider().name).toBeTruthy();
  });
}

describe("on PGlite", () => {
  agreementSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

// Real concurrency: several connections racing for one agreement and one requestGuid.
describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  agreementSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
