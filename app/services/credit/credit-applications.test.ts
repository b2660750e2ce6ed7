import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { plainPdf } from "../../../tests/support/credit-files";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { stepSchema } from "~/lib/credit-schemas";
import { MAX_DOCUMENTS, type CreditAnswers } from "~/lib/credit-steps";
import { publishAgreementVersion } from "../agreements/commands.server";
import { linkSecretMatches, linkSelectorOf } from "../links/link-tokens.server";
import { fixedClock, setClockForTesting } from "../platform/clock.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import {
  acceptDraftTerms,
  addDraftDocument,
  allowUpload,
  createDraft,
  creditTerms,
  discardDraft,
  DRAFTS_PER_ADDRESS,
  findDraft,
  newDraftKey,
  referenceFor,
  removeDraftDocument,
  saveDraftStep,
  sha256Hex,
  submitApplication,
  SUBMITS_PER_ADDRESS,
  UPLOADS_PER_ADDRESS,
  sweepExpiredDrafts,
  type Draft,
} from "./credit-applications.server";
import { checkDocument } from "./document-checks.server";

/**
 * Credit applications on a real database (issue 17; decision 038): a draft found only by its
 * key's hash within its business, step answers saved as validated, documents behind the storage
 * port, the terms accepted as shown, and one submission — a reference, the referees' links, the
 * three kinds of email — after which nothing changes. Every refusal writes nothing.
 */
let catcher: SmtpCatcher;
const saved = { smtp: process.env.SMTP_URL, documents: process.env.DOCUMENTS_DIR };
const documentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "credit-service-"));

beforeAll(async () => {
  catcher = await startSmtpCatcher();
});
afterAll(async () => {
  await catcher.close();
  for (const [name, value] of [
    ["SMTP_URL", saved.smtp],
    ["DOCUMENTS_DIR", saved.documents],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTesting();
  fs.rmSync(documentsDir, { recursive: true, force: true });
});
beforeEach(() => {
  process.env.SMTP_URL = catcher.smtpUrl;
  process.env.DOCUMENTS_DIR = documentsDir;
  resetEnvForTesting();
});
afterEach(() => setClockForTesting(undefined));

/** Files under the documents folder (the storage port's filesystem adapter). */
function storedFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(full);
    }
  };
  if (fs.existsSync(documentsDir)) walk(documentsDir);
  return out;
}

let addressCounter = 0;
/** A client address of the test's own, so the per-address limits of one test never touch another's. */
const newAddress = () => `198.51.100.${++addressCounter}`;

/** Runs a step's form fields through its real schema (as the page does) and gives the stored answer. */
function answer<S extends Parameters<typeof stepSchema>[0]>(
  step: S,
  country: "AU" | "NZ",
  fields: Record<string, unknown>,
  answers: CreditAnswers = {},
) {
  const parsed = stepSchema(step, country, answers).safeParse(fields);
  if (!parsed.success) throw new Error(`${step}: ${JSON.stringify(parsed.error.issues)}`);
  return parsed.data as NonNullable<CreditAnswers[S]>;
}

