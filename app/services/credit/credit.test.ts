import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_CREDIT_APPLICATION_REFERENCE, DEMO_TRADE_REFERENCE_TOKEN } from "../../../db/seed/credit";
import {
  createCreditApplication,
  newStorageKey,
  refereeForm,
  SAMPLE_PDF,
  storeCreditDocument,
} from "../../../tests/support/credit-fixtures";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import { attachmentDisposition } from "../platform/http.server";
import type { DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import { setRateLimitClockForTesting } from "../platform/rate-limit.server";
import { RequestProblem } from "../platform/problems.server";
import {
  decideCreditApplication,
  downloadFileName,
  getCreditApplication,
  listCreditApplications,
  listTradeReferences,
  readCreditDocument,
  resendTradeReference,
} from "./credit-backoffice.server";
import { creditDocumentReader } from "./document-read.server";
import {
  answerTradeReference,
  checkRefereeLink,
  countRefereeCheck,
  forgiveRefereeCheck,
  readRefereeAnswer,
  recordRefereeOpened,
} from "./trade-references.server";

/**
 * Trade references and the back office's credit applications on a real database (issue 17;
 * decision 041): a referee's link checks out only for its own business, opens without being spent
 * and takes one answer — also when answers race; the business lists, reads, decides once
 * (emailing the applicant), resends a referee's link (the old one stops working) and reads
 * documents through the storage port. Every refusal writes nothing.
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
afterEach(() => {
  setClockForTesting(undefined);
  setRateLimitClockForTesting(null);
});

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const LINK_PATH = "/credit-trade-reference/";

async function problemOf(run: () => Promise<unknown>): Promise<RequestProblem> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RequestProblem) return error;
    throw error;
  }
  throw new Error("expected a RequestProblem");
}

/** A valid answer, as the page's form reads it. */
function answerOf(fields: Record<string, string> = {}) {
  const reading = readRefereeAnswer(refereeForm(fields));
  if (!reading.ok) throw new Error(`the form should be valid: ${JSON.stringify(reading.errors)}`);
  return reading;
}

function creditSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme: string;
  let kiwi: string;

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const business = async (host: string) =>
      (await handle.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow())
        .business_id;
    acme = await business("acme.localhost");
    kiwi = await business("kiwi.localhost");
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  async function answerWith(businessId: string, token: string, fields: Record<string, string> = {}) {
    const check = await checkRefereeLink(businessId, token);
    if (check.status !== "valid") throw new Error(`link is ${check.status}`);
    const reading = answerOf(fields);
    return answerTradeReference({
      businessId,
      referenceId: check.link.id,
      selector: check.link.selector,
      answer: reading.answer,
      name: reading.name,
      clientAddress: "192.0.2.44",
      userAgent: "Mozilla/5.0 (test)",
    });
  }

  const referenceRow = (id: string) =>
    handle.db.selectFrom("credit_trade_references").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  describe("the demo data", () => {
    it("holds acme's application with an answered referee and a fixed link for the other", async () => {
      const check = await checkRefereeLink(acme, DEMO_TRADE_REFERENCE_TOKEN);
      expect(check.status).toBe("valid");
      const application = await getCreditApplication(acme, DEMO_CREDIT_APPLICATION_REFERENCE);
      expect(application).toMatchObject({
        reference: DEMO_CREDIT_APPLICATION_REFERENCE,
        status: "submitted",
        legalName: "Harbourside Fit-outs Pty Ltd",
        referenceCount: { total: 2, answered: 1 },
      });
      expect(application!.terms.version).not.toBeNull();
      expect(await checkRefereeLink(kiwi, DEMO_TRADE_REFERENCE_TOKEN)).toEqual({ status: "unknown" });
    });
  });

  describe("a referee's link", () => {
    it("checks out only whole, untampered and on its own business's host", async () => {
      const app = await createCreditApplication(handle.db, acme);
      const token = app.referees[0]!.token;
      const check = await checkRefereeLink(acme, token);
      expect(check).toMatchObject({
        status: "valid",
        link: { position: 1, application: { reference: app.reference, legalName: app.legalName, status: "submitted" } },
      });
      const last = token.at(-1) === "A" ? "B" : "A";
      for (const bad of [
        `${token.slice(0, -1)}${last}`,
        token.slice(0, -1),
        `${token}x`,
        token.toUpperCase(),
        "",
        null,
        42,
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "é".repeat(59),
        app.referees[1]!.token.slice(0, 16) + token.slice(16),
      ]) {
        expect(await checkRefereeLink(acme, bad)).toEqual({ status: "unknown" });
      }
      // Another business's host: the same "unknown" as a guess.
      expect(await checkRefereeLink(kiwi, token)).toEqual({ status: "unknown" });
    });

    it("reads expired after its time, answered once answered, closed once the application is decided", async () => {
      const app = await createCreditApplication(handle.db, acme, {
        referees: [
          {
            refereeBusiness: "Old Supplies",
            contactName: "Ola",
            email: "ola@old.example",
            linkExpiresAt: new Date(Date.now() - 1000),
          },
          { refereeBusiness: "New Supplies", contactName: "Nia", email: "nia@new.example" },
        ],
      });
      expect((await checkRefereeLink(acme, app.referees[0]!.token)).status).toBe("expired");
      expect((await answerWith(acme, app.referees[1]!.token)).ok).toBe(true);
      expect((await checkRefereeLink(acme, app.referees[1]!.token)).status).toBe("answered");
      await decideCreditApplication(acme, app.id, "declined", { reason: "Trading history too short." });
      expect((await checkRefereeLink(acme, app.referees[0]!.token)).status).toBe("closed");
      // An answer given stays what its link says, whatever happened since.
      expect((await checkRefereeLink(acme, app.referees[1]!.token)).status).toBe("answered");
    });

    it("counts openings of a waiting link, never of an answered one, and opening spends nothing", async () => {
      const app = await createCreditApplication(handle.db, acme);
      const referee = app.referees[0]!;
      await recordRefereeOpened(acme, referee.id);
      await recordRefereeOpened(acme, referee.id);
      const opened = await referenceRow(referee.id);
      expect(opened.open_count).toBe(2);
      expect(opened.first_opened_at).not.toBeNull();
      expect(opened.answered_at).toBeNull();
      expect((await checkRefereeLink(acme, referee.token)).status).toBe("valid");
      // Another business cannot count on this row.
      await recordRefereeOpened(kiwi, referee.id);
      expect((await referenceRow(referee.id)).open_count).toBe(2);
      await answerWith(acme, referee.token);
      await recordRefereeOpened(acme, referee.id);
      expect((await referenceRow(referee.id)).open_count).toBe(2);
    });

    it("limits misses per address: 30 in 15 minutes, a real link given back", async () => {
      const clock = { at: Date.parse("2026-12-01T00:00:00Z") };
      setRateLimitClockForTesting(() => clock.at);
      const address = `198.51.100.${Math.floor(Math.random() * 200)}`;
      // A referee opening their own link again and again is never locked out.
      for (let i = 0; i < 40; i++) {
        expect(await countRefereeCheck(acme, address)).toBe(true);
        await forgiveRefereeCheck(acme, address);
      }
      for (let i = 0; i < 30; i++) expect(await countRefereeCheck(acme, address)).toBe(true);
      expect(await countRefereeCheck(acme, address)).toBe(false);
      // Another address, and another business, are not affected.
      expect(await countRefereeCheck(acme, `${address}1`)).toBe(true);
      expect(await countRefereeCheck(kiwi, address)).toBe(true);
      clock.at += 15 * 60_000 + 1;
      expect(await countRefereeCheck(acme, address)).toBe(true);
    });
  });

  describe("the referee's answer", () => {
    it("reads a complete form into the stored shape, money in cents, markup kept as text", () => {
      const reading = readRefereeAnswer(
        refereeForm({
          comments: "<b>Good</b> payer & 'friend'; DROP TABLE x; --",
          terms: "other",
          termsOther: "60 days",
        }),
      );
      expect(reading).toMatchObject({
        ok: true,
        name: "Grace Liu",
        answer: {
          version: 1,
          tradingLength: "1-to-3-years",
          terms: "other",
          termsOther: "60 days",
          creditLimitCents: 1_500_000,
          highestBalanceCents: 1_240_050,
          paymentBehaviour: "usually-on-time",
          dishonours: false,
          dishonourDetails: null,
          recommend: true,
          comments: "<b>Good</b> payer & 'friend'; DROP TABLE x; --",
          position: "Credit manager",
        },
      });
    });

    it("names every missing or wrong field, and gives the form back as typed", () => {
      const empty = readRefereeAnswer({});
      expect(empty.ok).toBe(false);
      expect(empty.ok ? null : empty.errors).toEqual({
        tradingLength: "tradeReference.error.tradingLength",
        terms: "tradeReference.error.terms",
        creditLimit: "tradeReference.error.creditLimit.required",
        paymentBehaviour: "tradeReference.error.paymentBehaviour",
        dishonours: "tradeReference.error.dishonours",
        recommend: "tradeReference.error.recommend",
        name: "tradeReference.error.name.required",
        position: "tradeReference.error.position.required",
      });
      const wrong = readRefereeAnswer(
        refereeForm({
          tradingLength: "forever",
          terms: "other",
          termsOther: " ",
          creditLimit: "-5",
          highestBalance: "12.345",
          dishonours: "yes",
          dishonourDetails: "",
          name: "x".repeat(201),
          position: "Boss\u202e",
          comments: "y".repeat(2_001),
        }),
      );
      expect(wrong.ok ? null : wrong.errors).toEqual({
        tradingLength: "tradeReference.error.tradingLength",
        termsOther: "tradeReference.error.termsOther.required",
        creditLimit: "tradeReference.error.money.negative",
        highestBalance: "tradeReference.error.money.decimals",
        dishonourDetails: "tradeReference.error.dishonourDetails.required",
        name: "tradeReference.error.tooLong",
        position: "tradeReference.error.characters",
        comments: "tradeReference.error.tooLong",
      });
      expect(wrong.values.creditLimit).toBe("-5");
      expect(wrong.values.comments).toHaveLength(2_001);
      const control = readRefereeAnswer(refereeForm({ comments: "line\u0000two", creditLimit: "1e3" }));
      expect(control.ok ? null : control.errors).toEqual({
        comments: "tradeReference.error.characters",
        creditLimit: "tradeReference.error.money.format",
      });
      // What is shown back leaves the control character out.
      expect(control.values.comments).toBe("linetwo");
      // A follow-up that was not asked is neither checked nor kept.
      const unasked = readRefereeAnswer(refereeForm({ termsOther: "\u0007", dishonourDetails: "z".repeat(5_000) }));
      expect(unasked.ok && unasked.answer.termsOther === null && unasked.answer.dishonourDetails === null).toBe(true);
    });

    it("is written once: a second answer changes nothing, and the database refuses a change", async () => {
      const app = await createCreditApplication(handle.db, acme);
      const referee = app.referees[0]!;
      const check = await checkRefereeLink(acme, referee.token);
      if (check.status !== "valid") throw new Error("expected a valid link");
      const first = await answerWith(acme, referee.token);
      expect(first.ok).toBe(true);
      const stored = await referenceRow(referee.id);
      expect(stored).toMatchObject({
        answered_by_name: "Grace Liu",
        answer_ip: "192.0.2.44",
        answer_user_agent: "Mozilla/5.0 (test)",
      });
      expect(stored.answer).toMatchObject({ creditLimitCents: 1_500_000, recommend: true });
      // The page checked the link before the first answer landed: the second finds it answered.
      const second = answerOf({ recommend: "no" });
      expect(
        await answerTradeReference({
          businessId: acme,
          referenceId: referee.id,
          selector: check.link.selector,
          answer: second.answer,
          name: "Someone Else",
          clientAddress: "192.0.2.45",
          userAgent: null,
        }),
      ).toEqual({ ok: false, problem: "answered" });
      expect(await referenceRow(referee.id)).toEqual(stored);
      await expect(
        sql`UPDATE credit_trade_references SET answered_by_name = 'Mallory' WHERE id = ${referee.id}`.execute(
          handle.db,
        ),
      ).rejects.toThrow(/answered once/);
      // Another business's id answers nothing.
      expect(
        await answerTradeReference({
          businessId: kiwi,
          referenceId: app.referees[1]!.id,
          selector: check.link.selector,
          answer: second.answer,
          name: "Kiwi",
          clientAddress: "192.0.2.46",
          userAgent: null,
        }),
      ).toEqual({ ok: false, problem: "unknown" });
      expect((await referenceRow(app.referees[1]!.id)).answered_at).toBeNull();
    });

    it("takes exactly one of several answers sent at once", async () => {
      const app = await createCreditApplication(handle.db, acme);
      const referee = app.referees[0]!;
      const check = await checkRefereeLink(acme, referee.token);
      if (check.status !== "valid") throw new Error("expected a valid link");
      const results = await Promise.all(
        ["one", "two", "three", "four", "five"].map((name) => {
          const reading = answerOf({ name });
          return answerTradeReference({
            businessId: acme,
            referenceId: referee.id,
            selector: check.link.selector,
            answer: reading.answer,
            name: reading.name,
            clientAddress: "192.0.2.44",
            userAgent: null,
          });
        }),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.problem === "answered")).toBe(true);
      const stored = await referenceRow(referee.id);
      const winner = ["one", "two", "three", "four", "five"][results.findIndex((r) => r.ok)];
      expect(stored.answered_by_name).toBe(winner);
    });

    it("refuses an answer once the link expired, was replaced, or the application was decided", async () => {
      const clock = fixedClock(new Date());
      setClockForTesting(clock);
      const app = await createCreditApplication(handle.db, acme, { refereeCount: 3 });
      const checks = await Promise.all(app.referees.map((r) => checkRefereeLink(acme, r.token)));
      const answer = (index: number) => {
        const check = checks[index]!;
        if (check.status !== "valid") throw new Error("expected a valid link");
        const reading = answerOf();
        return answerTradeReference({
          businessId: acme,
          referenceId: check.link.id,
          selector: check.link.selector,
          answer: reading.answer,
          name: reading.name,
          clientAddress: "192.0.2.44",
          userAgent: null,
        });
      };
      await resendTradeReference(acme, app.id, "1");
      expect(await answer(0)).toEqual({ ok: false, problem: "replaced" });
      clock.advanceDays(31);
      expect(await answer(1)).toEqual({ ok: false, problem: "expired" });
      clock.advanceDays(-31);
      await decideCreditApplication(acme, app.id, "accepted", { approvedLimitCents: 100_000 });
      expect(await answer(2)).toEqual({ ok: false, problem: "closed" });
      const rows = await handle.db
        .selectFrom("credit_trade_references")
        .select("answered_at")
        .where("application_id", "=", app.id)
        .execute();
      expect(rows.every((row) => row.answered_at === null)).toBe(true);
    });
  });

  describe("the back office", () => {
    it("lists submitted applications newest first, by status, a page at a time, never drafts or another business's", async () => {
      const base = Date.parse("2031-01-01T00:00:00Z");
      const made = [];
      for (let i = 0; i < 3; i++) {
        made.push(await createCreditApplication(handle.db, acme, { submittedAt: new Date(base + i * 60_000) }));
      }
      await handle.db
        .insertInto("credit_applications")
        .values({
          business_id: acme,
          country: "AU",
          draft_key_hash: sha256(`draft-${Math.random()}`),
          expires_at: new Date(base + 86_400_000),
        })
        .execute();
      const kiwiApp = await createCreditApplication(handle.db, kiwi, { submittedAt: new Date(base + 10 * 60_000) });
      const first = await listCreditApplications(acme, { limit: 2 });
      expect(first.items.map((i) => i.reference)).toEqual([made[2]!.reference, made[1]!.reference]);
      expect(first.items[0]).toMatchObject({
        status: "submitted",
        currency: "AUD",
        referenceCount: { total: 2, answered: 0 },
        documentCount: 0,
        decision: null,
      });
      const second = await listCreditApplications(acme, { limit: 2, cursor: first.nextCursor });
      expect(second.items[0]!.reference).toBe(made[0]!.reference);
      const all = await listCreditApplications(acme, { limit: 100 });
      expect(all.items.every((i) => i.status !== ("draft" as string))).toBe(true);
      expect(all.items.some((i) => i.reference === kiwiApp.reference)).toBe(false);
      await decideCreditApplication(acme, made[1]!.id, "accepted", { approvedLimitCents: 250_000 });
      const accepted = await listCreditApplications(acme, { status: "accepted", limit: 100 });
      expect(accepted.items.map((i) => i.reference)).toContain(made[1]!.reference);
      expect(accepted.items.every((i) => i.status === "accepted")).toBe(true);
      for (const query of [
        { status: "draft" },
        { status: "pending" },
        { limit: 0 },
        { limit: 101 },
        { cursor: "nope" },
      ]) {
        expect((await problemOf(() => listCreditApplications(acme, query))).code).toBe("validation");
      }
    });

    it("reads one application by id or reference with everything it holds; anything else is not found", async () => {
      const app = await createCreditApplication(handle.db, acme, {
        documents: [{ fileName: "Statements 2025.pdf" }],
        answers: { business: { legalName: "Kept <as> typed", abn: "51 824 753 556" } },
      });
      const byId = await getCreditApplication(acme, app.id);
      const byReference = await getCreditApplication(acme, app.reference.toLowerCase());
      expect(byReference).toEqual(byId);
      expect(byId).toMatchObject({
        id: app.id,
        reference: app.reference,
        answers: { business: { legalName: "Kept <as> typed", abn: "51 824 753 556" } },
        terms: { nameTyped: "Jordan Applicant", clientAddress: "192.0.2.10" },
        documents: [
          {
            id: app.documents[0]!.id,
            fileName: "Statements 2025.pdf",
            contentType: "application/pdf",
            byteSize: SAMPLE_PDF.byteLength,
            size: `${SAMPLE_PDF.byteLength} B`,
            sha256: sha256(SAMPLE_PDF),
            href: `/api/back-office/credit-applications/${app.id}/documents/${app.documents[0]!.id}`,
          },
        ],
        references: [
          { position: 1, state: "waiting", answer: null, openCount: 0 },
          { position: 2, state: "waiting", answer: null },
        ],
      });
      expect(byId!.terms.sha256).toMatch(/^[0-9a-f]{64}$/);
      const draft = await handle.db
        .insertInto("credit_applications")
        .values({
          business_id: acme,
          country: "AU",
          draft_key_hash: sha256(`d-${Math.random()}`),
          expires_at: new Date(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const wrong of [draft.id, "CA-NOPE0000", "not-an-id", "", null, 7, `${app.id}x`]) {
        expect(await getCreditApplication(acme, wrong)).toBeNull();
      }
      expect(await getCreditApplication(kiwi, app.id)).toBeNull();
      expect(await getCreditApplication(kiwi, app.reference)).toBeNull();
    });

    it("reads a document's bytes through the storage port, checked; another business's is not found", async () => {
      const app = await createCreditApplication(handle.db, acme, { documents: [{ fileName: "../../etc/passwd.exe" }] });
      const documentId = app.documents[0]!.id;
      const file = await readCreditDocument(acme, app.reference, documentId, creditDocumentReader());
      expect(file).toMatchObject({ contentType: "application/pdf", fileName: "etc_passwd.exe.pdf" });
      expect(Buffer.from(file!.bytes).equals(Buffer.from(SAMPLE_PDF))).toBe(true);
      expect(await readCreditDocument(kiwi, app.id, documentId, creditDocumentReader())).toBeNull();
      expect(await readCreditDocument(acme, app.id, "nope", creditDocumentReader())).toBeNull();
      const other = await createCreditApplication(handle.db, acme);
      expect(await readCreditDocument(acme, other.id, documentId, creditDocumentReader())).toBeNull();
      // Bytes changed in storage are our fault, not the caller's: refused, never served.
      await storeCreditDocument(app.documents[0]!.storageKey, new TextEncoder().encode("%PDF-1.4 tampered"));
      await expect(readCreditDocument(acme, app.id, documentId, creditDocumentReader())).rejects.toThrow(/changed/);
      expect(await creditDocumentReader().read(newStorageKey(acme))).toBeNull();
    });

    it("makes safe download names, in any script, sent as ASCII and as UTF-8 (RFC 6266)", () => {
      const saved = (name: string, type: "application/pdf" | "image/png" | "image/jpeg" = "application/pdf") => {
        const fileName = downloadFileName(name, type);
        return { fileName, header: attachmentDisposition(fileName) };
      };
      expect(saved("Financials 2025.PDF")).toEqual({
        fileName: "Financials 2025.PDF",
        header: 'attachment; filename="Financials 2025.PDF"',
      });
      expect(saved("licence.jpeg", "image/jpeg").fileName).toBe("licence.jpeg");
      expect(saved("...", "image/jpeg").fileName).toBe("document.jpg");
      expect(downloadFileName("x".repeat(300), "application/pdf")).toHaveLength(104);
      // Accents are kept in the name; the ASCII one drops them.
      expect(saved("ÉTATS financiers")).toEqual({
        fileName: "ÉTATS financiers.pdf",
        header: `attachment; filename="ETATS financiers.pdf"; filename*=UTF-8''%C3%89TATS%20financiers.pdf`,
      });
      // Cyrillic: the name as typed, and "document.pdf" for clients that read only ASCII (not "pdf.pdf").
      expect(saved("Отчёт.pdf")).toEqual({
        fileName: "Отчёт.pdf",
        header: `attachment; filename="document.pdf"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82.pdf`,
      });
      expect(saved("Баланс за 2025 год.pdf").header).toBe(
        `attachment; filename="2025.pdf"; filename*=UTF-8''${encodeURIComponent("Баланс за 2025 год.pdf")}`,
      );
      // Emoji, whole (never half a surrogate pair, even where the name is cut).
      expect(saved("🧾 Receipt (May) 🧾.png", "image/png")).toEqual({
        fileName: "🧾 Receipt (May) 🧾.png",
        header: `attachment; filename="Receipt _May.png"; filename*=UTF-8''%F0%9F%A7%BE%20Receipt%20%28May%29%20%F0%9F%A7%BE.png`,
      });
      expect(saved("📄.pdf").header).toBe(`attachment; filename="document.pdf"; filename*=UTF-8''%F0%9F%93%84.pdf`);
      const cut = downloadFileName(`${"a".repeat(99)}🧾🧾`, "application/pdf");
      expect(cut).toBe(`${"a".repeat(99)}🧾.pdf`);
      expect(downloadFileName("a\ud83e.pdf", "application/pdf")).toBe("a.pdf");
      // Quotes, CR and LF, path separators and direction controls never reach the header or the disk.
      for (const [name, fileName, ascii] of [
        ['a"b\r\nc;<d>.png', "a_b_c;_d_.png", "a_b_c_d.png"],
        ['Q3 "final"\r\n.exe', "Q3 _final_.exe.png", "Q3 _final_.exe.png"],
        ["Счёт\r\nSet-Cookie: x=1.png", "Счёт_Set-Cookie_ x=1.png", "Set-Cookie_ x_1.png"],
        ["../../etc/passwd.png", "etc_passwd.png", "etc_passwd.png"],
        ["invoice\u202egnp.exe", "invoice_gnp.exe.png", "invoice_gnp.exe.png"],
      ] as const) {
        const { fileName: made, header } = saved(name, "image/png");
        expect(made, name).toBe(fileName);
        expect(header.startsWith(`attachment; filename="${ascii}"`), header).toBe(true);
        expect(header, name).toMatch(/^[\x20-\x7e]+$/);
        expect(header.match(/"/g), name).toHaveLength(2);
      }
    });

    it("accepts once with a limit and emails the applicant; a second decision is a conflict and changes nothing", async () => {
      const app = await createCreditApplication(handle.db, acme, { requestedLimitCents: 2_000_000 });
      const since = catcher.messages.length;
      const result = await decideCreditApplication(
        acme,
        app.reference,
        "accepted",
        { approvedLimitCents: 1_500_000, note: "Welcome aboard <b>friend</b>.\nTerms: EOM + 30." },
        { decidedBy: "api-key:test" },
      );
      expect(result.delivery).toEqual({ email: app.applicantEmail, sent: true });
      expect(result.application).toMatchObject({
        status: "accepted",
        decision: {
          decision: "accepted",
          approvedLimitCents: 1_500_000,
          note: "Welcome aboard <b>friend</b>.\nTerms: EOM + 30.",
          reason: null,
          decidedBy: "api-key:test",
        },
      });
      const mail = await catcher.waitForMail(app.applicantEmail, { after: since });
      expect(mail.subject).toContain(`Trade account approved: ${app.legalName} (${app.reference})`);
      expect(mail.text).toContain("Approved credit limit: $15,000.00");
      expect(mail.text).toContain("Limit you asked for: $20,000.00");
      expect(mail.text).toContain("Welcome aboard <b>friend</b>.");
      expect(mail.html).toContain("Welcome aboard &lt;b&gt;friend&lt;/b&gt;.");
      expect(mail.html).not.toContain("<b>friend</b>");
      const before = await handle.db
        .selectFrom("credit_applications")
        .selectAll()
        .where("id", "=", app.id)
        .executeTakeFirstOrThrow();
      for (const [decision, input] of [
        ["declined", { reason: "Changed our mind" }],
        ["accepted", { approvedLimitCents: 1_500_000 }],
      ] as const) {
        const problem = await problemOf(() => decideCreditApplication(acme, app.id, decision, input));
        expect(problem.code).toBe("conflict");
        expect(problem.message).toMatch(/already accepted/);
      }
      expect(
        await handle.db
          .selectFrom("credit_applications")
          .selectAll()
          .where("id", "=", app.id)
          .executeTakeFirstOrThrow(),
      ).toEqual(before);
      expect(catcher.messages.filter((m) => m.to.includes(app.applicantEmail))).toHaveLength(1);
      await expect(
        sql`UPDATE credit_applications SET approved_limit_cents = 1 WHERE id = ${app.id}`.execute(handle.db),
      ).rejects.toThrow(/made once/);
    });

    it("declines with a reason, emailed; checks what it is given; another business's application is not found", async () => {
      const app = await createCreditApplication(handle.db, acme);
      for (const [decision, input, field] of [
        ["declined", {}, "reason"],
        ["declined", { reason: "   " }, "reason"],
        ["declined", { reason: "x".repeat(2_001) }, "reason"],
        ["declined", { reason: "ok", extra: 1 }, "extra"],
        ["accepted", {}, "approvedLimitCents"],
        ["accepted", { approvedLimitCents: 0 }, "approvedLimitCents"],
        ["accepted", { approvedLimitCents: 10.5 }, "approvedLimitCents"],
        ["accepted", { approvedLimitCents: "500" }, "approvedLimitCents"],
        ["accepted", { approvedLimitCents: 10_000_000_000 }, "approvedLimitCents"],
        ["accepted", { approvedLimitCents: 100, note: 5 }, "note"],
      ] as const) {
        const problem = await problemOf(() => decideCreditApplication(acme, app.id, decision, input));
        expect(problem.code, JSON.stringify(input)).toBe("validation");
        expect(Object.keys(problem.fields ?? {})).toContain(field);
      }
      expect((await problemOf(() => decideCreditApplication(kiwi, app.id, "declined", { reason: "no" }))).code).toBe(
        "not-found",
      );
      expect((await getCreditApplication(acme, app.id))!.status).toBe("submitted");
      const since = catcher.messages.length;
      const result = await decideCreditApplication(acme, app.id, "declined", {
        reason: "Trading history under 6 months.",
      });
      expect(result.application.decision).toMatchObject({
        decision: "declined",
        reason: "Trading history under 6 months.",
        note: null,
        approvedLimitCents: null,
      });
      const mail = await catcher.waitForMail(app.applicantEmail, { after: since });
      expect(mail.text).toContain("has decided not to open a trade account");
      expect(mail.text).toContain("Trading history under 6 months.");
    });

    it("decides once when two decisions race", async () => {
      const app = await createCreditApplication(handle.db, acme);
      const outcomes = await Promise.allSettled([
        decideCreditApplication(acme, app.id, "accepted", { approvedLimitCents: 100_000 }),
        decideCreditApplication(acme, app.id, "declined", { reason: "No." }),
        decideCreditApplication(acme, app.id, "accepted", { approvedLimitCents: 200_000 }),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") expect((outcome.reason as RequestProblem).code).toBe("conflict");
      }
    });

    it("lists references to chase, answered or not, of one application or all", async () => {
      const app = await createCreditApplication(handle.db, acme, { refereeCount: 3 });
      await answerWith(acme, app.referees[1]!.token);
      await recordRefereeOpened(acme, app.referees[0]!.id);
      const mine = await listTradeReferences(acme, { application: app.reference, limit: 100 });
      expect(mine.items.map((i) => i.position).sort()).toEqual([1, 2, 3]);
      const opened = mine.items.find((i) => i.position === 1)!;
      expect(opened).toMatchObject({
        state: "waiting",
        openCount: 1,
        answer: null,
        application: { reference: app.reference },
      });
      expect(opened.firstOpenedAt).not.toBeNull();
      const answered = await listTradeReferences(acme, { application: app.id, state: "answered" });
      expect(answered.items).toHaveLength(1);
      expect(answered.items[0]).toMatchObject({
        position: 2,
        state: "answered",
        answeredByName: "Grace Liu",
        answer: { recommend: true },
      });
      const unanswered = await listTradeReferences(acme, { application: app.id, state: "unanswered" });
      expect(unanswered.items.map((i) => i.position).sort()).toEqual([1, 3]);
      const paged = await listTradeReferences(acme, { limit: 1 });
      const next = await listTradeReferences(acme, { limit: 1, cursor: paged.nextCursor });
      expect(next.items[0]!.id).not.toBe(paged.items[0]!.id);
      const all = await listTradeReferences(acme, { limit: 100 });
      expect(all.items.every((i) => i.application.status !== ("draft" as string))).toBe(true);
      expect((await listTradeReferences(kiwi, { limit: 100 })).items.some((i) => i.application.id === app.id)).toBe(
        false,
      );
      expect((await problemOf(() => listTradeReferences(kiwi, { application: app.id }))).code).toBe("validation");
      expect((await problemOf(() => listTradeReferences(acme, { state: "maybe" }))).code).toBe("validation");
      await decideCreditApplication(acme, app.id, "declined", { reason: "No." });
      const closed = await listTradeReferences(acme, { application: app.id, state: "unanswered" });
      expect(closed.items.every((i) => i.state === "closed")).toBe(true);
    });

    it("resends a referee a new link by email: the old one stops working; answered or decided: refused", async () => {
      const app = await createCreditApplication(handle.db, acme);
      const referee = app.referees[0]!;
      const since = catcher.messages.length;
      const result = await resendTradeReference(acme, app.reference, "1");
      expect(result.delivery).toEqual({ email: referee.email, sent: true });
      expect(result.reference).toMatchObject({ position: 1, state: "waiting" });
      const mail = await catcher.waitForMail(referee.email, { after: since });
      expect(mail.subject).toContain(`Trade reference for ${app.legalName} (${app.reference})`);
      expect(mail.text).toContain("the link in the earlier email no longer works");
      const link = mail.links.find((l) => l.includes(LINK_PATH))!;
      const token = link.split(LINK_PATH)[1]!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{59}$/);
      expect(link.startsWith("http://acme.localhost")).toBe(true);
      expect((await checkRefereeLink(acme, token)).status).toBe("valid");
      expect(await checkRefereeLink(acme, referee.token)).toEqual({ status: "unknown" });
      // The token is in the email and nowhere else: not in the answer.
      expect(JSON.stringify(result)).not.toContain(token.slice(16));
      for (const position of ["0", "6", "x", "", "3"]) {
        expect((await problemOf(() => resendTradeReference(acme, app.id, position))).code).toBe("not-found");
      }
      expect((await problemOf(() => resendTradeReference(kiwi, app.id, "1"))).code).toBe("not-found");
      await answerWith(acme, token);
      const answered = await problemOf(() => resendTradeReference(acme, app.id, "1"));
      expect(answered.code).toBe("conflict");
      expect(answered.message).toMatch(/answer never changes/);
      await decideCreditApplication(acme, app.id, "accepted", { approvedLimitCents: 100 });
      const decided = await problemOf(() => resendTradeReference(acme, app.id, "2"));
      expect(decided.code).toBe("conflict");
      expect(decided.message).toMatch(/no longer needed/);
    });
  });
}

describe("on PGlite", () => {
  creditSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  creditSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
