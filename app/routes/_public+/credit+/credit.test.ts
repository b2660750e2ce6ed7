import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { plainPdf, pngWithMetadata, windowsExecutable } from "../../../../tests/support/credit-files";
import { startSmtpCatcher, type SmtpCatcher } from "../../../../tests/support/smtp-catcher";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { DOCUMENT_FORM_MAX_BYTES } from "~/lib/credit-steps";
import { publishAgreementVersion } from "~/services/agreements/commands.server";
import { creditTerms, DRAFTS_PER_ADDRESS } from "~/services/credit/credit-applications.server";
import { checkDocument } from "~/services/credit/document-checks.server";
import { setClockForTesting } from "~/services/platform/clock.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { resetEnvForTesting } from "~/services/platform/env.server";
import { CLIENT_ADDRESS_HEADER } from "~/services/platform/request-log.server";
import * as address from "./address";
import * as bank from "./bank";
import * as business from "./business";
import * as contacts from "./contacts";
import * as credit from "./credit";
import * as directors from "./directors";
import * as references from "./references";
import * as check from "./check";
import * as documents from "./documents";
import * as start from "./_index";
import * as submitted from "./submitted";
import * as terms from "./terms";

/**
 * The credit application's pages through their loaders and actions with real Requests (issue
 * 17; decision 038): signed out, on the host's business; the draft in a cookie of its own; each
 * step a plain POST that saves and redirects, or answers 400 with what was typed; robots, a
 * burst from one address, another host's cookie, an executable named .pdf and a body over the
 * limit each get a clear answer with nothing saved; sending is once.
 */
let handle: DatabaseHandle;
let catcher: SmtpCatcher;
const saved = { smtp: process.env.SMTP_URL, documents: process.env.DOCUMENTS_DIR };
const documentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "credit-routes-"));

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  catcher = await startSmtpCatcher();
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
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

type Handler = (args: { request: Request; params: object; context: object }) => unknown;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = { status: number; data: any; headers: Headers; location: string | null };

async function run(handler: Handler, request: Request, params: object): Promise<Page> {
  let result: unknown;
  try {
    result = await handler({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response || (thrown as { type?: string } | null)?.type === "DataWithResponseInit") {
      result = thrown;
    } else {
      throw thrown;
    }
  }
  if (result instanceof Response) {
    return {
      status: result.status,
      data: undefined,
      headers: result.headers,
      location: result.headers.get("location"),
    };
  }
  const { data, init } = result as { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };
  return { status: init?.status ?? 200, data, headers: new Headers(init?.headers), location: null };
}

let addressCounter = 0;

/** A browser on one host: its cookies (by name) and its own client address. */
function browser(host = "acme.localhost", options: { address?: string } = {}) {
  const origin = `http://${host}`;
  const jar = new Map<string, string>();
  const address = options.address ?? `192.0.2.${++addressCounter}`;
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const remember = (page: Page) => {
    for (const line of page.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/max-age=0/i.test(line) || value === "") jar.delete(name!);
      else jar.set(name!, value);
    }
    return page;
  };
  const headers = (extra: Record<string, string> = {}) => ({
    host,
    cookie: cookieHeader(),
    [CLIENT_ADDRESS_HEADER]: address,
    "user-agent": "Mozilla/5.0 (route test)",
    ...extra,
  });
  return {
    origin,
    jar,
    address,
    async get(handler: Handler, pathname: string, params: object = {}) {
      return remember(await run(handler, new Request(`${origin}${pathname}`, { headers: headers() }), params));
    },
    async post(
      handler: Handler,
      pathname: string,
      body: Record<string, string | string[]> | FormData,
      params: object = {},
      extra: Record<string, string> = {},
    ) {
      let init: RequestInit;
      if (body instanceof FormData) {
        init = { method: "POST", headers: headers({ origin, ...extra }), body };
      } else {
        const form = new URLSearchParams();
        for (const [name, value] of Object.entries(body)) {
          for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
        }
        init = {
          method: "POST",
          headers: headers({ origin, "content-type": "application/x-www-form-urlencoded", ...extra }),
          body: form.toString(),
        };
      }
      return remember(await run(handler, new Request(`${origin}${pathname}`, init), params));
    },
  };
}
type Browser = ReturnType<typeof browser>;