const AU_ANSWERS = {
  business: {
    legalName: "Coastal <b>Plumbing</b> & Sons Pty Ltd",
    entityType: "company",
    acn: "004 028 077",
    abn: "49 004 028 077",
  },
  address: { line1: "12 Harbour St", suburb: "Sydney", state: "NSW", postcode: "2000", postalSame: "on" },
  contacts: {
    applicantName: "Olivia <i>Nguyen</i>",
    applicantPosition: "Director",
    applicantEmail: "olivia.applicant@coastal.example",
    applicantPhone: "02 9876 5432",
    apIsApplicant: "on",
  },
  directors: { people: [{ name: "Olivia Nguyen", role: "director" }] },
  credit: { limit: "25,000", monthly: "8000" },
  references: {
    referees: [
      { business: "Pipe <script>Co</script>", contactName: "Alex", email: "alex@pipes.example", phone: "02 1234 5670" },
      { business: "Tap World", contactName: "Bo", email: "bo@taps.example", phone: "02 1234 5671" },
    ],
  },
  bank: { directDebit: "yes", accountName: "Coastal", bsb: "062-000", accountNumber: "12345678" },
};

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

  const applicationRow = (id: string) =>
    handle.db.selectFrom("credit_applications").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const count = async (table: "credit_applications" | "credit_trade_references" | "credit_application_documents") =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A draft with every step answered and the terms accepted: its key and the draft. */
  async function completeDraft(
    options: { businessId?: string; answers?: Partial<typeof AU_ANSWERS>; skip?: string[]; terms?: boolean } = {},
  ) {
    const businessId = options.businessId ?? acme;
    const fields = { ...AU_ANSWERS, ...options.answers };
    const created = await createDraft({
      businessId,
      country: "AU",
      clientAddress: newAddress(),
      business: answer("business", "AU", fields.business),
    });
    if (!created.ok) throw new Error("no draft");
    let draft = (await findDraft(businessId, created.key))!;
    for (const step of ["address", "contacts", "directors", "credit", "references", "bank"] as const) {
      if (options.skip?.includes(step)) continue;
      const value = answer(step, "AU", fields[step], draft.answers);
      expect(await saveDraftStep(draft, step, value as never)).toEqual({ ok: true });
      draft = (await findDraft(businessId, created.key))!;
    }
    if (!options.skip?.includes("documents")) await saveDraftStep(draft, "documents", { done: true });
    if (options.terms !== false) {
      const terms = (await creditTerms(businessId))!;
      expect(
        await acceptDraftTerms({
          draft,
          versionId: terms.versionId,
          typedName: "Olivia Nguyen",
          agreed: true,
          clientAddress: "203.0.113.7",
          userAgent: "Mozilla/5.0 (test)",
        }),
      ).toEqual({ ok: true });
    }
    return { key: created.key, draft: (await findDraft(businessId, created.key))! };
  }

  describe("drafts", () => {
    it("are made with the first step's answers and found only by their key, in their business", async () => {
      const created = await createDraft({
        businessId: acme,
        country: "AU",
        clientAddress: newAddress(),
        business: answer("business", "AU", AU_ANSWERS.business),
      });
      if (!created.ok) throw new Error("no draft");
      const row = await applicationRow(created.id);
      expect(row.status).toBe("draft");
      expect(row.draft_key_hash).toBe(sha256Hex(created.key));
      // The key itself is nowhere in the database.
      expect(JSON.stringify(row)).not.toContain(created.key);
      expect(row.answers).toEqual({
        business: {
          legalName: "Coastal <b>Plumbing</b> & Sons Pty Ltd",
          tradingName: null,
          entityType: "company",
          abn: "49004028077",
          acn: "004028077",
          nzbn: null,
        },
      });
      const draft = await findDraft(acme, created.key);
      expect(draft?.id).toBe(created.id);
      // Another business's host, a key one character off, a malformed key: no draft.
      expect(await findDraft(kiwi, created.key)).toBeNull();
      expect(await findDraft(acme, `${created.key.slice(0, -1)}${created.key.endsWith("A") ? "B" : "A"}`)).toBeNull();
      expect(await findDraft(acme, "not a key")).toBeNull();
      expect(await findDraft(acme, null)).toBeNull();
    });

    it("are kept DRAFT_DAYS after their last change, then forgotten with their documents", async () => {
      const clock = fixedClock("2026-12-01T00:00:00Z");
      setClockForTesting(clock);
      const { key, draft } = await completeDraft({ terms: false });
      const checked = await checkDocument({ name: "statements.pdf", bytes: plainPdf() });
      if (!checked.ok) throw new Error("not ok");
      const added = await addDraftDocument({
        draft,
        kind: "financial-statements",
        document: checked.document,
      });
      expect(added.ok).toBe(true);
      const key1 = (
        await handle.db
          .selectFrom("credit_application_documents")
          .select("storage_key")
          .where("application_id", "=", draft.id)
          .executeTakeFirstOrThrow()
      ).storage_key;
      const file = path.join(documentsDir, ...key1.split("/"));
      expect(fs.existsSync(file)).toBe(true);
      clock.advanceDays(13);
      expect(await saveDraftStep(draft, "credit", { limitCents: 100, monthlyCents: 100 })).toEqual({ ok: true });
      clock.advanceDays(13);
      expect(await findDraft(acme, key)).not.toBeNull();
      clock.advanceDays(1.01);
      expect(await findDraft(acme, key)).toBeNull();
      expect(await saveDraftStep(draft, "credit", { limitCents: 200, monthlyCents: 100 })).toEqual({
        ok: false,
        problem: "gone",
      });
      expect(await sweepExpiredDrafts()).toBeGreaterThanOrEqual(1);
      expect(
        await handle.db.selectFrom("credit_applications").select("id").where("id", "=", draft.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(fs.existsSync(file)).toBe(false);
    });

    it("are forgotten at once by Start again, documents and all", async () => {
      const { draft } = await completeDraft({ terms: false });
      const checked = await checkDocument({ name: "id.pdf", bytes: plainPdf("Licence") });
      if (!checked.ok) throw new Error("not ok");
      await addDraftDocument({
        draft,
        kind: "identification",
        document: checked.document,
      });
      const before = storedFiles().length;
      await discardDraft(draft);
      expect(storedFiles().length).toBe(before - 1);
      expect(
        await handle.db.selectFrom("credit_applications").select("id").where("id", "=", draft.id).executeTakeFirst(),
      ).toBeUndefined();
    });

    it("are limited per client address; other addresses go on", async () => {
      const address = newAddress();
      const before = await count("credit_applications");
      const business = answer("business", "AU", AU_ANSWERS.business);
      for (let i = 0; i < DRAFTS_PER_ADDRESS.max; i++) {
        expect((await createDraft({ businessId: acme, country: "AU", clientAddress: address, business })).ok).toBe(
          true,
        );
      }
      expect(await createDraft({ businessId: acme, country: "AU", clientAddress: address, business })).toEqual({
        ok: false,
        problem: "rateLimited",
      });
      expect(await count("credit_applications")).toBe(before + DRAFTS_PER_ADDRESS.max);
      expect((await createDraft({ businessId: acme, country: "AU", clientAddress: newAddress(), business })).ok).toBe(
        true,
      );
      // The limit is per business too: the same address may apply to another business.
      expect(
        (
          await createDraft({
            businessId: kiwi,
            country: "NZ",
            clientAddress: address,
            business: { ...business, acn: null, abn: null, nzbn: "9429041535134" },
          })
        ).ok,
      ).toBe(true);
    });
  });

  describe("documents", () => {
    it("are stored behind the port under random keys, at most MAX_DOCUMENTS, and removed with their bytes", async () => {
      const { draft } = await completeDraft({ terms: false });
      const checked = await checkDocument({ name: "../../etc/passwd.pdf", bytes: plainPdf() });
      if (!checked.ok) throw new Error("not ok");
      const ids: string[] = [];
      for (let i = 0; i < MAX_DOCUMENTS; i++) {
        const added = await addDraftDocument({
          draft,
          kind: "other",
          document: checked.document,
        });
        if (!added.ok) throw new Error(added.problem);
        ids.push(added.document.id);
      }
      const rows = await handle.db
        .selectFrom("credit_application_documents")
        .selectAll()
        .where("application_id", "=", draft.id)
        .execute();
      expect(rows).toHaveLength(MAX_DOCUMENTS);
      for (const row of rows) {
        expect(row.file_name).toBe("passwd.pdf");
        expect(row.storage_key).toMatch(new RegExp(`^credit/${acme}/[0-9a-f]{32}$`));
        expect(row.storage_key).not.toContain("passwd");
        const file = path.join(documentsDir, ...row.storage_key.split("/"));
        // What was checked: the PDF as written anew (decision 057).
        expect(fs.readFileSync(file).equals(checked.document.bytes)).toBe(true);
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      }
      const files = storedFiles().length;
      // One more: refused, and its bytes are not left behind.
      expect(await addDraftDocument({ draft, kind: "other", document: checked.document })).toEqual({
        ok: false,
        problem: "tooMany",
      });
      expect(storedFiles().length).toBe(files);
      // Another draft's document id, or nonsense, removes nothing.
      const other = await completeDraft({ terms: false });
      expect(await removeDraftDocument(other.draft, ids[0]!)).toBe(false);
      expect(await removeDraftDocument(draft, "'; DROP TABLE credit_applications; --")).toBe(false);
      expect(await removeDraftDocument(draft, "-".repeat(36))).toBe(false);
      expect(await removeDraftDocument(draft, ids[0]!)).toBe(true);
      expect(storedFiles().length).toBe(files - 1);
      expect(await removeDraftDocument(draft, ids[0]!)).toBe(false);
    });

    it("are limited per client address, counted before a file is judged", async () => {
      const address = newAddress();
      for (let i = 0; i < UPLOADS_PER_ADDRESS.max; i++) expect(await allowUpload(acme, address)).toBe(true);
      expect(await allowUpload(acme, address)).toBe(false);
      expect(await allowUpload(acme, newAddress())).toBe(true);
    });
  });

  describe("the terms", () => {
    it("are the business's first terms-of-trade document at its latest version", async () => {
      const acmeTerms = await creditTerms(acme);
      expect(acmeTerms).toMatchObject({ title: "Terms of trade", version: 2 });
      expect((await creditTerms(kiwi))?.title).toBe("Terms of trade");
    });

    it("are accepted with a name and a tick, as the page showed them; anything else records nothing", async () => {
      const { draft } = await completeDraft({ terms: false });
      const terms = (await creditTerms(acme))!;
      const base = { draft, agreed: true, clientAddress: "203.0.113.9", userAgent: "UA\u0000x" };
      expect(await acceptDraftTerms({ ...base, versionId: terms.versionId, typedName: "  " })).toEqual({
        ok: false,
        problem: "fields",
        errors: { typedName: "agreement.error.name.required" },
      });
      expect(await acceptDraftTerms({ ...base, versionId: terms.versionId, typedName: "O", agreed: false })).toEqual({
        ok: false,
        problem: "fields",
        errors: { agreed: "agreement.error.agreed.required" },
      });
      expect(
        await acceptDraftTerms({ ...base, versionId: "00000000-0000-4000-8000-000000000000", typedName: "O" }),
      ).toEqual({
        ok: false,
        problem: "stale",
      });
      expect(await acceptDraftTerms({ ...base, versionId: "<script>", typedName: "O" })).toEqual({
        ok: false,
        problem: "stale",
      });
      // 36 characters that are not a UUID: refused as such, never handed to the database.
      expect(await acceptDraftTerms({ ...base, versionId: "-".repeat(36), typedName: "O" })).toEqual({
        ok: false,
        problem: "stale",
      });
      expect((await applicationRow(draft.id)).terms_version_id).toBeNull();
      expect(await acceptDraftTerms({ ...base, versionId: terms.versionId, typedName: "Olivia <b>N</b>" })).toEqual({
        ok: true,
      });
      const row = await applicationRow(draft.id);
      expect(row).toMatchObject({
        terms_version_id: terms.versionId,
        terms_sha256: terms.bodySha256,
        terms_name_typed: "Olivia <b>N</b>",
        client_ip: "203.0.113.9",
        user_agent: "UA x",
      });
    });
  });

  describe("submitting", () => {
    it("gives a reference, copies what the back office lists, mints the referees' links and sends three kinds of email", async () => {
      const before = catcher.messages.length;
      const { key, draft } = await completeDraft();
      const result = await submitApplication({ businessId: acme, key, clientAddress: newAddress() });
      expect(result).toEqual({
        ok: true,
        reference: referenceFor(key),
        repeat: false,
        applicantEmail: "olivia.applicant@coastal.example",
      });
      if (!result.ok) return;
      expect(result.reference).toMatch(/^CA-[0-9A-Z]{8}$/);
      const row = await applicationRow(draft.id);
      expect(row).toMatchObject({
        status: "submitted",
        reference: result.reference,
        legal_name: "Coastal <b>Plumbing</b> & Sons Pty Ltd",
        applicant_email: "olivia.applicant@coastal.example",
        requested_limit_cents: 2_500_000,
        draft_key_hash: null,
      });
      expect(row.submitted_at).not.toBeNull();
      expect(await findDraft(acme, key)).toBeNull();

      const referees = await handle.db
        .selectFrom("credit_trade_references")
        .selectAll()
        .where("application_id", "=", draft.id)
        .orderBy("position")
        .execute();
      expect(referees.map((r) => [r.position, r.referee_business, r.email])).toEqual([
        [1, "Pipe <script>Co</script>", "alex@pipes.example"],
        [2, "Tap World", "bo@taps.example"],
      ]);
      const submittedAt = new Date(row.submitted_at!).getTime();
      for (const referee of referees) {
        expect(new Date(referee.link_expires_at).getTime() - submittedAt).toBe(30 * 86_400_000);
      }

      // The mail: the applicant, the business (support address: no notification address here), each referee.
      const applicantMail = await catcher.waitForMail("olivia.applicant@coastal.example", { after: before });
      expect(applicantMail.subject).toBe(`Your credit application to Acme Plumbing Supplies (${result.reference})`);
      expect(applicantMail.text).toContain(`Your application's reference is ${result.reference}`);
      const businessMail = await catcher.waitForMail("accounts@acme.example", {
        after: before,
        subject: /New credit application/,
      });
      expect(businessMail.subject).toBe(
        `New credit application: Coastal <b>Plumbing</b> & Sons Pty Ltd (${result.reference})`,
      );
      // No bank account number in any email.
      expect(businessMail.text).not.toContain("12345678");
      // Markup is text: as typed in the plain part, escaped in the HTML.
      expect(businessMail.text).toContain("Coastal <b>Plumbing</b> & Sons Pty Ltd");
      expect(businessMail.html).toContain("Coastal &lt;b&gt;Plumbing&lt;/b&gt; &amp; Sons Pty Ltd");
      expect(businessMail.html).not.toContain("<b>Plumbing</b>");
      expect(applicantMail.html).toContain("Olivia &lt;i&gt;Nguyen&lt;/i&gt;");
      for (const referee of referees) {
        const mail = await catcher.waitForMail(referee.email, { after: before });
        expect(mail.subject).toBe(
          `Trade reference for Coastal <b>Plumbing</b> & Sons Pty Ltd (${result.reference}) · Acme Plumbing Supplies`,
        );
        const link = mail.links.find((l) => l.includes("/credit-trade-reference/"))!;
        expect(link).toMatch(/^http:\/\/acme\.localhost:3000\/credit-trade-reference\/[A-Za-z0-9_-]{59}$/);
        expect(mail.text).toContain(link);
        const token = link.split("/credit-trade-reference/")[1]!;
        expect(linkSelectorOf(token)).toBe(referee.selector);
        expect(linkSecretMatches(token, referee.verifier_hash)).toBe(true);
        expect(mail.html).not.toContain("<script>Co</script>");
      }
      const links = catcher.messages
        .slice(before)
        .flatMap((m) => m.links.filter((l) => l.includes("/credit-trade-reference/")));
      expect(new Set(links).size).toBe(2);
    });

    it("tells the business at its notification address when it has one", async () => {
      await handle.db
        .updateTable("businesses")
        .set({ notification_email: "credit@kiwifreight.example" })
        .where("id", "=", kiwi)
        .execute();
      const created = await createDraft({
        businessId: kiwi,
        country: "NZ",
        clientAddress: newAddress(),
        business: answer("business", "NZ", { legalName: "Orchards Ltd", entityType: "company", nzbn: "9429041535134" }),
      });
      if (!created.ok) throw new Error("no draft");
      let draft = (await findDraft(kiwi, created.key))!;
      const nz = {
        address: { line1: "5 Orchard Rd", city: "Hastings", postcode: "4120", postalSame: "on" },
        contacts: { ...AU_ANSWERS.contacts, applicantEmail: "aroha.applicant@orchards.example" },
        directors: AU_ANSWERS.directors,
        credit: AU_ANSWERS.credit,
        references: AU_ANSWERS.references,
        bank: {
          directDebit: "yes",
          accountName: "Orchards",
          bank: "01",
          branch: "0902",
          account: "0068389",
          suffix: "00",
        },
      };
      for (const step of ["address", "contacts", "directors", "credit", "references", "bank"] as const) {
        await saveDraftStep(draft, step, answer(step, "NZ", nz[step], draft.answers) as never);
        draft = (await findDraft(kiwi, created.key))!;
      }
      await saveDraftStep(draft, "documents", { done: true });
      const terms = (await creditTerms(kiwi))!;
      await acceptDraftTerms({
        draft,
        versionId: terms.versionId,
        typedName: "Aroha",
        agreed: true,
        clientAddress: "x",
        userAgent: null,
      });
      const before = catcher.messages.length;
      const result = await submitApplication({ businessId: kiwi, key: created.key, clientAddress: newAddress() });
      expect(result.ok).toBe(true);
      const mail = await catcher.waitForMail("credit@kiwifreight.example", { after: before });
      expect(mail.text).toContain("NZBN: 9429041535134");
      expect(catcher.messages.slice(before).some((m) => m.to.includes("billing@kiwifreight.example"))).toBe(false);
      expect((await applicationRow(draft.id)).country).toBe("NZ");
    });

    it("does nothing twice: a second submission (at once, or after) answers with the first's reference", async () => {
      const { key, draft } = await completeDraft();
      const before = catcher.messages.length;
      const address = newAddress();
      const [first, second] = await Promise.all([
        submitApplication({ businessId: acme, key, clientAddress: address }),
        submitApplication({ businessId: acme, key, clientAddress: address }),
      ]);
      expect(first.ok && second.ok).toBe(true);
      if (!first.ok || !second.ok) return;
      expect(first.reference).toBe(second.reference);
      expect([first.repeat, second.repeat].sort()).toEqual([false, true]);
      const again = await submitApplication({ businessId: acme, key, clientAddress: address });
      expect(again).toMatchObject({ ok: true, repeat: true, reference: first.reference });
      const referees = await handle.db
        .selectFrom("credit_trade_references")
        .select("id")
        .where("application_id", "=", draft.id)
        .execute();
      expect(referees).toHaveLength(2);
      await catcher.waitForMail("bo@taps.example", { after: before });
      // Give any second round of mail the same chance to arrive as the first had: one applicant mail only.
      await catcher.waitForMail("olivia.applicant@coastal.example", { after: before });
      expect(
        catcher.messages.slice(before).filter((m) => m.to.includes("olivia.applicant@coastal.example")),
      ).toHaveLength(1);
      // Another business's host with the same key finds nothing.
      expect(await submitApplication({ businessId: kiwi, key, clientAddress: address })).toEqual({
        ok: false,
        problem: "none",
      });
    });

    it("freezes the application: its answers, terms and documents never change again", async () => {
      const { key, draft } = await completeDraft();
      const checked = await checkDocument({ name: "s.pdf", bytes: plainPdf() });
      if (!checked.ok) throw new Error("not ok");
      const added = await addDraftDocument({
        draft,
        kind: "other",
        document: checked.document,
      });
      if (!added.ok) throw new Error(added.problem);
      expect((await submitApplication({ businessId: acme, key, clientAddress: newAddress() })).ok).toBe(true);
      const frozen = await applicationRow(draft.id);
      expect(await saveDraftStep(draft, "credit", { limitCents: 1, monthlyCents: 1 })).toEqual({
        ok: false,
        problem: "gone",
      });
      const terms = (await creditTerms(acme))!;
      expect(
        await acceptDraftTerms({
          draft,
          versionId: terms.versionId,
          typedName: "X",
          agreed: true,
          clientAddress: "x",
          userAgent: null,
        }),
      ).toEqual({ ok: false, problem: "gone" });
      expect(await addDraftDocument({ draft, kind: "other", document: checked.document })).toEqual({
        ok: false,
        problem: "gone",
      });
      expect(await removeDraftDocument(draft, added.document.id)).toBe(false);
      await discardDraft(draft);
      // The database itself refuses a change of the answers.
      await expect(
        sql`UPDATE credit_applications SET answers = '{}'::jsonb WHERE id = ${draft.id}`.execute(handle.db),
      ).rejects.toThrow(/never changes/);
      expect(await applicationRow(draft.id)).toEqual(frozen);
    });

    it("sends the applicant to the first step not answered, writing nothing", async () => {
      const { key, draft } = await completeDraft({ skip: ["directors", "documents"] });
      expect(await submitApplication({ businessId: acme, key, clientAddress: newAddress() })).toEqual({
        ok: false,
        problem: "missing",
        step: "directors",
      });
      const { key: key2 } = await completeDraft({ terms: false });
      expect(await submitApplication({ businessId: acme, key: key2, clientAddress: newAddress() })).toEqual({
        ok: false,
        problem: "missing",
        step: "terms",
      });
      const row = await applicationRow(draft.id);
      expect([row.status, row.reference]).toEqual(["draft", null]);
      expect(
        await handle.db
          .selectFrom("credit_trade_references")
          .select("id")
          .where("application_id", "=", draft.id)
          .execute(),
      ).toEqual([]);
    });

    it("refuses a referee whose email became the applicant's since", async () => {
      const { key, draft } = await completeDraft();
      await saveDraftStep(
        draft,
        "contacts",
        answer("contacts", "AU", { ...AU_ANSWERS.contacts, applicantEmail: "alex@pipes.example" }),
      );
      expect(await submitApplication({ businessId: acme, key, clientAddress: newAddress() })).toEqual({
        ok: false,
        problem: "missing",
        step: "references",
      });
    });

    it("refuses terms that changed after they were accepted", async () => {
      const { key, draft } = await completeDraft();
      const terms = (await creditTerms(acme))!;
      await publishAgreementVersion(acme, terms.documentId, {
        body: `${terms.body}\n## Added\n\nA new clause ${draft.id}.\n`,
      });
      expect(await submitApplication({ businessId: acme, key, clientAddress: newAddress() })).toEqual({
        ok: false,
        problem: "termsChanged",
      });
      // The old version, posted again, is refused as changed; the new one is accepted.
      const base = { draft, typedName: "Olivia", agreed: true, clientAddress: "x", userAgent: null };
      expect(await acceptDraftTerms({ ...base, versionId: terms.versionId })).toEqual({
        ok: false,
        problem: "changed",
      });
      const latest = (await creditTerms(acme))!;
      expect(await acceptDraftTerms({ ...base, versionId: latest.versionId })).toEqual({ ok: true });
      expect((await submitApplication({ businessId: acme, key, clientAddress: newAddress() })).ok).toBe(true);
      expect((await applicationRow(draft.id)).terms_sha256).toBe(latest.bodySha256);
    });

    it("is limited per client address, and a key that opens nothing still counts", async () => {
      const address = newAddress();
      for (let i = 0; i < SUBMITS_PER_ADDRESS.max; i++) {
        expect(await submitApplication({ businessId: acme, key: newDraftKey(), clientAddress: address })).toEqual({
          ok: false,
          problem: "none",
        });
      }
      const { key, draft } = await completeDraft();
      expect(await submitApplication({ businessId: acme, key, clientAddress: address })).toEqual({
        ok: false,
        problem: "rateLimited",
      });
      expect((await applicationRow(draft.id)).status).toBe("draft");
      expect((await submitApplication({ businessId: acme, key, clientAddress: newAddress() })).ok).toBe(true);
      // A malformed key counts nothing and opens nothing.
      expect(await submitApplication({ businessId: acme, key: "x", clientAddress: address })).toEqual({
        ok: false,
        problem: "none",
      });
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

export type { Draft };
