import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEMO_ANSWERED_RESPONSE_TOKEN,
  DEMO_RESPONSE_REFERENCES,
  DEMO_RESPONSE_TOKENS,
} from "../../../db/seed/responses";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { checkLinkToken } from "../links/link-tokens.server";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import { logger } from "../platform/logger.server";
import { RequestProblem } from "../platform/problems.server";
import {
  answerResponseRequest,
  createResponseRequest,
  getResponseRequest,
  listResponseRequests,
  loadResponseRequest,
  resendResponseRequest,
  withdrawResponseRequest,
  type AnswerInput,
} from "./responses.server";

/**
 * Response requests on a real database (issue 17; decision 040): a business asks a contact one
 * question of a kind, by email; the contact answers once — who, when, from where, never changed;
 * resend replaces the link, withdraw ends it; another business sees nothing. Every refusal writes
 * nothing.
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

const LINK_PATH = "/response/";
const tokenIn = (links: string[]) => links.find((l) => l.includes(LINK_PATH))?.split(LINK_PATH)[1] ?? null;
const ADDRESS = { line1: "12 Wharf St", locality: "Sydney", state: "NSW", postcode: "2000", country: "AU" };

async function problemOf(run: () => Promise<unknown>): Promise<RequestProblem> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RequestProblem) return error;
    throw error;
  }
  throw new Error("expected a RequestProblem");
}

function responseSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
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

  const count = async (table: "response_requests" | "response_answers" | "link_tokens") =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** An address request to a contact of its own account (no other test asks the same thing), with the emailed token. */
  async function asked(body: Record<string, unknown> = {}, to = "olivia@coastal.example") {
    const since = catcher.messages.length;
    const result = await createResponseRequest(acme, {
      kind: "statement",
      account: "ACME-1000",
      contact: to,
      statement: { periodEnd: randomDay(), closingBalanceCents: 123_45 },
      ...body,
    });
    const mail = await catcher.waitForMail(to, { after: since, subject: new RegExp(result.request.reference) });
    return { ...result, mail, token: tokenIn(mail.links)! };
  }

  /** A past day no other statement request of these tests uses (a statement date is asked once). */
  let dayOffset = 100;
  const randomDay = () => new Date(Date.now() - (dayOffset++ + 10) * 86_400_000).toISOString().slice(0, 10);

  async function answer(requestId: string, token: string, overrides: Partial<AnswerInput> = {}) {
    const check = await checkLinkToken(acme, "response", token);
    if (check.status === "unknown") throw new Error("the token does not check out");
    return answerResponseRequest({
      businessId: acme,
      requestId,
      contactId: check.link.contactId,
      linkTokenId: check.link.id,
      choice: "acknowledged",
      details: {},
      typedName: "Olivia Nguyen",
      clientAddress: "198.51.100.7",
      userAgent: "Mozilla/5.0 (test)",
      ...overrides,
    });
  }

  describe("the demo data", () => {
    it("holds one open request of each kind and an answered one, each with the README's fixed link", async () => {
      for (const kind of ["delivery-address", "statement", "dispute"] as const) {
        const request = (await getResponseRequest(acme, DEMO_RESPONSE_REFERENCES[kind]))!;
        expect(request).toMatchObject({ kind, state: "open", account: { number: "ACME-1000" }, answer: null });
        const check = await checkLinkToken(acme, "response", DEMO_RESPONSE_TOKENS[kind]);
        expect(check.status === "valid" && check.link.subjectId).toBe(request.id);
        expect((await checkLinkToken(kiwi, "response", DEMO_RESPONSE_TOKENS[kind])).status).toBe("unknown");
        expect((await checkLinkToken(acme, "agreement", DEMO_RESPONSE_TOKENS[kind])).status).toBe("unknown");
      }
      const dispute = (await getResponseRequest(acme, DEMO_RESPONSE_REFERENCES.dispute))!;
      expect(dispute.dispute).toMatchObject({
        invoice: { number: "ACME-1000-INV-017", disputeReason: "Goods arrived damaged" },
        resolution: { type: "credit" },
      });
      const answered = (await getResponseRequest(acme, DEMO_RESPONSE_REFERENCES.answered))!;
      expect(answered).toMatchObject({
        kind: "statement",
        state: "answered",
        answer: { choice: "acknowledged", typedName: "Olivia Nguyen", clientAddress: "203.0.113.10" },
      });
      expect((await checkLinkToken(acme, "response", DEMO_ANSWERED_RESPONSE_TOKEN)).status).toBe("valid");
    });
  });

  describe("asking", () => {
    it("asks for a delivery address: emails a branded message with the question, the button and a link of its own", async () => {
      const since = catcher.messages.length;
      // Watched, not replaced: the log line says which kind of mail left.
      const logged = vi.spyOn(logger, "info");
      const { request, delivery } = await createResponseRequest(acme, {
        kind: "delivery-address",
        account: "ACME-2000",
        contact: "olivia@coastal.example",
        address: { line1: "3 Ridge Rd", locality: "Katoomba", state: "nsw", postcode: "2780", country: "au" },
        message: "Our trucks now leave from Penrith.",
        expiresInDays: 7,
      });
      const sentAs = logged.mock.calls.filter(([message]) => message === "mail sent").map(([, fields]) => fields);
      logged.mockRestore();
      expect(delivery).toEqual({ email: "olivia@coastal.example", sent: true });
      // Its own transactional kind (decision 039): always sent, never one of the contact's choices.
      expect(sentAs).toEqual([expect.objectContaining({ to: "olivia@coastal.example", category: "responses" })]);
      expect(request).toMatchObject({
        kind: "delivery-address",
        state: "open",
        sendCount: 1,
        message: "Our trucks now leave from Penrith.",
        account: { number: "ACME-2000", name: "Hillside Renovations" },
        address: {
          line1: "3 Ridge Rd",
          line2: "",
          locality: "Katoomba",
          state: "NSW",
          postcode: "2780",
          country: "AU",
        },
        answer: null,
      });
      expect(request.reference).toMatch(/^RR-[0-9A-Z]{8}$/);
      const days = (new Date(request.expiresAt).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);
      const mail = await catcher.waitForMail("olivia@coastal.example", { after: since });
      const token = tokenIn(mail.links)!;
      expect(mail.subject).toBe(
        `Please confirm your delivery address with Acme Plumbing Supplies (${request.reference})`,
      );
      expect(mail.from).toContain('"Acme Plumbing Supplies"');
      // Transactional: the preferences link in the footer, no List-Unsubscribe.
      expect(mail.headers["list-unsubscribe"]).toBeUndefined();
      expect(mail.text).toContain("Choose which emails you get from Acme Plumbing Supplies");
      for (const part of [mail.text, mail.html!]) {
        expect(part).toContain("3 Ridge Rd, KATOOMBA NSW 2780, Australia");
        expect(part).toContain("Hillside Renovations (ACME-2000)");
        expect(part).toContain("Our trucks now leave from Penrith.");
        expect(part).toContain(request.reference);
        expect(part).toContain("accounts@acme.example");
        expect(part).toContain(`${LINK_PATH}${token}`);
      }
      // The question and the button come before the facts (a phone's first screen).
      const html = mail.html!;
      expect(html.indexOf("Confirm or correct the address")).toBeLessThan(html.indexOf("Delivery address</p>"));
      expect(html).toMatch(/<html[^>]*lang="en"/);
      expect(JSON.stringify(request)).not.toContain(token);
      const check = await checkLinkToken(acme, "response", token);
      expect(check.status === "valid" && check.link.subjectId).toBe(request.id);
      expect(check.status === "valid" && check.link.contactId).toBe(contacts["olivia@coastal.example"]);
    });

    it("asks to acknowledge a statement and to answer a dispute with a credit or a written position", async () => {
      const statement = await asked({
        statement: { periodStart: "2026-01-01", periodEnd: "2026-01-31", closingBalanceCents: -25_00 },
      });
      expect(statement.request.statement).toEqual({
        periodStart: "2026-01-01",
        periodEnd: "2026-01-31",
        closingBalanceCents: -2500,
      });
      expect(statement.mail.text).toContain("Closing balance: $25.00 in credit");
      expect(statement.mail.text).toContain("Period: Jan 1, 2026 to Jan 31, 2026");

      const invoice = await handle.db
        .selectFrom("invoices")
        .select(["id", "number", "amount_cents"])
        .where("number", "=", "ACME-2000-INV-017")
        .executeTakeFirstOrThrow();
      const since = catcher.messages.length;
      const credit = await createResponseRequest(acme, {
        kind: "dispute",
        account: "ACME-2000",
        contact: "olivia@coastal.example",
        dispute: {
          invoice: invoice.id,
          resolution: { type: "credit", amountCents: 1_000, note: "For the late delivery." },
        },
      });
      expect(credit.request.dispute).toMatchObject({
        invoiceId: invoice.id,
        invoice: { number: "ACME-2000-INV-017", amountCents: Number(invoice.amount_cents) },
        resolution: { type: "credit", amountCents: 1000, note: "For the late delivery." },
      });
      const mail = await catcher.waitForMail("olivia@coastal.example", { after: since });
      expect(mail.subject).toContain("Your dispute of invoice ACME-2000-INV-017");
      expect(mail.text).toContain("Acme Plumbing Supplies proposes a credit of $10.00 on invoice ACME-2000-INV-017");
      expect(mail.text).toContain("For the late delivery.");
      // One open dispute request per invoice: a second proposal waits for the first to be withdrawn.
      const again = await problemOf(() =>
        createResponseRequest(acme, {
          kind: "dispute",
          account: "ACME-2000",
          contact: "olivia@coastal.example",
          dispute: { invoice: "ACME-2000-INV-017", resolution: { type: "position", text: "No credit is due." } },
        }),
      );
      expect(again.code).toBe("conflict");
      expect(again.message).toContain(credit.request.reference);
      await withdrawResponseRequest(acme, credit.request.id);
      const position = await createResponseRequest(acme, {
        kind: "dispute",
        account: "ACME-2000",
        contact: "olivia@coastal.example",
        dispute: {
          invoice: "ACME-2000-INV-017",
          resolution: { type: "position", text: "The goods were delivered as ordered.\n\nSee the signed docket." },
        },
      });
      expect(position.request.dispute!.resolution).toEqual({
        type: "position",
        text: "The goods were delivered as ordered.\n\nSee the signed docket.",
      });
    });

    it("keeps HTML, SQL and other scripts' letters as text, in the record and the email", async () => {
      const message = `<script>alert("x")</script> '; DROP TABLE response_requests; -- Ünïcødé 🧾 مرحبا`;
      const since = catcher.messages.length;
      const { request } = await createResponseRequest(acme, {
        kind: "delivery-address",
        account: "ACME-1000",
        contact: "new@coastal.example",
        address: { ...ADDRESS, line1: `<b>Unit 4</b> 'O''Brien' St`, locality: "Zürich Ünïcødé" },
        message,
      });
      expect(request.message).toBe(message);
      expect(request.address!.line1).toBe(`<b>Unit 4</b> 'O''Brien' St`);
      const mail = await catcher.waitForMail("new@coastal.example", { after: since });
      expect(mail.html).not.toContain("<script>alert");
      expect(mail.html).toContain("&lt;script&gt;");
      expect(mail.html).toContain("&lt;b&gt;Unit 4&lt;/b&gt;");
      expect(mail.text).toContain(message);
      expect(await count("response_requests")).toBeGreaterThan(0);
      await withdrawResponseRequest(acme, request.id);
    });

    it("takes a New Zealand address without a state (a state given for one is dropped)", async () => {
      const { request } = await createResponseRequest(kiwi, {
        kind: "delivery-address",
        account: "KF-500",
        contact: "aroha@orchards.example",
        address: {
          line1: "14 Orchard Rd",
          line2: "Mapua",
          locality: "Nelson",
          state: "NSW",
          postcode: "7005",
          country: "NZ",
        },
      });
      expect(request.address).toEqual({
        line1: "14 Orchard Rd",
        line2: "Mapua",
        locality: "Nelson",
        state: "",
        postcode: "7005",
        country: "NZ",
      });
    });

    it("refuses every bad field with a message at that field, and makes nothing", async () => {
      const requests = await count("response_requests");
      const links = await count("link_tokens");
      const cases: [unknown, string, RegExp][] = [
        [{}, "kind", /Use one of delivery-address, statement, dispute/],
        [{ kind: "survey", account: "ACME-1000", contact: "olivia@coastal.example" }, "kind", /Use one of/],
        [
          { kind: "delivery-address", account: "ACME-1000", contact: "olivia@coastal.example" },
          "address",
          /Required|Give/,
        ],
        [
          {
            kind: "delivery-address",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            address: { ...ADDRESS, postcode: "3000" },
          },
          "address.postcode",
          /not in the state/,
        ],
        [
          {
            kind: "delivery-address",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            address: { ...ADDRESS, state: "XX" },
          },
          "address.state",
          /from the list/,
        ],
        [
          {
            kind: "delivery-address",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            address: { ...ADDRESS, country: "US" },
          },
          "address.country",
          /Australia or New Zealand/,
        ],
        [
          {
            kind: "delivery-address",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            address: { ...ADDRESS, line1: "x".repeat(101) },
          },
          "address.line1",
          /at most 100 characters/,
        ],
        [
          {
            kind: "delivery-address",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            address: { ...ADDRESS, line1: "Wharf \u202eSt" },
          },
          "address.line1",
          /text-direction/,
        ],
        [
          {
            kind: "delivery-address",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            address: ADDRESS,
            message: "m".repeat(1001),
          },
          "message",
          /at most 1000 characters/,
        ],
        [
          {
            kind: "delivery-address",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            address: ADDRESS,
            extra: 1,
          },
          "extra",
          /not part of the call/,
        ],
        [
          {
            kind: "statement",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            statement: { periodEnd: "2026-02-30", closingBalanceCents: 1 },
          },
          "statement.periodEnd",
          /real date/,
        ],
        [
          {
            kind: "statement",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            statement: { periodStart: "2026-03-01", periodEnd: "2026-02-28", closingBalanceCents: 1 },
          },
          "statement.periodStart",
          /on or before/,
        ],
        [
          {
            kind: "statement",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            statement: { periodEnd: "2999-01-31", closingBalanceCents: 1 },
          },
          "statement.periodEnd",
          /today or earlier/,
        ],
        [
          {
            kind: "statement",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            statement: { periodEnd: "2026-01-31", closingBalanceCents: 1.5 },
          },
          "statement.closingBalanceCents",
          /whole number/,
        ],
        [
          {
            kind: "dispute",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            dispute: { invoice: "ACME-2000-INV-017", resolution: { type: "credit", amountCents: 100 } },
          },
          "dispute.invoice",
          /No invoice "ACME-2000-INV-017" on account ACME-1000/,
        ],
        [
          {
            kind: "dispute",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            dispute: { invoice: "KF-500-INV-017", resolution: { type: "credit", amountCents: 100 } },
          },
          "dispute.invoice",
          /No invoice "KF-500-INV-017" on account ACME-1000/,
        ],
        [
          {
            kind: "dispute",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            dispute: { invoice: "ACME-1000-INV-016", resolution: { type: "credit", amountCents: 99_999_999 } },
          },
          "dispute.resolution.amountCents",
          /at most the invoice's amount/,
        ],
        [
          {
            kind: "dispute",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            dispute: { invoice: "ACME-1000-INV-016", resolution: { type: "position", text: "   " } },
          },
          "dispute.resolution.text",
          /Fill this in/,
        ],
        [
          {
            kind: "dispute",
            account: "ACME-1000",
            contact: "olivia@coastal.example",
            dispute: { invoice: "ACME-1000-INV-016", resolution: { type: "refund" } },
          },
          "dispute.resolution.type",
          /credit .* or position/,
        ],
        [
          { kind: "delivery-address", account: "KF-500", contact: "olivia@coastal.example", address: ADDRESS },
          "account",
          /No account "KF-500" at this business/,
        ],
        [
          { kind: "delivery-address", account: "ACME-1000", contact: "aroha@orchards.example", address: ADDRESS },
          "contact",
          /No contact "aroha@orchards.example" at this business/,
        ],
        [
          { kind: "delivery-address", account: "ACME-2000", contact: "sam@coastal.example", address: ADDRESS },
          "contact",
          /may not act for account ACME-2000/,
        ],
      ];
      for (const [input, field, message] of cases) {
        const problem = await problemOf(() => createResponseRequest(acme, input));
        expect(problem.code, JSON.stringify(input)).toBe("validation");
        expect(problem.fields?.[field], `${field} of ${JSON.stringify(input).slice(0, 120)}`).toMatch(message);
      }
      expect(await count("response_requests")).toBe(requests);
      expect(await count("link_tokens")).toBe(links);
    });

    it("refuses a disabled contact", async () => {
      const contact = await handle.db
        .insertInto("contacts")
        .values({
          business_id: acme,
          email: `gone-${randomUUID().slice(0, 6)}@coastal.example`,
          first_name: "Gone",
          last_name: "Away",
          position: "Former",
          verified_at: new Date(),
          permissions: [],
          password_hash: null,
          external_subject: null,
          disabled_at: new Date(),
        })
        .returning(["id", "email"])
        .executeTakeFirstOrThrow();
      await handle.db
        .insertInto("account_contacts")
        .values({
          business_id: acme,
          account_id: (await accountId("ACME-1000"))!,
          contact_id: contact.id,
          role: "contact",
        })
        .execute();
      const problem = await problemOf(() =>
        createResponseRequest(acme, {
          kind: "delivery-address",
          account: "ACME-1000",
          contact: contact.id,
          address: ADDRESS,
        }),
      );
      expect(problem.fields?.contact).toMatch(/can no longer be reached/);
    });

    it("refuses a second open request asking the same, and two asked at once make one", async () => {
      const periodEnd = randomDay();
      const body = {
        kind: "statement",
        account: "ACME-1000",
        contact: "olivia@coastal.example",
        statement: { periodEnd, closingBalanceCents: 5 },
      };
      const results = await Promise.allSettled([createResponseRequest(acme, body), createResponseRequest(acme, body)]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect((refused.reason as RequestProblem).code).toBe("conflict");
      const made = await handle.db
        .selectFrom("response_requests")
        .select("id")
        .where(sql<boolean>`details->'statement'->>'periodEnd' = ${periodEnd}`)
        .execute();
      expect(made).toHaveLength(1);
      // Another statement date, or another contact, is another question.
      await expect(
        createResponseRequest(acme, { ...body, statement: { periodEnd: randomDay(), closingBalanceCents: 5 } }),
      ).resolves.toBeTruthy();
    });
  });

  const accountId = async (number: string) =>
    (await handle.db.selectFrom("accounts").select("id").where("number", "=", number).executeTakeFirst())?.id;

  describe("resend and withdraw", () => {
    it("resends with a new link: the old one is replaced; an answered, withdrawn or expired request is not sent again", async () => {
      const { request, token } = await asked();
      const since = catcher.messages.length;
      const resent = await resendResponseRequest(acme, request.reference);
      expect(resent.delivery.sent).toBe(true);
      expect(resent.request.sendCount).toBe(2);
      const mail = await catcher.waitForMail("olivia@coastal.example", { after: since });
      const newer = tokenIn(mail.links)!;
      expect(newer).not.toBe(token);
      expect((await checkLinkToken(acme, "response", token)).status).toBe("revoked");
      expect((await checkLinkToken(acme, "response", newer)).status).toBe("valid");
      // The old link answers nothing.
      expect(await answer(request.id, token)).toEqual({ ok: false, problem: "closed" });
      expect(await answer(request.id, newer)).toMatchObject({ ok: true });
      expect((await problemOf(() => resendResponseRequest(acme, request.id))).message).toMatch(/answered/);

      const expiring = await asked({ expiresInDays: 1 });
      setClockForTesting(fixedClock(new Date(Date.now() + 2 * 86_400_000)));
      expect((await problemOf(() => resendResponseRequest(acme, expiring.request.id))).message).toMatch(/expired/);
      expect(await answer(expiring.request.id, expiring.token)).toEqual({ ok: false, problem: "closed" });
      setClockForTesting(undefined);
      expect((await problemOf(() => resendResponseRequest(acme, randomUUID()))).code).toBe("not-found");
    });

    it("withdraws: every link stops working, again changes nothing, an answered request cannot be", async () => {
      const { request, token } = await asked();
      const withdrawn = await withdrawResponseRequest(acme, request.reference);
      expect(withdrawn).toMatchObject({ state: "withdrawn", answer: null });
      expect(withdrawn.withdrawnAt).not.toBeNull();
      expect((await checkLinkToken(acme, "response", token)).status).toBe("revoked");
      expect(await answer(request.id, token)).toEqual({ ok: false, problem: "closed" });
      const again = await withdrawResponseRequest(acme, request.id);
      expect(again.withdrawnAt).toBe(withdrawn.withdrawnAt);
      expect((await problemOf(() => resendResponseRequest(acme, request.id))).code).toBe("conflict");

      const answered = await asked();
      await answer(answered.request.id, answered.token);
      const refused = await problemOf(() => withdrawResponseRequest(acme, answered.request.id));
      expect(refused.code).toBe("conflict");
      expect(refused.message).toMatch(/never undone/);
    });
  });

  describe("answering", () => {
    it("records an answer once: who, the link, the choice, the name, the address, the browser, the time; the business is told", async () => {
      const { request, token } = await asked();
      const at = new Date("2026-03-02T01:02:03.456Z");
      setClockForTesting(fixedClock(at));
      const since = catcher.messages.length;
      const result = await answer(request.id, token, {
        choice: "disputed",
        details: { note: "The payment of 3 March is missing.\nPlease check." },
        typedName: "Olivia <b>Nguyen</b>",
        userAgent: "Mozilla/5.0\u0007 (test)",
      });
      expect(result).toEqual({ ok: true, answeredAt: at });
      setClockForTesting(undefined);
      const view = (await getResponseRequest(acme, request.id))!;
      expect(view).toMatchObject({
        state: "answered",
        answeredAt: at.toISOString(),
        answer: {
          choice: "disputed",
          note: "The payment of 3 March is missing.\nPlease check.",
          typedName: "Olivia <b>Nguyen</b>",
          contact: { id: contacts["olivia@coastal.example"], email: "olivia@coastal.example" },
          clientAddress: "198.51.100.7",
          userAgent: "Mozilla/5.0  (test)",
          answeredAt: at.toISOString(),
        },
      });
      const check = await checkLinkToken(acme, "response", token);
      const row = await handle.db
        .selectFrom("response_answers")
        .select(["link_token_id", "account_id"])
        .where("request_id", "=", request.id)
        .executeTakeFirstOrThrow();
      expect(row.link_token_id).toBe(check.status === "valid" ? check.link.id : "");
      // The business hears of it at its support address (acme has no notification address).
      const told = await catcher.waitForMail("accounts@acme.example", {
        after: since,
        subject: new RegExp(`${request.reference} answered`),
      });
      expect(told.subject).toBe(
        `${request.reference} answered: Coastal Builders Group (ACME-1000) said something is wrong with the statement`,
      );
      expect(told.text).toContain("The payment of 3 March is missing.");
      expect(told.text).toContain("Name typed: Olivia <b>Nguyen</b>");
      expect(told.text).toContain("From address: 198.51.100.7");
      expect(told.html).toContain("Olivia &lt;b&gt;Nguyen&lt;/b&gt;");
      expect(told.links.some((l) => l.includes(LINK_PATH))).toBe(false);

      // A second answer, of any choice, is refused and changes nothing.
      expect(await answer(request.id, token, { choice: "acknowledged" })).toEqual({ ok: false, problem: "answered" });
      expect((await getResponseRequest(acme, request.id))!.answer!.choice).toBe("disputed");
    });

    it("tells the business at its notification address when it has one", async () => {
      await handle.db
        .updateTable("businesses")
        .set({ notification_email: "ar@acme.example" })
        .where("id", "=", acme)
        .execute();
      try {
        const { request, token } = await asked();
        const since = catcher.messages.length;
        await answer(request.id, token);
        const told = await catcher.waitForMail("ar@acme.example", { after: since });
        expect(told.subject).toContain(`${request.reference} answered`);
      } finally {
        await handle.db.updateTable("businesses").set({ notification_email: null }).where("id", "=", acme).execute();
      }
    });

    it("two submissions at once record one answer", async () => {
      const { request, token } = await asked();
      const results = await Promise.all([
        answer(request.id, token),
        answer(request.id, token, { choice: "disputed", details: { note: "Wrong." } }),
        answer(request.id, token),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.problem === "answered")).toBe(true);
      const rows = await handle.db
        .selectFrom("response_answers")
        .select("id")
        .where("request_id", "=", request.id)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it("never changes an answer or what was asked: the database refuses", async () => {
      const { request, token } = await asked();
      await answer(request.id, token);
      await expect(
        handle.db
          .updateTable("response_answers")
          .set({ typed_name: "Someone else" })
          .where("request_id", "=", request.id)
          .execute(),
      ).rejects.toThrow(/never changed or deleted/);
      await expect(
        handle.db.deleteFrom("response_answers").where("request_id", "=", request.id).execute(),
      ).rejects.toThrow(/never changed or deleted/);
      await expect(
        handle.db
          .updateTable("response_requests")
          .set({ details: JSON.stringify({ statement: { periodEnd: "2020-01-01", closingBalanceCents: 0 } }) })
          .where("id", "=", request.id)
          .execute(),
      ).rejects.toThrow(/never changes/);
      await expect(
        handle.db
          .updateTable("response_requests")
          .set({ status: "open", answered_at: null })
          .where("id", "=", request.id)
          .execute(),
      ).rejects.toThrow(/answered or withdrawn once/);
      const page = (await loadResponseRequest(acme, request.id))!;
      expect(page.answer).toMatchObject({ choice: "acknowledged", typedName: "Olivia Nguyen" });
    });
  });

  describe("reading and listing", () => {
    it("finds a request by id or reference, only in its own business", async () => {
      const { request } = await asked();
      expect((await getResponseRequest(acme, request.reference.toLowerCase()))!.id).toBe(request.id);
      expect(await getResponseRequest(kiwi, request.id)).toBeNull();
      expect(await getResponseRequest(kiwi, request.reference)).toBeNull();
      expect(await loadResponseRequest(kiwi, request.id)).toBeNull();
      for (const bad of ["", "RR-", "'; DROP TABLE x;--", randomUUID(), 42]) {
        expect(await getResponseRequest(acme, bad)).toBeNull();
      }
      expect((await problemOf(() => withdrawResponseRequest(kiwi, request.id))).code).toBe("not-found");
      expect((await problemOf(() => resendResponseRequest(kiwi, request.reference))).code).toBe("not-found");
    });

    it("lists by state, kind, account and contact, a page at a time; another business sees none of acme's", async () => {
      const first = await asked();
      const second = await asked();
      await withdrawResponseRequest(acme, second.request.id);
      const open = await listResponseRequests(acme, {
        status: "open",
        kind: "statement",
        account: "ACME-1000",
        limit: 100,
      });
      expect(open.items.map((i) => i.id)).toContain(first.request.id);
      expect(open.items.map((i) => i.id)).not.toContain(second.request.id);
      expect(open.items.every((i) => i.state === "open" && i.kind === "statement")).toBe(true);
      const withdrawn = await listResponseRequests(acme, { status: "withdrawn", contact: "olivia@coastal.example" });
      expect(withdrawn.items.map((i) => i.id)).toContain(second.request.id);
      const answered = await listResponseRequests(acme, { status: "answered" });
      expect(answered.items.some((i) => i.reference === DEMO_RESPONSE_REFERENCES.answered)).toBe(true);
      const paged = await listResponseRequests(acme, { limit: 1 });
      expect(paged.items).toHaveLength(1);
      const next = await listResponseRequests(acme, { limit: 1, cursor: paged.nextCursor });
      expect(next.items[0]!.id).not.toBe(paged.items[0]!.id);
      const kiwiList = await listResponseRequests(kiwi, { limit: 100 });
      expect(kiwiList.items.every((i) => i.account.number.startsWith("KF-"))).toBe(true);
      for (const [query, field] of [
        [{ status: "pending" }, "status"],
        [{ kind: "survey" }, "kind"],
        [{ limit: 0 }, "limit"],
        [{ cursor: "bm90IGEgY3Vyc29y" }, "cursor"],
        [{ account: "KF-500" }, "account"],
        [{ contact: "aroha@orchards.example" }, "contact"],
      ] as const) {
        expect((await problemOf(() => listResponseRequests(acme, query))).fields?.[field], field).toBeTruthy();
      }
    });
  });
}

describe("on PGlite", () => {
  responseSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  responseSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