const BUSINESS = { legalName: "Coastal <b>Plumbing</b> Pty Ltd", entityType: "company", acn: "004 028 077" };
const FIELDS: Record<string, Record<string, string>> = {
  address: { line1: "12 Harbour St", suburb: "Sydney", state: "NSW", postcode: "2000", postalSame: "on" },
  contacts: {
    applicantName: "Olivia Nguyen",
    applicantPosition: "Director",
    applicantEmail: "olivia.route@coastal.example",
    applicantPhone: "02 9876 5432",
    apIsApplicant: "on",
  },
  directors: { "people[0].name": "Olivia Nguyen", "people[0].role": "director" },
  credit: { limit: "25000", monthly: "8000" },
  references: {
    "referees[0].business": "Pipe Co",
    "referees[0].contactName": "Alex",
    "referees[0].email": "alex.route@pipes.example",
    "referees[0].phone": "02 1234 5670",
    "referees[1].business": "Tap World",
    "referees[1].contactName": "Bo",
    "referees[1].email": "bo.route@taps.example",
    "referees[1].phone": "02 1234 5671",
  },
  bank: { directDebit: "no" },
};

/** Each step with plain fields is a route of its own; these call the one a path names. */
const STEP_ROUTES: Record<string, { loader: unknown; action: unknown }> = {
  business,
  address,
  contacts,
  directors,
  credit,
  references,
  bank,
};
const routeOf = (args: { request: Request }) => {
  const name = new URL(args.request.url).pathname.split("/")[2] ?? "";
  return Object.hasOwn(STEP_ROUTES, name) ? STEP_ROUTES[name]! : null;
};
/** What an unknown step is: the catch-all's "Page not found". */
const notFound = () => {
  throw new Response(null, { status: 404 });
};
const stepLoader: Handler = (args) => {
  const route = routeOf(args);
  return route ? (route.loader as Handler)(args) : notFound();
};
const stepAction: Handler = (args) => {
  const route = routeOf(args);
  return route ? (route.action as Handler)(args) : notFound();
};
const drafts = async () =>
  Number(
    (
      await handle.db
        .selectFrom("credit_applications")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Answers every step up to the check page, as a browser would. */
async function answerAll(b: Browser, options: { skip?: string[] } = {}) {
  expect((await b.post(stepAction, "/credit/business", BUSINESS, { step: "business" })).location).toBe(
    "/credit/address",
  );
  for (const name of ["address", "contacts", "directors", "credit", "references", "bank"]) {
    if (options.skip?.includes(name)) continue;
    const page = await b.post(stepAction, `/credit/${name}`, FIELDS[name]!, { step: name });
    expect(page.status, `${name}: ${JSON.stringify(page.data)}`).toBe(303);
  }
  if (!options.skip?.includes("documents")) {
    const form = new FormData();
    form.set("intent", "continue");
    await b.post(documents.action as Handler, "/credit/documents", form);
  }
  if (!options.skip?.includes("terms")) {
    const view = await b.get(terms.loader as Handler, "/credit/terms");
    const page = await b.post(terms.action as Handler, "/credit/terms", {
      versionId: view.data.terms.versionId,
      typedName: "Olivia Nguyen",
      agreed: "yes",
    });
    expect(page.location).toEqual(options.skip?.length ? expect.stringMatching(/notice=incomplete$/) : "/credit/check");
  }
}

describe("the start page", () => {
  it("explains what is needed and starts; a business without terms of trade takes no applications", async () => {
    const page = await browser().get(start.loader as Handler, "/credit");
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ open: true, country: "AU", draft: null, maxSize: "10 MB", draftDays: 14 });
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    // A business with no terms of trade published.
    const business = await handle.db
      .insertInto("businesses")
      .values({ name: "No Terms Ltd", support_email: "help@noterms.example", created_at: new Date() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto("hosts")
      .values({
        hostname: "noterms.localhost",
        business_id: business.id,
        public_base_url: null,
        created_at: new Date(),
      })
      .execute();
    const b = browser("noterms.localhost");
    const closed = await b.get(start.loader as Handler, "/credit");
    expect(closed.data).toMatchObject({ open: false, contact: { email: "help@noterms.example" } });
    expect((await b.get(stepLoader, "/credit/business", { step: "business" })).location).toBe("/credit");
    const before = await drafts();
    expect((await b.post(stepAction, "/credit/business", BUSINESS, { step: "business" })).location).toBe("/credit");
    expect(await drafts()).toBe(before);
  });
});

describe("the steps", () => {
  it("makes the draft on the first step's POST, with an HttpOnly, SameSite=Lax cookie of this host's own", async () => {
    const b = browser();
    const before = await drafts();
    const form = await b.get(stepLoader, "/credit/business", { step: "business" });
    expect(form.status).toBe(200);
    expect(form.data.constraint.legalName).toMatchObject({ required: true, maxLength: 200 });
    expect(await drafts()).toBe(before);
    const page = await b.post(stepAction, "/credit/business", BUSINESS, { step: "business" });
    expect([page.status, page.location]).toEqual([303, "/credit/address"]);
    const cookie = page.headers.getSetCookie().find((line) => line.startsWith("portal_credit="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(await drafts()).toBe(before + 1);
    const address = await b.get(stepLoader, "/credit/address", { step: "address" });
    expect(address.data).toMatchObject({ step: "address", position: 2, total: 9, country: "AU" });
    const again = await b.get(stepLoader, "/credit/business", { step: "business" });
    expect(again.data.values.legalName).toBe("Coastal <b>Plumbing</b> Pty Ltd");
  });

  it("uses a Secure __Host- cookie over https", async () => {
    const request = new Request("https://acme.localhost/credit/business", {
      method: "POST",
      headers: {
        host: "acme.localhost",
        origin: "https://acme.localhost",
        "content-type": "application/x-www-form-urlencoded",
        [CLIENT_ADDRESS_HEADER]: "192.0.2.250",
      },
      body: new URLSearchParams(BUSINESS).toString(),
    });
    const page = await run(stepAction, request, { step: "business" });
    const cookie = page.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^__Host-portal_credit=/);
    expect(cookie).toMatch(/Secure/);
  });

  it("keeps what was typed and names each problem, saving nothing", async () => {
    const b = browser();
    const before = await drafts();
    const page = await b.post(
      stepAction,
      "/credit/business",
      { legalName: "<script>alert(1)</script>", entityType: "company", acn: "123 456 789" },
      { step: "business" },
    );
    expect(page.status).toBe(400);
    expect(page.data.result.initialValue).toMatchObject({ legalName: "<script>alert(1)</script>", acn: "123 456 789" });
    expect(page.data.result.error).toEqual({ acn: ["credit.error.acn.checksum"] });
    expect(b.jar.size).toBe(0);
    expect(await drafts()).toBe(before);
  });

  it("refuses a robot (the honeypot filled), saving nothing", async () => {
    const b = browser();
    const before = await drafts();
    const page = await b.post(
      stepAction,
      "/credit/business",
      { ...BUSINESS, website: "http://spam.example" },
      { step: "business" },
    );
    expect(page.status).toBe(400);
    expect(page.data.formError).toBe("credit.error.robot");
    expect(page.data.result.initialValue.legalName).toBe(BUSINESS.legalName);
    expect(await drafts()).toBe(before);
    expect(b.jar.size).toBe(0);
  });

  it("answers a burst of new drafts from one address with 429, and the typed answers with it", async () => {
    const address = "192.0.2.240";
    for (let i = 0; i < DRAFTS_PER_ADDRESS.max; i++) {
      expect(
        (
          await browser("acme.localhost", { address }).post(stepAction, "/credit/business", BUSINESS, {
            step: "business",
          })
        ).status,
      ).toBe(303);
    }
    const before = await drafts();
    const page = await browser("acme.localhost", { address }).post(stepAction, "/credit/business", BUSINESS, {
      step: "business",
    });
    expect(page.status).toBe(429);
    expect(page.data.formError).toBe("credit.error.rateLimited.draft");
    expect(page.data.result.initialValue.legalName).toBe(BUSINESS.legalName);
    expect(await drafts()).toBe(before);
  });

  it("sends a later step without a draft to the first step, with a notice", async () => {
    const b = browser();
    expect((await b.get(stepLoader, "/credit/references", { step: "references" })).location).toBe(
      "/credit/business?notice=start",
    );
    expect((await b.post(stepAction, "/credit/references", FIELDS.references!, { step: "references" })).location).toBe(
      "/credit/business?notice=start",
    );
    expect((await b.get(check.loader as Handler, "/credit/check")).location).toBe("/credit/business?notice=start");
    expect((await b.get(documents.loader as Handler, "/credit/documents")).location).toBe(
      "/credit/business?notice=start",
    );
  });

  it("saves a step posted out of order and sends the applicant back to the first unanswered one", async () => {
    const b = browser();
    await b.post(stepAction, "/credit/business", BUSINESS, { step: "business" });
    const page = await b.post(stepAction, "/credit/references", FIELDS.references!, { step: "references" });
    expect(page.location).toBe("/credit/address?notice=incomplete");
    const references = await b.get(stepLoader, "/credit/references", { step: "references" });
    expect(references.data.values.referees[1].email).toBe("bo.route@taps.example");
  });

  it("treats another host's draft cookie as no draft", async () => {
    const acme = browser();
    await acme.post(stepAction, "/credit/business", BUSINESS, { step: "business" });
    const kiwi = browser("kiwi.localhost");
    for (const [name, value] of acme.jar) kiwi.jar.set(name, value);
    expect((await kiwi.get(stepLoader, "/credit/address", { step: "address" })).location).toBe(
      "/credit/business?notice=start",
    );
    expect((await kiwi.get(start.loader as Handler, "/credit")).data.draft).toBeNull();
  });

  it("refuses a cross-site POST", async () => {
    const b = browser();
    const crossSite = await b.post(
      stepAction,
      "/credit/business",
      BUSINESS,
      { step: "business" },
      { origin: "http://evil.example" },
    );
    expect(crossSite.status).toBe(403);
  });

  it("adds a person to the list without saving or judging (no JavaScript needed)", async () => {
    const b = browser();
    await b.post(stepAction, "/credit/business", BUSINESS, { step: "business" });
    const page = await b.post(
      stepAction,
      "/credit/directors",
      {
        "people[0].name": "Olivia",
        "people[0].role": "director",
        __intent__: JSON.stringify({ type: "insert", payload: { name: "people" } }),
      },
      { step: "directors" },
    );
    expect(page.status).toBe(200);
    expect(page.data.result.initialValue.people).toHaveLength(2);
  });
});

describe("documents", () => {
  async function upload(
    b: Browser,
    file: { name: string; type: string; bytes: Buffer },
    kind = "financial-statements",
  ) {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("kind", kind);
    form.set("file", new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
    return b.post(documents.action as Handler, "/credit/documents", form);
  }

  it("takes a PDF and an image by their content, lists them with their sizes, and removes one", async () => {
    const b = browser();
    await b.post(stepAction, "/credit/business", BUSINESS, { step: "business" });
    expect((await upload(b, { name: "statements.pdf", type: "application/pdf", bytes: plainPdf() })).location).toBe(
      "/credit/documents?notice=uploaded",
    );
    // The declared type and the name do not matter: this PNG says it is a PDF.
    expect(
      (await upload(b, { name: "scan.pdf", type: "application/pdf", bytes: await pngWithMetadata() }, "identification"))
        .status,
    ).toBe(303);
    const page = await b.get(documents.loader as Handler, "/credit/documents");
    expect(page.data.documents.map((d: { fileName: string; kind: string }) => [d.fileName, d.kind])).toEqual([
      ["statements.pdf", "financial-statements"],
      ["scan.pdf", "identification"],
    ]);
    // The size of what is stored: the PDF as written anew (decision 057).
    const stored = await checkDocument({ name: "statements.pdf", bytes: plainPdf() });
    expect(stored.ok && page.data.documents[0].size).toBe(`${stored.ok ? stored.document.byteSize : 0} B`);
    const removeForm = new FormData();
    removeForm.set("intent", "remove");
    removeForm.set("documentId", page.data.documents[0].id);
    expect((await b.post(documents.action as Handler, "/credit/documents", removeForm)).location).toBe(
      "/credit/documents?notice=removed",
    );
    expect((await b.get(documents.loader as Handler, "/credit/documents")).data.documents).toHaveLength(1);
  });

  it("refuses an executable renamed .pdf, a missing kind or file, and a robot: nothing stored", async () => {
    const b = browser();
    await b.post(stepAction, "/credit/business", BUSINESS, { step: "business" });
    const before = await handle.db.selectFrom("credit_application_documents").select("id").execute();
    const exe = await upload(b, { name: "invoice.pdf", type: "application/pdf", bytes: windowsExecutable() });
    expect(exe.status).toBe(400);
    expect(exe.data.errors).toEqual({ file: "credit.documents.error.type" });
    const noKind = await upload(b, { name: "s.pdf", type: "application/pdf", bytes: plainPdf() }, "<b>passport</b>");
    expect(noKind.data).toEqual({
      errors: { kind: "credit.documents.error.kind" },
      values: { kind: "<b>passport</b>" },
    });
    const noFile = new FormData();
    noFile.set("intent", "upload");
    noFile.set("kind", "other");
    noFile.set("file", new File([], "", { type: "application/octet-stream" }));
    expect((await b.post(documents.action as Handler, "/credit/documents", noFile)).data.errors).toEqual({
      file: "credit.documents.error.file",
    });
    const robot = new FormData();
    robot.set("intent", "upload");
    robot.set("website", "x");
    robot.set("kind", "other");
    robot.set("file", new File([new Uint8Array(plainPdf())], "s.pdf"));
    expect((await b.post(documents.action as Handler, "/credit/documents", robot)).data.errors).toEqual({
      form: "credit.error.robot",
    });
    expect(await handle.db.selectFrom("credit_application_documents").select("id").execute()).toHaveLength(
      before.length,
    );
  });

  it("answers a body over the limit with 413 having read no more than the limit", async () => {
    const b = browser();
    await b.post(stepAction, "/credit/business", BUSINESS, { step: "business" });
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024);
    // A body with no declared length (chunked), far larger than the limit.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 50 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const request = new Request(`${b.origin}/credit/documents`, {
      method: "POST",
      headers: {
        host: "acme.localhost",
        origin: b.origin,
        cookie: [...b.jar].map(([n, v]) => `${n}=${v}`).join("; "),
        "content-type": "multipart/form-data; boundary=xyz",
        [CLIENT_ADDRESS_HEADER]: b.address,
      },
      body,
      duplex: "half",
    } as RequestInit);
    const page = await run(documents.action as Handler, request, {});
    expect(page.status).toBe(413);
    expect(page.data.errors).toEqual({ form: "credit.documents.error.formTooLarge" });
    expect(sent).toBeLessThan(DOCUMENT_FORM_MAX_BYTES + 4 * 1024 * 1024);
  });
});

describe("terms, check and submit", () => {
  it("goes from check your answers to one submission, its confirmation, and never again", async () => {
    const b = browser();
    await answerAll(b);
    const view = await b.get(check.loader as Handler, "/credit/check");
    expect(view.data.answered).toEqual([
      "business",
      "address",
      "contacts",
      "directors",
      "credit",
      "references",
      "bank",
      "documents",
      "terms",
    ]);
    expect(view.data.answers.business.legalName).toBe("Coastal <b>Plumbing</b> Pty Ltd");
    const oldCookies = new Map(b.jar);
    const sent = await b.post(check.action as Handler, "/credit/check", {});
    expect([sent.status, sent.location]).toEqual([303, "/credit/submitted"]);
    expect(b.jar.has("portal_credit")).toBe(false);
    const confirmation = await b.get(submitted.loader as Handler, "/credit/submitted");
    expect(confirmation.data.reference).toMatch(/^CA-[0-9A-Z]{8}$/);
    expect(confirmation.data.applicantEmail).toBe("olivia.route@coastal.example");
    // A refresh reads the same page and sends nothing.
    expect((await b.get(submitted.loader as Handler, "/credit/submitted")).data.reference).toBe(
      confirmation.data.reference,
    );
    // The same form sent again with the old cookie (a double click, the back button): the same reference, no second application.
    const repeat = browser("acme.localhost", { address: b.address });
    for (const [name, value] of oldCookies) repeat.jar.set(name, value);
    expect((await repeat.post(check.action as Handler, "/credit/check", {})).location).toBe("/credit/submitted");
    expect((await repeat.get(submitted.loader as Handler, "/credit/submitted")).data.reference).toBe(
      confirmation.data.reference,
    );
    const applications = await handle.db
      .selectFrom("credit_applications")
      .select("id")
      .where("reference", "=", confirmation.data.reference)
      .execute();
    expect(applications).toHaveLength(1);
    await catcher.waitForMail("alex.route@pipes.example", { subject: new RegExp(confirmation.data.reference) });
    // No draft any more: the steps start again.
    expect((await b.get(stepLoader, "/credit/address", { step: "address" })).location).toBe(
      "/credit/business?notice=start",
    );
    // A browser with no confirmation cookie sees the start page instead.
    expect((await browser().get(submitted.loader as Handler, "/credit/submitted")).location).toBe("/credit");
  });

  it("sends a submission with a step missing to that step, with a notice", async () => {
    const b = browser();
    await answerAll(b, { skip: ["credit"] });
    const page = await b.post(check.action as Handler, "/credit/check", {});
    expect(page.location).toBe("/credit/credit?notice=missing");
    expect(b.jar.has("portal_credit")).toBe(true);
  });

  it("refuses a robot on the check page", async () => {
    const b = browser();
    await answerAll(b);
    const page = await b.post(check.action as Handler, "/credit/check", { website: "spam" });
    expect([page.status, page.data.formError]).toEqual([400, "credit.error.robot"]);
    expect((await b.get(check.loader as Handler, "/credit/check")).status).toBe(200);
  });

  it("refuses terms accepted on a page showing an older version, and shows the new one", async () => {
    const b = browser();
    await answerAll(b, { skip: ["terms"] });
    const view = await b.get(terms.loader as Handler, "/credit/terms");
    const acme = (
      await handle.db
        .selectFrom("hosts")
        .select("business_id")
        .where("hostname", "=", "acme.localhost")
        .executeTakeFirstOrThrow()
    ).business_id;
    const current = (await creditTerms(acme))!;
    await publishAgreementVersion(acme, current.documentId, {
      body: `${current.body}\nA clause added while the applicant read.\n`,
    });
    const page = await b.post(terms.action as Handler, "/credit/terms", {
      versionId: view.data.terms.versionId,
      typedName: "Olivia",
      agreed: "yes",
    });
    expect(page.location).toBe("/credit/terms?notice=changed");
    const fresh = await b.get(terms.loader as Handler, "/credit/terms?notice=changed");
    expect(fresh.data.terms.version).toBe(view.data.terms.version + 1);
    expect(fresh.data.notice).toBe("changed");
    const noName = await b.post(terms.action as Handler, "/credit/terms", {
      versionId: fresh.data.terms.versionId,
      typedName: "",
      agreed: "yes",
    });
    expect([noName.status, noName.data.errors]).toEqual([400, { typedName: "agreement.error.name.required" }]);
  });
});
