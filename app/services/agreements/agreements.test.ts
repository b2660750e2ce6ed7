import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEMO_ACCEPTED_AGREEMENT_REFERENCE,
  DEMO_AGREEMENT_REFERENCE,
  DEMO_AGREEMENT_TOKEN,
} from "../../../db/seed/agreements";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { AGREEMENT_TEXT_MAX } from "~/lib/agreements";
import { checkLinkToken } from "../links/link-tokens.server";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import { RequestProblem } from "../platform/problems.server";
import { decideAgreementOffer, type DecideInput } from "./acceptance.server";
import {
  createAgreementDocument,
  createAgreementOffer,
  publishAgreementVersion,
  resendAgreementOffer,
  withdrawAgreementOffer,
} from "./commands.server";
import {
  getAgreementDocument,
  getAgreementOffer,
  listAgreementDocuments,
  listAgreementOffers,
  listOffersFor,
  loadAgreementOffer,
} from "./queries.server";

/**
 * Agreements on a real database (issue 15; decisions 034 and 036): documents and versions that
 * never change, offers emailed with a link of their own, and decisions recorded once with the
 * exact text's hash. Every refusal writes nothing.
 */
let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
});
afterAll(async () => {
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});
beforeEach(() => {
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});
afterEach(() => setClockForTesting(undefined));

const sha256 = (text: string) => createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
const LINK_PATH = "/agreements/acceptance/";
const tokenIn = (links: string[]) => links.find((l) => l.includes(LINK_PATH))?.split(LINK_PATH)[1] ?? null;

async function problemOf(run: () => Promise<unknown>): Promise<RequestProblem> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RequestProblem) return error;
    throw error;
  }
  throw new Error("expected a RequestProblem");
}

const TEXT = "# Card authority\n\nI authorise Acme to charge my card.\n\n- Each instalment on its day.\n";

function agreementSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme: string;
  let kiwi: string;
  const contacts: Record<string, string> = {};

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const business = async (host: string) =>
      (await handle.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow())
        .business_id;
    acme = await business("acme.localhost");
    kiwi = await business("kiwi.localhost");
    for (const row of await handle.db.selectFrom("contacts").select(["id", "email"]).execute()) {
      contacts[row.email] = row.id;
    }
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const count = async (table: "agreement_decisions" | "agreement_offers" | "agreement_versions" | "link_tokens") =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /**
   * On PostgreSQL, waits until another session is blocked on a lock (or `other` has settled, which
   * is what happens when nothing makes it wait): how the race tests interleave two transactions
   * without sleeping for a guessed time.
   */
  async function blockedOrSettled(other: Promise<unknown>) {
    let settled = false;
    other.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let i = 0; i < 1_000 && !settled; i++) {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(handle.db);
      if (rows[0]!.n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** A new document (a title of its own) and an offer of it to Olivia for ACME-1000, with the emailed token. */
  async function offered(input: { contact?: string; account?: string; text?: string; expiresInDays?: number } = {}) {
    const document = await createAgreementDocument(acme, {
      kind: "card-authority",
      title: `Card authority ${randomUUID().slice(0, 8)}`,
      body: input.text ?? TEXT,
    });
    const since = catcher.messages.length;
    const email = input.contact ?? "olivia@coastal.example";
    const result = await createAgreementOffer(acme, {
      document: document.id,
      account: input.account ?? "ACME-1000",
      contact: email,
      ...(input.expiresInDays ? { expiresInDays: input.expiresInDays } : {}),
    });
    const mail = await catcher.waitForMail(email, { after: since, subject: new RegExp(result.offer.reference) });
    return { document, offer: result.offer, delivery: result.delivery, mail, token: tokenIn(mail.links)! };
  }

  const decide = (offerId: string, overrides: Partial<DecideInput> = {}) =>
    decideAgreementOffer({
      businessId: acme,
      offerId,
      contactId: contacts["olivia@coastal.example"]!,
      decision: "accepted",
      typedName: "Olivia Nguyen",
      agreed: true,
      versionId: null,
      clientAddress: "198.51.100.7",
      userAgent: "Mozilla/5.0 (test)",
      ...overrides,
    });

  describe("the demo data", () => {
    it("holds Olivia's acceptance of version 1 and a waiting offer with the README's fixed link", async () => {
      const accepted = (await getAgreementOffer(acme, DEMO_ACCEPTED_AGREEMENT_REFERENCE))!;
      expect(accepted.state).toBe("accepted");
      expect(accepted.decision).toMatchObject({
        decision: "accepted",
        version: { version: 1 },
        typedName: "Olivia Nguyen",
      });
      const document = (await getAgreementDocument(acme, accepted.document.id))!;
      expect(document.versions.map((v) => v.version)).toEqual([2, 1]);
      expect(accepted.decision!.bodySha256).toBe(sha256(document.versions[1]!.body));
      for (const version of document.versions) expect(version.bodySha256).toBe(sha256(version.body));

      const waiting = (await getAgreementOffer(acme, DEMO_AGREEMENT_REFERENCE))!;
      expect(waiting.state).toBe("offered");
      const check = await checkLinkToken(acme, "agreement", DEMO_AGREEMENT_TOKEN);
      expect(check.status === "valid" && check.link.subjectId).toBe(waiting.id);
      expect((await checkLinkToken(kiwi, "agreement", DEMO_AGREEMENT_TOKEN)).status).toBe("unknown");
      expect((await checkLinkToken(acme, "payment-request", DEMO_AGREEMENT_TOKEN)).status).toBe("unknown");
      const page = (await loadAgreementOffer(acme, { id: waiting.id }))!;
      expect(page.version.version).toBe(2);
    });
  });

  describe("documents and versions", () => {
    it("publishes version 1 with the SHA-256 of the text's UTF-8 bytes, line endings made \\n", async () => {
      const body = "# Terms\r\n\r\nPrices in AUD — GST included. Ünïcödé and emoji 🧾 are kept.\r\n";
      const document = await createAgreementDocument(acme, { kind: "terms-of-trade", title: "  Terms  ", body });
      const stored = body.replace(/\r\n/g, "\n");
      expect(document).toMatchObject({ kind: "terms-of-trade", title: "Terms" });
      expect(document.versions).toHaveLength(1);
      expect(document.versions[0]).toMatchObject({
        version: 1,
        body: stored,
        bodySha256: sha256(stored),
        bytes: Buffer.byteLength(stored, "utf8"),
      });
      expect(document.latestVersion.id).toBe(document.versions[0]!.id);
    });

    it("keeps markup and SQL in a text as text", async () => {
      const body = "<script>alert(1)</script>\n\n'; DROP TABLE agreement_versions; --";
      const document = await createAgreementDocument(acme, { kind: "other", title: "<b>Bold</b>", body });
      expect(document.versions[0]!.body).toBe(body);
      expect(document.title).toBe("<b>Bold</b>");
    });

    it.each([
      ["an unknown kind", { kind: "lease", title: "T", body: "x" }, "kind"],
      ["no title", { kind: "other", title: "   ", body: "x" }, "title"],
      ["a title over 200 characters", { kind: "other", title: "t".repeat(201), body: "x" }, "title"],
      ["a title on two lines", { kind: "other", title: "One\nTwo", body: "x" }, "title"],
      ["a bidirectional override in the title", { kind: "other", title: "Terms \u202e", body: "x" }, "title"],
      ["no text", { kind: "other", title: "T", body: " \n " }, "body"],
      ["text that is not a string", { kind: "other", title: "T", body: 42 }, "body"],
      ["a control character in the text", { kind: "other", title: "T", body: "a\u0007b" }, "body"],
      ["a bidirectional override in the text", { kind: "other", title: "T", body: "pay \u202e001$" }, "body"],
      ["an unpaired surrogate", { kind: "other", title: "T", body: "a\ud800b" }, "body"],
      ["text over the limit", { kind: "other", title: "T", body: "x".repeat(AGREEMENT_TEXT_MAX + 1) }, "body"],
      ["an unknown field", { kind: "other", title: "T", body: "x", version: 3 }, "version"],
    ])("refuses %s and writes nothing", async (_label, input, field) => {
      const before = await count("agreement_versions");
      const problem = await problemOf(() => createAgreementDocument(acme, input));
      expect(problem.code).toBe("validation");
      expect(problem.fields).toHaveProperty(field);
      expect(await count("agreement_versions")).toBe(before);
    });

    it("takes a text of exactly 100,000 characters (many of them multi-byte)", async () => {
      const body = "é".repeat(AGREEMENT_TEXT_MAX);
      const document = await createAgreementDocument(acme, { kind: "other", title: "Long", body });
      expect(document.versions[0]!.bytes).toBe(2 * AGREEMENT_TEXT_MAX);
    });

    it("publishes the next version; the same text again, another business's document or a bad id is refused", async () => {
      const document = await createAgreementDocument(acme, { kind: "direct-debit", title: "DDR", body: TEXT });
      const next = await publishAgreementVersion(acme, document.id, { body: `${TEXT}\nAnd one more line.\n` });
      expect(next.versions.map((v) => v.version)).toEqual([2, 1]);
      expect(next.latestVersion.version).toBe(2);
      const same = await problemOf(() =>
        publishAgreementVersion(acme, document.id, { body: `${TEXT}\nAnd one more line.\n` }),
      );
      expect(same.code).toBe("conflict");
      expect((await problemOf(() => publishAgreementVersion(kiwi, document.id, { body: "x" }))).code).toBe("not-found");
      expect((await problemOf(() => publishAgreementVersion(acme, "not-an-id", { body: "x" }))).code).toBe("not-found");
      expect((await problemOf(() => publishAgreementVersion(acme, document.id, { body: "" }))).code).toBe("validation");
      expect(await getAgreementDocument(kiwi, document.id)).toBeNull();
      expect((await getAgreementDocument(acme, document.id))!.versions).toHaveLength(2);
    });

    it("never lets published text change: the database refuses UPDATE and DELETE", async () => {
      const document = await createAgreementDocument(acme, { kind: "other", title: "Fixed", body: TEXT });
      const id = document.versions[0]!.id;
      await expect(
        handle.db.updateTable("agreement_versions").set({ body: "changed" }).where("id", "=", id).execute(),
      ).rejects.toThrow(/never changed or deleted/);
      await expect(handle.db.deleteFrom("agreement_versions").where("id", "=", id).execute()).rejects.toThrow(
        /never changed or deleted/,
      );
      expect((await getAgreementDocument(acme, document.id))!.versions[0]!.body).toBe(TEXT);
    });

    it("lists the business's documents, newest first, a page at a time", async () => {
      const first = await listAgreementDocuments(acme, { limit: 2 });
      expect(first.items).toHaveLength(2);
      expect(first.nextCursor).not.toBeNull();
      const second = await listAgreementDocuments(acme, { limit: 2, cursor: first.nextCursor });
      const ids = [...first.items, ...second.items].map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      // Kiwi's own documents (its seeded terms of trade) only: never acme's.
      const kiwiIds = (await listAgreementDocuments(kiwi)).items.map((d) => d.id);
      for (const id of ids) expect(kiwiIds).not.toContain(id);
      expect((await problemOf(() => listAgreementDocuments(acme, { cursor: "nonsense!" }))).fields).toHaveProperty(
        "cursor",
      );
      expect((await problemOf(() => listAgreementDocuments(acme, { limit: 0 }))).fields).toHaveProperty("limit");
    });
  });

  describe("offers", () => {
    it("emails the contact a branded message with a link of its own; the answer carries no token", async () => {
      const { offer, delivery, mail, token } = await offered();
      expect(delivery).toEqual({ email: "olivia@coastal.example", sent: true });
      expect(offer).toMatchObject({ state: "offered", sendCount: 1, account: { number: "ACME-1000" }, decision: null });
      expect(offer.reference).toMatch(/^AG-[0-9A-Z]{8}$/);
      const days = (new Date(offer.expiresAt).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
      expect(mail.subject).toBe(
        `Please review: ${offer.document.title} from Acme Plumbing Supplies (${offer.reference})`,
      );
      expect(mail.text).toContain(`${LINK_PATH}${token}`);
      expect(mail.text).toContain("Version: 1, published");
      expect(mail.html).toContain("Review the agreement");
      expect(JSON.stringify(offer)).not.toContain(token);
      const check = await checkLinkToken(acme, "agreement", token);
      expect(check.status === "valid" && check.link.subjectId).toBe(offer.id);
      expect(check.status === "valid" && check.link.contactId).toBe(contacts["olivia@coastal.example"]);
      const audit = await handle.db
        .selectFrom("audit_events")
        .select("details")
        .where("action", "=", "agreement.offered")
        .where("business_id", "=", acme)
        .execute();
      expect(audit.some((row) => JSON.stringify(row.details).includes(offer.reference))).toBe(true);
    });

    it("renders the email branded like the host, with markup in a title escaped", async () => {
      const document = await createAgreementDocument(acme, {
        kind: "direct-debit",
        title: `<img src=x onerror=alert(1)> DDR ${randomUUID().slice(0, 4)}`,
        body: TEXT,
      });
      const since = catcher.messages.length;
      const { offer } = await createAgreementOffer(acme, {
        document: document.id,
        account: "ACME-2000",
        contact: "olivia@coastal.example",
      });
      const mail = await catcher.waitForMail("olivia@coastal.example", { after: since });
      const html = mail.html!;
      expect(mail.from).toContain('"Acme Plumbing Supplies"');
      expect(html).toMatch(/<html[^>]*lang="en"/);
      expect(html).toContain('role="presentation"');
      expect(html).toContain('src="http://acme.localhost:3000/brands/acme/email-logo.png"');
      expect(html).not.toContain("<img src=x");
      expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
      expect(html).not.toMatch(/<script/i);
      for (const part of [mail.text, html]) {
        expect(part).toContain(offer.reference);
        expect(part).toContain("Hillside Renovations (ACME-2000)");
        expect(part).toContain("accounts@acme.example");
      }
      expect(mail.text).toContain("direct-debit request");
    });

    it("offers to a contact of a parent account where child accounts are shown (the accounts rule)", async () => {
      const { offer } = await offered({ account: "ACME-1001" });
      expect(offer.account.number).toBe("ACME-1001");
    });

    it.each([
      ["a contact of another account", { contact: "sam@coastal.example", account: "ACME-1000" }, "contact"],
      ["another business's contact", { contact: "aroha@orchards.example" }, "contact"],
      ["an unknown contact", { contact: "nobody@example.com" }, "contact"],
      ["another business's account", { account: "KF-500" }, "account"],
      ["an unknown document", { document: randomUUID() }, "document"],
      ["a document id that is not one", { document: "' OR 1=1 --" }, "document"],
      ["an expiry of 91 days", { expiresInDays: 91 }, "expiresInDays"],
      ["an unknown field", { token: "x" }, "token"],
    ])("refuses %s: nothing made, nothing sent", async (_label, overrides, field) => {
      const document = await createAgreementDocument(acme, { kind: "other", title: "Refused", body: TEXT });
      const [offers, links, mails] = [
        await count("agreement_offers"),
        await count("link_tokens"),
        catcher.messages.length,
      ];
      const problem = await problemOf(() =>
        createAgreementOffer(acme, {
          document: document.id,
          account: "ACME-1000",
          contact: "olivia@coastal.example",
          ...overrides,
        }),
      );
      expect(problem.code).toBe("validation");
      expect(problem.fields).toHaveProperty(field);
      expect([await count("agreement_offers"), await count("link_tokens"), catcher.messages.length]).toEqual([
        offers,
        links,
        mails,
      ]);
    });

    it("refuses another business's document and a disabled contact", async () => {
      const kiwiDoc = await createAgreementDocument(kiwi, { kind: "other", title: "Kiwi terms", body: TEXT });
      const problem = await problemOf(() =>
        createAgreementOffer(acme, { document: kiwiDoc.id, account: "ACME-1000", contact: "olivia@coastal.example" }),
      );
      expect(problem.fields).toHaveProperty("document");
      const disabled = await handle.db
        .insertInto("contacts")
        .values({
          business_id: acme,
          email: `gone-${randomUUID().slice(0, 8)}@coastal.example`,
          first_name: "Gone",
          last_name: "Away",
          position: "",
          verified_at: new Date(),
          permissions: [],
          password_hash: null,
          external_subject: null,
          disabled_at: new Date(),
        })
        .returning(["id", "email"])
        .executeTakeFirstOrThrow();
      const account = await handle.db
        .selectFrom("accounts")
        .select("id")
        .where("number", "=", "ACME-1000")
        .executeTakeFirstOrThrow();
      await handle.db
        .insertInto("account_contacts")
        .values({ business_id: acme, account_id: account.id, contact_id: disabled.id, role: "contact" })
        .execute();
      const own = await createAgreementDocument(acme, { kind: "other", title: "For the disabled", body: TEXT });
      const refused = await problemOf(() =>
        createAgreementOffer(acme, { document: own.id, account: "ACME-1000", contact: disabled.email }),
      );
      expect(refused.fields!.contact).toMatch(/can no longer be reached/);
    });

    it("refuses a second offer of the same document to the same contact while the first is waiting", async () => {
      const { document, offer } = await offered();
      const problem = await problemOf(() =>
        createAgreementOffer(acme, { document: document.id, account: "ACME-1000", contact: "olivia@coastal.example" }),
      );
      expect(problem.code).toBe("conflict");
      expect(problem.message).toContain(offer.reference);
      // Once it is withdrawn, a new offer may be made.
      await withdrawAgreementOffer(acme, offer.reference);
      const again = await createAgreementOffer(acme, {
        document: document.id,
        account: "ACME-1000",
        contact: "olivia@coastal.example",
      });
      expect(again.offer.state).toBe("offered");
    });

    it("two offers of the same document to the same contact at once: one is made, the other refused", async () => {
      const document = await createAgreementDocument(acme, {
        kind: "other",
        title: `Race ${randomUUID()}`,
        body: TEXT,
      });
      const input = { document: document.id, account: "ACME-1000", contact: "olivia@coastal.example" };
      const before = await count("agreement_offers");
      const settle = (p: Promise<unknown>) =>
        p.then(
          () => "made",
          (error: unknown) => (error instanceof RequestProblem ? error.code : error),
        );
      let outcomes: unknown[];
      if (handle.kind === "pglite") {
        // One connection: the two run one after the other.
        outcomes = await Promise.all([
          settle(createAgreementOffer(acme, input)),
          settle(createAgreementOffer(acme, input)),
        ]);
      } else {
        // The second starts while the first is inside its transaction, past its check: without
        // a lock, it too finds nothing waiting and makes a second offer.
        let second: Promise<unknown> | undefined;
        const first = settle(
          createAgreementOffer(acme, input, {
            beforeCommit: async () => {
              second = settle(createAgreementOffer(acme, input));
              await blockedOrSettled(second);
            },
          }),
        );
        outcomes = [await first, await second];
      }
      expect(outcomes.sort()).toEqual(["conflict", "made"]);
      expect(await count("agreement_offers")).toBe(before + 1);
    });

    it("refuses a forged cursor whose time is no real instant as a bad cursor, before the database", async () => {
      const id = randomUUID();
      for (const at of ["2026-02-30T00:00:00.000000Z", "2026-01-01T24:00:00.000000Z", "0000-01-01T00:00:00.000000Z"]) {
        const cursor = Buffer.from(`${at}|${id}`).toString("base64url");
        const offers = await problemOf(() => listAgreementOffers(acme, { account: "ACME-1000", cursor }));
        expect([offers.code, Object.keys(offers.fields ?? {})]).toEqual(["validation", ["cursor"]]);
        const documents = await problemOf(() => listAgreementDocuments(acme, { cursor }));
        expect([documents.code, Object.keys(documents.fields ?? {})]).toEqual(["validation", ["cursor"]]);
      }
    });

    it("resends with a new link: the old one is replaced; a decided or expired offer is not sent again", async () => {
      const { offer, token } = await offered();
      const since = catcher.messages.length;
      const resent = await resendAgreementOffer(acme, offer.reference.toLowerCase());
      expect(resent.offer.sendCount).toBe(2);
      const mail = await catcher.waitForMail("olivia@coastal.example", { after: since });
      const newToken = tokenIn(mail.links)!;
      expect(newToken).not.toBe(token);
      expect((await checkLinkToken(acme, "agreement", token)).status).toBe("revoked");
      expect((await checkLinkToken(acme, "agreement", newToken)).status).toBe("valid");

      const page = (await loadAgreementOffer(acme, { id: offer.id }))!;
      expect((await decide(offer.id, { versionId: page.version.id })).ok).toBe(true);
      expect((await problemOf(() => resendAgreementOffer(acme, offer.id))).code).toBe("conflict");

      const late = await offered({ expiresInDays: 1 });
      setClockForTesting(fixedClock(new Date(Date.now() + 2 * 86_400_000)));
      expect((await getAgreementOffer(acme, late.offer.id))!.state).toBe("expired");
      expect((await problemOf(() => resendAgreementOffer(acme, late.offer.id))).message).toMatch(/expired/);
      expect((await problemOf(() => resendAgreementOffer(kiwi, late.offer.id))).code).toBe("not-found");
    });

    it("withdraws: every link stops working, again changes nothing, a decided offer cannot be", async () => {
      const { offer, token } = await offered();
      const withdrawn = await withdrawAgreementOffer(acme, offer.id);
      expect(withdrawn.state).toBe("withdrawn");
      expect(withdrawn.withdrawnAt).not.toBeNull();
      expect((await checkLinkToken(acme, "agreement", token)).status).toBe("revoked");
      expect((await withdrawAgreementOffer(acme, offer.id)).withdrawnAt).toBe(withdrawn.withdrawnAt);
      expect((await problemOf(() => withdrawAgreementOffer(kiwi, offer.id))).code).toBe("not-found");
      const decided = await offered();
      const page = (await loadAgreementOffer(acme, { id: decided.offer.id }))!;
      await decide(decided.offer.id, { versionId: page.version.id, decision: "declined", agreed: false });
      expect((await problemOf(() => withdrawAgreementOffer(acme, decided.offer.id))).code).toBe("conflict");
    });

    it("lists an account's or a contact's offers by state, a page at a time; another business sees none", async () => {
      const a = await offered();
      const b = await offered();
      await withdrawAgreementOffer(acme, b.offer.id);
      const all = await listAgreementOffers(acme, { account: "ACME-1000", limit: 100 });
      expect(all.items.map((o) => o.id)).toEqual(expect.arrayContaining([a.offer.id, b.offer.id]));
      const withdrawn = await listAgreementOffers(acme, { account: "ACME-1000", state: "withdrawn", limit: 100 });
      expect(withdrawn.items.every((o) => o.state === "withdrawn")).toBe(true);
      expect(withdrawn.items.map((o) => o.id)).toContain(b.offer.id);
      const waiting = await listAgreementOffers(acme, {
        contact: "olivia@coastal.example",
        state: "offered",
        limit: 100,
      });
      expect(waiting.items.map((o) => o.id)).toContain(a.offer.id);
      expect(waiting.items.map((o) => o.id)).not.toContain(b.offer.id);
      const first = await listAgreementOffers(acme, { account: "ACME-1000", limit: 1 });
      const second = await listAgreementOffers(acme, { account: "ACME-1000", limit: 1, cursor: first.nextCursor });
      expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
      expect((await problemOf(() => listAgreementOffers(acme, {}))).fields).toHaveProperty("account");
      expect((await problemOf(() => listAgreementOffers(acme, { account: "KF-500" }))).fields).toHaveProperty(
        "account",
      );
      expect(
        (await problemOf(() => listAgreementOffers(acme, { account: "ACME-1000", state: "opened" }))).fields,
      ).toHaveProperty("state");
      expect(await getAgreementOffer(kiwi, a.offer.reference)).toBeNull();
      expect(await getAgreementOffer(acme, "AG-<script>")).toBeNull();
    });
  });

  describe("deciding", () => {
    it("records an acceptance once: who, the account, the version, the name, the hash, the address, the browser, the time", async () => {
      const { offer } = await offered();
      const page = (await loadAgreementOffer(acme, { reference: offer.reference }))!;
      const at = new Date("2026-12-03T23:15:02.123Z");
      setClockForTesting(fixedClock(at));
      const result = await decide(offer.id, {
        versionId: page.version.id.toUpperCase(),
        typedName: "  Olivia\u0301 Nguyen  ",
        userAgent: `Mozilla/5.0\u0000${"x".repeat(600)}`,
      });
      expect(result).toEqual({ ok: true, decision: "accepted", decidedAt: at });
      const row = await handle.db
        .selectFrom("agreement_decisions")
        .selectAll()
        .where("offer_id", "=", offer.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        business_id: acme,
        account_id: offer.account.id,
        contact_id: contacts["olivia@coastal.example"],
        version_id: page.version.id,
        decision: "accepted",
        typed_name: "Oliviá Nguyen",
        body_sha256: sha256(TEXT),
        ip_address: "198.51.100.7",
      });
      expect(row.user_agent).toHaveLength(500);
      expect(row.user_agent.startsWith("Mozilla/5.0 x")).toBe(true);
      expect(new Date(row.decided_at).toISOString()).toBe(at.toISOString());
      const view = (await getAgreementOffer(acme, offer.id))!;
      expect(view.state).toBe("accepted");
      expect(view.decision).toMatchObject({
        version: { version: 1 },
        bodySha256: sha256(TEXT),
        typedName: "Oliviá Nguyen",
      });
      const audit = await handle.db
        .selectFrom("audit_events")
        .select(["details", "client_ip"])
        .where("action", "=", "agreement.accepted")
        .where("business_id", "=", acme)
        .execute();
      expect(audit.some((a) => JSON.stringify(a.details).includes(offer.id) && a.client_ip === "198.51.100.7")).toBe(
        true,
      );
      // The record never changes.
      await expect(
        handle.db
          .updateTable("agreement_decisions")
          .set({ typed_name: "Someone else" })
          .where("offer_id", "=", offer.id)
          .execute(),
      ).rejects.toThrow(/never changed or deleted/);
      await expect(
        handle.db.deleteFrom("agreement_decisions").where("offer_id", "=", offer.id).execute(),
      ).rejects.toThrow(/never changed or deleted/);
    });

    it("refuses a second accept and a decline after an accept: one decision per offer", async () => {
      const { offer } = await offered();
      const { version } = (await loadAgreementOffer(acme, { id: offer.id }))!;
      expect((await decide(offer.id, { versionId: version.id })).ok).toBe(true);
      const before = await count("agreement_decisions");
      expect(await decide(offer.id, { versionId: version.id })).toEqual({ ok: false, problem: "decided" });
      expect(await decide(offer.id, { versionId: version.id, decision: "declined" })).toEqual({
        ok: false,
        problem: "decided",
      });
      expect(await count("agreement_decisions")).toBe(before);
    });

    it("declines with a typed name and no checkbox; accepting afterwards is refused", async () => {
      const { offer } = await offered();
      const { version } = (await loadAgreementOffer(acme, { id: offer.id }))!;
      const declined = await decide(offer.id, { versionId: version.id, decision: "declined", agreed: false });
      expect(declined.ok && declined.decision).toBe("declined");
      expect((await getAgreementOffer(acme, offer.id))!.state).toBe("declined");
      expect(await decide(offer.id, { versionId: version.id })).toEqual({ ok: false, problem: "decided" });
      const audit = await handle.db
        .selectFrom("audit_events")
        .select("details")
        .where("action", "=", "agreement.declined")
        .execute();
      expect(audit.some((a) => JSON.stringify(a.details).includes(offer.id))).toBe(true);
    });

    it.each([
      ["no checkbox", { agreed: false }, { agreed: "agreement.error.agreed.required" }],
      ["an empty name", { typedName: "   " }, { typedName: "agreement.error.name.required" }],
      ["no name at all", { typedName: undefined }, { typedName: "agreement.error.name.required" }],
      ["a name of 201 characters", { typedName: "n".repeat(201) }, { typedName: "agreement.error.name.tooLong" }],
      ["a 500-character name", { typedName: "n".repeat(500) }, { typedName: "agreement.error.name.tooLong" }],
      [
        "a name with a control character",
        { typedName: "Olivia\u0000" },
        { typedName: "agreement.error.name.characters" },
      ],
      ["a name on two lines", { typedName: "Olivia\nNguyen" }, { typedName: "agreement.error.name.characters" }],
      [
        "a name with a bidirectional override",
        { typedName: "\u202eaivilO" },
        { typedName: "agreement.error.name.characters" },
      ],
      ["a name that is not text", { typedName: ["Olivia"] }, { typedName: "agreement.error.name.required" }],
    ])("refuses an acceptance with %s and writes nothing", async (_label, overrides, errors) => {
      const { offer } = await offered();
      const { version } = (await loadAgreementOffer(acme, { id: offer.id }))!;
      const before = await count("agreement_decisions");
      expect(await decide(offer.id, { versionId: version.id, ...overrides })).toEqual({
        ok: false,
        problem: "fields",
        errors,
      });
      expect(await count("agreement_decisions")).toBe(before);
      expect((await getAgreementOffer(acme, offer.id))!.state).toBe("offered");
    });

    it("takes a name of exactly 200 characters, and markup in a name as text", async () => {
      const { offer } = await offered();
      const { version } = (await loadAgreementOffer(acme, { id: offer.id }))!;
      expect((await decide(offer.id, { versionId: version.id, typedName: "<b>Olivia</b>" })).ok).toBe(true);
      const other = await offered();
      const v = (await loadAgreementOffer(acme, { id: other.offer.id }))!.version;
      expect((await decide(other.offer.id, { versionId: v.id, typedName: "ñ".repeat(200) })).ok).toBe(true);
    });

    it("refuses the version a page showed once a newer one is published, and shows the new one; an old acceptance stays as it was", async () => {
      const { document, offer } = await offered();
      const shown = (await loadAgreementOffer(acme, { id: offer.id }))!.version;
      const published = await publishAgreementVersion(acme, document.id, { body: `${TEXT}\n## Fees\n\nNone.\n` });
      const before = await count("agreement_decisions");
      expect(await decide(offer.id, { versionId: shown.id })).toEqual({ ok: false, problem: "changed" });
      expect(await count("agreement_decisions")).toBe(before);
      const now = (await loadAgreementOffer(acme, { id: offer.id }))!.version;
      expect(now).toMatchObject({ version: 2, id: published.latestVersion.id });
      expect((await decide(offer.id, { versionId: now.id })).ok).toBe(true);
      expect((await getAgreementOffer(acme, offer.id))!.decision!.version.version).toBe(2);

      // Someone else's acceptance of version 1 of another document keeps version 1 when version 2 appears.
      const earlier = await offered();
      const v1 = (await loadAgreementOffer(acme, { id: earlier.offer.id }))!.version;
      await decide(earlier.offer.id, { versionId: v1.id });
      await publishAgreementVersion(acme, earlier.document.id, { body: "# New terms\n\nEverything changed.\n" });
      const kept = (await loadAgreementOffer(acme, { id: earlier.offer.id }))!;
      expect(kept.version).toMatchObject({ version: 1, body: TEXT, bodySha256: sha256(TEXT) });
      expect(kept.decision!.bodySha256).toBe(sha256(TEXT));
    });

    it.each([
      ["no version", () => null],
      ["a malformed version id", () => "1 OR 1=1"],
      ["an unknown version id", () => randomUUID()],
    ])("refuses a page that named %s (tampered) and writes nothing", async (_label, versionId) => {
      const { offer } = await offered();
      expect(await decide(offer.id, { versionId: versionId() })).toEqual({ ok: false, problem: "stale" });
      expect((await getAgreementOffer(acme, offer.id))!.state).toBe("offered");
    });

    it("refuses another document's version (even its latest) as stale", async () => {
      const { offer } = await offered();
      const other = await offered();
      const otherVersion = (await loadAgreementOffer(acme, { id: other.offer.id }))!.version;
      expect(await decide(offer.id, { versionId: otherVersion.id })).toEqual({ ok: false, problem: "stale" });
    });

    it("refuses a withdrawn or expired offer", async () => {
      const { offer } = await offered();
      const { version } = (await loadAgreementOffer(acme, { id: offer.id }))!;
      await withdrawAgreementOffer(acme, offer.id);
      expect(await decide(offer.id, { versionId: version.id })).toEqual({ ok: false, problem: "withdrawn" });
      const late = await offered({ expiresInDays: 1 });
      const lateVersion = (await loadAgreementOffer(acme, { id: late.offer.id }))!.version;
      setClockForTesting(fixedClock(new Date(Date.now() + 86_400_000 + 1_000)));
      expect(await decide(late.offer.id, { versionId: lateVersion.id })).toEqual({ ok: false, problem: "expired" });
      expect(await decide(randomUUID(), { versionId: lateVersion.id })).toEqual({ ok: false, problem: "stale" });
    });

    it("refuses a link revoked (resent) or expired after the page checked it, under the offer's lock", async () => {
      const { offer, token } = await offered();
      const check = await checkLinkToken(acme, "agreement", token);
      const oldLink = check.status === "valid" ? check.link.id : "";
      const { version } = (await loadAgreementOffer(acme, { id: offer.id }))!;
      await resendAgreementOffer(acme, offer.id);
      const before = await count("agreement_decisions");
      expect(await decide(offer.id, { versionId: version.id, linkTokenId: oldLink })).toEqual({
        ok: false,
        problem: "replaced",
      });
      // Another offer's live link is no key to this one either.
      const other = await offered();
      const otherCheck = await checkLinkToken(acme, "agreement", other.token);
      const otherLink = otherCheck.status === "valid" ? otherCheck.link.id : "";
      expect(await decide(offer.id, { versionId: version.id, linkTokenId: otherLink })).toEqual({
        ok: false,
        problem: "replaced",
      });
      expect(await count("agreement_decisions")).toBe(before);
      expect((await getAgreementOffer(acme, offer.id))!.state).toBe("offered");
      // The live link decides.
      const live = await handle.db
        .selectFrom("link_tokens")
        .select("id")
        .where("subject_id", "=", offer.id)
        .where("revoked_at", "is", null)
        .executeTakeFirstOrThrow();
      expect((await decide(offer.id, { versionId: version.id, linkTokenId: live.id })).ok).toBe(true);
    });

    it("a version published while a decision is taken: the decision waits, is refused as changed, writes nothing", async () => {
      const { document, offer } = await offered();
      const shown = (await loadAgreementOffer(acme, { id: offer.id }))!.version;
      const before = await count("agreement_decisions");
      if (handle.kind === "pglite") {
        // One connection: whichever goes first, a decision names the version latest when it committed.
        const [, result] = await Promise.all([
          publishAgreementVersion(acme, document.id, { body: `${TEXT}\nMore.\n` }),
          decide(offer.id, { versionId: shown.id }),
        ]);
        const after = (await getAgreementOffer(acme, offer.id))!;
        if (result.ok) expect(after.decision!.version.version).toBe(1);
        else expect([result.problem, await count("agreement_decisions")]).toEqual(["changed", before]);
        return;
      }
      // PostgreSQL: the decision starts while the new version is written and not yet committed.
      let deciding: Promise<Awaited<ReturnType<typeof decide>>> | undefined;
      await publishAgreementVersion(
        acme,
        document.id,
        { body: `${TEXT}\nMore.\n` },
        {
          beforeCommit: async () => {
            deciding = decide(offer.id, { versionId: shown.id });
            await blockedOrSettled(deciding);
          },
        },
      );
      expect(await deciding).toEqual({ ok: false, problem: "changed" });
      expect(await count("agreement_decisions")).toBe(before);
      expect((await getAgreementOffer(acme, offer.id))!.state).toBe("offered");
    });

    it("two submissions at once record one decision", async () => {
      const { offer } = await offered();
      const { version } = (await loadAgreementOffer(acme, { id: offer.id }))!;
      const results = await Promise.all([
        decide(offer.id, { versionId: version.id }),
        decide(offer.id, { versionId: version.id, decision: "declined", agreed: false }),
        decide(offer.id, { versionId: version.id }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.problem === "decided")).toBe(true);
      const rows = await handle.db
        .selectFrom("agreement_decisions")
        .select("id")
        .where("offer_id", "=", offer.id)
        .execute();
      expect(rows).toHaveLength(1);
    });
  });

  describe("the signed-in lists", () => {
    it("list an account's offers, or a contact's on the accounts they may still see, newest first", async () => {
      const mine = await offered({ account: "ACME-1001" });
      const account = await handle.db
        .selectFrom("accounts")
        .select("id")
        .where("number", "=", "ACME-1001")
        .executeTakeFirstOrThrow();
      const byAccount = await listOffersFor(acme, { accountId: account.id });
      expect(byAccount.items[0]).toMatchObject({ reference: mine.offer.reference, state: "offered", version: null });
      const byContact = await listOffersFor(acme, { contactId: contacts["olivia@coastal.example"]! }, { limit: 100 });
      expect(byContact.items.map((i) => i.reference)).toEqual(
        expect.arrayContaining([mine.offer.reference, DEMO_ACCEPTED_AGREEMENT_REFERENCE]),
      );
      // Sam sees nothing of Olivia's, though he is a contact of ACME-1001.
      expect((await listOffersFor(acme, { contactId: contacts["sam@coastal.example"]! })).items).toEqual([]);
      const paged = await listOffersFor(acme, { contactId: contacts["olivia@coastal.example"]! }, { limit: 1 });
      expect(paged.nextAfter).not.toBeNull();
      const next = await listOffersFor(
        acme,
        { contactId: contacts["olivia@coastal.example"]! },
        { limit: 1, after: paged.nextAfter },
      );
      expect(next.items[0]!.reference).not.toBe(paged.items[0]!.reference);
    });
  });
}

describe("on PGlite", () => {
  agreementSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  agreementSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
