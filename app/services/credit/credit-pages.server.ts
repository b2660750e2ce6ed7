import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import { createCookie, data, redirect } from "@remix-run/node";
import { z } from "zod";
import { formatRouting, maskAccountNumber } from "~/lib/bank-account";
import { DOCUMENT_PROBLEM_MESSAGES } from "~/lib/credit-documents";
import { documentKindSchema, stepFormValues, stepSchema } from "~/lib/credit-schemas";
import {
  CREDIT_STEPS,
  DOCUMENT_FORM_MAX_BYTES,
  DRAFT_DAYS,
  HONEYPOT_FIELD,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS,
  nextStep,
  previousStep,
  stepPath,
  type PlainCreditStep,
  type CreditAnswers,
  type CreditStep,
  type DocumentKind,
} from "~/lib/credit-steps";
import { formatFileSize, formatMoney } from "~/lib/format";
import type { MessageKey } from "~/lib/i18n";
import { getPageContext } from "../auth/auth.server";
import type { HostBranding } from "../host/host.server";
import { pageDates } from "../host/language.server";
import { businessContact } from "../links/request-links.server";
import { now } from "../platform/clock.server";
import { getEnv } from "../platform/env.server";
import { hasControlCharacters, parseFormBody, readCapped, readForm } from "../platform/http.server";
import { parseSubmission } from "../platform/form-limits.server";
import { clientAddress, isSecureRequest } from "../platform/request-context.server";
import {
  acceptDraftTerms,
  addDraftDocument,
  allowUpload,
  createDraft,
  creditTerms,
  discardDraft,
  draftProgress,
  DRAFT_KEY_PATTERN,
  findDraft,
  removeDraftDocument,
  saveDraftStep,
  submitApplication,
  submittedApplication,
  type Draft,
} from "./credit-applications.server";
import { checkDocument } from "./document-checks.server";

/**
 * The credit application's pages (issue 17; decision 038): what each loader shows and what each
 * action does, for the routes under /credit. Every page is signed out and belongs to the
 * business of the host; the applicant's draft is found by the key in their cookie.
 *
 * Every step is a plain POST: a valid answer is saved and the browser is sent on (POST/redirect/
 * GET); a wrong one re-renders the step with what was typed and the errors (400). A step posted
 * out of order is saved and the applicant sent to the first step still to answer, with a notice
 * there; without a draft, to the first step.
 */

// ---------------------------------------------------------------------------------------------
// Cookies: the draft's key, and the reference just sent

const DRAFT_COOKIE = "portal_credit";
const SECURE_DRAFT_COOKIE = "__Host-portal_credit";
const SENT_COOKIE = "portal_credit_sent";
const SECURE_SENT_COOKIE = "__Host-portal_credit_sent";
/** The confirmation page shows the reference for an hour (a refresh, a return from the mail app). */
const SENT_SECONDS = 60 * 60;

/**
 * Per host (no Domain: a sibling tenant never receives it), HttpOnly, SameSite=Lax, Secure and
 * `__Host-` over https (decided by the request's scheme, as the session cookie is, so
 * http://*.localhost works), signed with the portal's secret.
 */
function cookie(request: Request, kind: "draft" | "sent") {
  const secure = isSecureRequest(request);
  const name =
    kind === "draft" ? (secure ? SECURE_DRAFT_COOKIE : DRAFT_COOKIE) : secure ? SECURE_SENT_COOKIE : SENT_COOKIE;
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    maxAge: kind === "draft" ? DRAFT_DAYS * 86_400 : SENT_SECONDS,
    secrets: [getEnv().SESSION_SECRET],
  });
}

export async function readDraftKey(request: Request): Promise<string | null> {
  const value: unknown = await cookie(request, "draft")
    .parse(request.headers.get("cookie"))
    .catch(() => null);
  return typeof value === "string" && DRAFT_KEY_PATTERN.test(value) ? value : null;
}

async function readSentReference(request: Request): Promise<string | null> {
  const value: unknown = await cookie(request, "sent")
    .parse(request.headers.get("cookie"))
    .catch(() => null);
  return typeof value === "string" && /^CA-[0-9A-Z]{6,10}$/.test(value) ? value : null;
}

const draftCookie = (request: Request, key: string) => cookie(request, "draft").serialize(key);
const clearDraftCookie = (request: Request) => cookie(request, "draft").serialize("", { maxAge: 0 });

/** Credit pages hold what an applicant typed: never kept by a shared cache. */
export const CREDIT_PAGE_HEADERS = { "Cache-Control": "private, no-store" } as const;

// ---------------------------------------------------------------------------------------------
// Notices (after a redirect: POST/redirect/GET)

export const CREDIT_NOTICES = [
  "start",
  "incomplete",
  "missing",
  "recheck",
  "changed",
  "stale",
  "uploaded",
  "removed",
  "discarded",
  "none",
] as const;
export type CreditNotice = (typeof CREDIT_NOTICES)[number];

function noticeOf(request: Request): CreditNotice | null {
  const value = new URL(request.url).searchParams.get("notice");
  return (CREDIT_NOTICES as readonly string[]).includes(value ?? "") ? (value as CreditNotice) : null;
}

const isChange = (request: Request) => new URL(request.url).searchParams.get("change") === "1";

function go(path: string, notice?: CreditNotice | null, headers?: HeadersInit) {
  const target = notice ? `${path}?notice=${notice}` : path;
  return redirect(target, { status: 303, headers: { ...CREDIT_PAGE_HEADERS, ...(headers as Record<string, string>) } });
}

// ---------------------------------------------------------------------------------------------
// Context

export type CreditContext = { branding: HostBranding; key: string | null; draft: Draft | null };

export async function creditContext(request: Request): Promise<CreditContext> {
  const { branding } = await getPageContext(request);
  const key = await readDraftKey(request);
  const draft = await findDraft(branding.businessId, key);
  return { branding, key, draft };
}

/** Where to go after a step is saved: on, or back to the first step still to answer. */
function afterSave(step: CreditStep, draft: Pick<Draft, "answers" | "terms">, toCheck: boolean) {
  const { firstMissing } = draftProgress(draft);
  if (toCheck) return firstMissing ? go(stepPath(firstMissing), "incomplete") : go(stepPath("check"));
  if (firstMissing && CREDIT_STEPS.indexOf(firstMissing) < CREDIT_STEPS.indexOf(step)) {
    return go(stepPath(firstMissing), "incomplete");
  }
  return go(stepPath(nextStep(step)));
}

/** A later step opened or posted with no draft: the application starts at the first step. */
const startHere = () => go(stepPath("business"), "start");

function frame(branding: HostBranding, step: CreditStep | "check", request: Request) {
  const previous = previousStep(step);
  return {
    step,
    position: step === "check" ? CREDIT_STEPS.length + 1 : CREDIT_STEPS.indexOf(step) + 1,
    total: CREDIT_STEPS.length,
    businessName: branding.businessName,
    notice: noticeOf(request),
    change: step !== "check" && isChange(request),
    backHref: isChange(request) ? stepPath("check") : previous ? stepPath(previous) : "/credit",
    honeypot: HONEYPOT_FIELD,
  };
}

/** The fields a step's form sends besides its schema's: the honeypot, and "back to the check page". */
const STEP_FORM_FIELDS = [HONEYPOT_FIELD, "returnTo"] as const;

function honeypotFilled(form: FormData) {
  const value = form.get(HONEYPOT_FIELD);
  return typeof value === "string" ? value.trim() !== "" : value !== null;
}

// ---------------------------------------------------------------------------------------------
// The start page

export async function startView(request: Request) {
  const { branding, draft } = await creditContext(request);
  const terms = await creditTerms(branding.businessId);
  const contact = await businessContact(branding.businessId);
  const progress = draftProgress(draft);
  const { date } = await pageDates(request, branding);
  return data(
    {
      businessName: branding.businessName,
      country: branding.country,
      open: terms !== null,
      contact,
      notice: noticeOf(request),
      draft: draft
        ? {
            continueHref: stepPath(progress.firstMissing ?? "check"),
            expires: date(draft.expiresAt),
            answered: progress.answered.length,
          }
        : null,
      total: CREDIT_STEPS.length,
      draftDays: DRAFT_DAYS,
      maxSize: formatFileSize(MAX_DOCUMENT_BYTES),
    },
    { headers: CREDIT_PAGE_HEADERS },
  );
}

/** "Start again": forgets the draft (answers, documents) and the browser's key. */
export async function startAction(request: Request) {
  const { draft } = await creditContext(request);
  const form = await readForm(request);
  if (form.get("intent") !== "discard") throw data({ reason: "bad-form" }, { status: 400 });
  if (draft) await discardDraft(draft);
  return go("/credit", draft ? "discarded" : null, { "Set-Cookie": await clearDraftCookie(request) });
}

// ---------------------------------------------------------------------------------------------
// The steps with plain fields

export type PlainStep = PlainCreditStep;

export async function stepView(request: Request, step: PlainStep) {
  const { branding, draft } = await creditContext(request);
  if (!draft && step !== "business") throw startHere();
  if (!draft && !(await creditTerms(branding.businessId))) throw go("/credit");
  const country = draft?.country ?? branding.country;
  const answers = draft?.answers ?? {};
  return data(
    {
      ...frame(branding, step, request),
      step,
      country,
      currency: branding.currency,
      values: stepFormValues(step, answers),
      constraint: getZodConstraint(stepSchema(step, country, answers)),
    },
    { headers: CREDIT_PAGE_HEADERS },
  );
}

export type StepReply = { result: SubmissionResult<string[]>; formError: MessageKey | null };

/** More fields than any step's form has (the largest has a few dozen): the echo below keeps no more. */
const ECHOED_FIELDS_MAX = 200;

/** The form as typed, with one message for the whole form (a robot, a limit): nothing else is judged. */
function formReply(form: FormData, formError: MessageKey, status: number) {
  const schema = z.record(z.unknown()).refine((fields) => Object.keys(fields).length <= ECHOED_FIELDS_MAX);
  const submission = parseSubmission(form, { schema });
  return data({ result: submission.reply(), formError } satisfies StepReply, {
    status,
    headers: CREDIT_PAGE_HEADERS,
  });
}

export async function stepAction(request: Request, step: PlainStep) {
  const { branding, key, draft } = await creditContext(request);
  const form = await readForm(request);
  if (honeypotFilled(form)) return formReply(form, "credit.error.robot", 400);
  if (!draft && step !== "business") return startHere();
  const country = draft?.country ?? branding.country;
  const answers = draft?.answers ?? {};
  const submission = parseSubmission(form, { schema: stepSchema(step, country, answers), allow: STEP_FORM_FIELDS });
  if (submission.status !== "success") {
    // A list's "add" or "remove" (no status) re-renders with the list changed: nothing is saved.
    return data({ result: submission.reply(), formError: null } satisfies StepReply, {
      status: submission.status === "error" ? 400 : 200,
      headers: CREDIT_PAGE_HEADERS,
    });
  }
  const toCheck = form.get("returnTo") === "check";
  if (!draft) {
    if (!(await creditTerms(branding.businessId))) return go("/credit");
    const created = await createDraft({
      businessId: branding.businessId,
      country,
      clientAddress: clientAddress(request),
      business: submission.value as NonNullable<Draft["answers"]["business"]>,
    });
    if (!created.ok) return formReply(form, "credit.error.rateLimited.draft", 429);
    const headers = { "Set-Cookie": await draftCookie(request, created.key) };
    return go(stepPath(nextStep("business")), null, headers);
  }
  const saved = await saveDraftStep(draft, step, submission.value as never);
  if (!saved.ok) return startHere();
  const updated = { answers: { ...draft.answers, [step]: submission.value }, terms: draft.terms };
  const response = afterSave(step, updated, toCheck);
  // The draft lives on for another DRAFT_DAYS: so does the browser's key.
  if (key) response.headers.append("Set-Cookie", await draftCookie(request, key));
  return response;
}

// ---------------------------------------------------------------------------------------------
// Documents

export async function documentsView(request: Request) {
  const { branding, draft } = await creditContext(request);
  if (!draft) throw startHere();
  return data(
    {
      ...frame(branding, "documents", request),
      documents: draft.documents.map((document) => ({
        id: document.id,
        kind: document.kind,
        fileName: document.fileName,
        size: formatFileSize(document.byteSize),
      })),
      maxDocuments: MAX_DOCUMENTS,
      maxBytes: MAX_DOCUMENT_BYTES,
      maxSize: formatFileSize(MAX_DOCUMENT_BYTES),
    },
    { headers: CREDIT_PAGE_HEADERS },
  );
}

export type DocumentsReply = {
  errors: { kind?: MessageKey; file?: MessageKey; form?: MessageKey };
  values: { kind: string };
};

function documentsReply(reply: DocumentsReply, status: number) {
  return data(reply, { status, headers: CREDIT_PAGE_HEADERS });
}

type DocumentsForm =
  | { ok: true; fields: Record<string, string>; file: { name: string; bytes: Uint8Array } | null }
  | { ok: false; problem: "tooLarge" | "malformed" };

/**
 * The documents step's body, multipart: at most DOCUMENT_FORM_MAX_BYTES read whatever the
 * declared length says (the edge refuses a larger declared one unread), so memory stays bounded
 * by one file. One file field, `file`; text fields keep their first value; control characters
 * in a name or a value: malformed.
 */
async function readDocumentsForm(request: Request): Promise<DocumentsForm> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded")) {
    return { ok: false, problem: "malformed" };
  }
  const body = await readCapped(request, DOCUMENT_FORM_MAX_BYTES);
  if (body === null) return { ok: false, problem: "tooLarge" };
  // Counted and named within the form limits before and as it is parsed (form-limits.server.ts).
  const parsed = await parseFormBody(body, request.headers.get("content-type")!);
  if (!parsed.ok) return { ok: false, problem: "malformed" };
  const { form } = parsed;
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  let file: { name: string; bytes: Uint8Array } | null = null;
  let files = 0;
  for (const [name, value] of form) {
    if (hasControlCharacters(name)) return { ok: false, problem: "malformed" };
    if (typeof value === "string") {
      if (hasControlCharacters(value)) return { ok: false, problem: "malformed" };
      // A file input left empty may arrive as an empty text part.
      if (name === "file" && value === "") continue;
      if (!(name in fields)) fields[name] = value;
      continue;
    }
    if (name !== "file" || ++files > 1) return { ok: false, problem: "malformed" };
    // A browser sends an empty part (no name, no bytes) for a file input left empty.
    if (value.size === 0 && value.name === "") continue;
    file = { name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) };
  }
  return { ok: true, fields, file };
}

export async function documentsAction(request: Request) {
  const { key, draft } = await creditContext(request);
  const read = await readDocumentsForm(request);
  if (!read.ok) {
    const form =
      read.problem === "tooLarge" ? "credit.documents.error.formTooLarge" : "credit.documents.error.malformed";
    return documentsReply({ errors: { form }, values: { kind: "" } }, read.problem === "tooLarge" ? 413 : 400);
  }
  const { fields, file } = read;
  const values = { kind: (fields.kind ?? "").slice(0, 40) };
  if ((fields[HONEYPOT_FIELD] ?? "").trim() !== "") {
    return documentsReply({ errors: { form: "credit.error.robot" }, values }, 400);
  }
  if (!draft) return startHere();
  const intent = fields.intent;
  if (intent === "remove") {
    await removeDraftDocument(draft, fields.documentId ?? "");
    return go(stepPath("documents"), "removed");
  }
  if (intent !== "upload" && intent !== "continue") {
    return documentsReply({ errors: { form: "credit.documents.error.malformed" }, values }, 400);
  }
  if (file) {
    if (!(await allowUpload(draft.businessId, clientAddress(request)))) {
      return documentsReply({ errors: { form: "credit.error.rateLimited.upload" }, values }, 429);
    }
    const kind = documentKindSchema.safeParse({ kind: fields.kind });
    const checked = await checkDocument(file);
    const errors: DocumentsReply["errors"] = {};
    if (!kind.success) errors.kind = "credit.documents.error.kind";
    if (!checked.ok) errors.file = DOCUMENT_PROBLEM_MESSAGES[checked.problem];
    if (!kind.success || !checked.ok) return documentsReply({ errors, values }, 400);
    const added = await addDraftDocument({ draft, kind: kind.data.kind as DocumentKind, document: checked.document });
    if (!added.ok) {
      if (added.problem === "gone") return startHere();
      return documentsReply({ errors: { file: DOCUMENT_PROBLEM_MESSAGES.tooMany }, values }, 400);
    }
  } else if (intent === "upload") {
    return documentsReply({ errors: { file: "credit.documents.error.file" }, values }, 400);
  }
  if (intent === "upload") return go(stepPath("documents"), "uploaded");
  const saved = await saveDraftStep(draft, "documents", { done: true });
  if (!saved.ok) return startHere();
  const response = afterSave(
    "documents",
    { answers: { ...draft.answers, documents: { done: true } }, terms: draft.terms },
    fields.returnTo === "check",
  );
  if (key) response.headers.append("Set-Cookie", await draftCookie(request, key));
  return response;
}

// ---------------------------------------------------------------------------------------------
// Terms

export async function termsView(request: Request) {
  const { branding, draft } = await creditContext(request);
  if (!draft) throw startHere();
  const terms = await creditTerms(branding.businessId);
  if (!terms) throw go("/credit");
  const accepted = draft.terms && draft.terms.versionId === terms.versionId ? draft.terms : null;
  const { date } = await pageDates(request, branding);
  return data(
    {
      ...frame(branding, "terms", request),
      terms: {
        title: terms.title,
        versionId: terms.versionId,
        version: terms.version,
        published: date(terms.publishedAt),
        body: terms.body,
      },
      accepted: accepted ? { name: accepted.typedName, on: date(accepted.acceptedAt) } : null,
    },
    { headers: CREDIT_PAGE_HEADERS },
  );
}

export type TermsReply = {
  errors: { typedName?: MessageKey; agreed?: MessageKey; form?: MessageKey };
  values: { typedName: string; agreed: boolean };
};

export async function termsAction(request: Request) {
  const { key, draft } = await creditContext(request);
  const form = await readForm(request);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const values = { typedName: text("typedName").slice(0, 1_000), agreed: text("agreed") === "yes" };
  if (honeypotFilled(form)) {
    return data<TermsReply>(
      { errors: { form: "credit.error.robot" }, values },
      {
        status: 400,
        headers: CREDIT_PAGE_HEADERS,
      },
    );
  }
  if (!draft) return startHere();
  const result = await acceptDraftTerms({
    draft,
    versionId: form.get("versionId"),
    typedName: form.get("typedName"),
    agreed: values.agreed,
    clientAddress: clientAddress(request),
    userAgent: request.headers.get("user-agent"),
  });
  if (!result.ok) {
    if (result.problem === "fields") {
      return data<TermsReply>(
        { errors: result.errors, values },
        {
          status: 400,
          headers: CREDIT_PAGE_HEADERS,
        },
      );
    }
    if (result.problem === "changed" || result.problem === "stale") return go(stepPath("terms"), result.problem);
    if (result.problem === "none") return go("/credit");
    return startHere();
  }
  const terms = { versionId: "accepted", sha256: "", typedName: "", acceptedAt: now() };
  const response = afterSave("terms", { answers: draft.answers, terms }, form.get("returnTo") === "check");
  if (key) response.headers.append("Set-Cookie", await draftCookie(request, key));
  return response;
}

// ---------------------------------------------------------------------------------------------
// Check your answers, and submit

function maskedBank(bank: CreditAnswers["bank"]): CreditAnswers["bank"] {
  return bank?.directDebit ? { ...bank, accountNumber: maskAccountNumber(bank.accountNumber) } : bank;
}

function bankShown(country: "AU" | "NZ", bank: CreditAnswers["bank"]) {
  if (!bank?.directDebit) return null;
  const account = maskAccountNumber(bank.accountNumber);
  return { routing: country === "AU" ? formatRouting("AU", bank.routing) : `${bank.routing}-${account}`, account };
}

export async function checkView(request: Request) {
  const { branding, draft } = await creditContext(request);
  if (!draft) throw startHere();
  const terms = await creditTerms(branding.businessId);
  const progress = draftProgress(draft);
  return data(
    {
      ...frame(branding, "check", request),
      country: draft.country,
      currency: branding.currency,
      // The account number leaves the server masked, as the page shows it.
      answers: { ...draft.answers, bank: maskedBank(draft.answers.bank) },
      bankShown: bankShown(draft.country, draft.answers.bank),
      // Formatted here, so the page ships no money or bank formatter (decision 038's weight note).
      money: draft.answers.credit
        ? {
            limit: formatMoney(draft.answers.credit.limitCents, { currency: branding.currency }),
            monthly: formatMoney(draft.answers.credit.monthlyCents, { currency: branding.currency }),
          }
        : null,
      answered: progress.answered,
      documents: draft.documents.map((document) => ({
        id: document.id,
        kind: document.kind,
        fileName: document.fileName,
        size: formatFileSize(document.byteSize),
      })),
      terms:
        draft.terms && terms
          ? {
              title: terms.title,
              version: terms.versionId === draft.terms.versionId ? terms.version : null,
              name: draft.terms.typedName,
            }
          : null,
    },
    { headers: CREDIT_PAGE_HEADERS },
  );
}

export async function submitAction(request: Request) {
  const { branding } = await getPageContext(request);
  const key = await readDraftKey(request);
  const form = await readForm(request);
  if (honeypotFilled(form)) {
    return data({ formError: "credit.error.robot" as MessageKey }, { status: 400, headers: CREDIT_PAGE_HEADERS });
  }
  const result = await submitApplication({
    businessId: branding.businessId,
    key,
    clientAddress: clientAddress(request),
  });
  if (result.ok) {
    const headers = new Headers(CREDIT_PAGE_HEADERS);
    headers.append("Set-Cookie", await clearDraftCookie(request));
    headers.append("Set-Cookie", await cookie(request, "sent").serialize(result.reference));
    return redirect("/credit/submitted", { status: 303, headers });
  }
  switch (result.problem) {
    case "none":
      return go("/credit", "none", { "Set-Cookie": await clearDraftCookie(request) });
    case "missing":
      return go(stepPath(result.step), result.step === "references" ? "recheck" : "missing");
    case "termsChanged":
      return go(stepPath("terms"), "changed");
    case "rateLimited":
      return data(
        { formError: "credit.error.rateLimited.submit" as MessageKey },
        {
          status: 429,
          headers: CREDIT_PAGE_HEADERS,
        },
      );
  }
}

// ---------------------------------------------------------------------------------------------
// The confirmation

export async function submittedView(request: Request) {
  const { branding } = await getPageContext(request);
  const reference = await readSentReference(request);
  const application = reference ? await submittedApplication(branding.businessId, reference) : null;
  if (!application) throw go("/credit");
  const { date } = await pageDates(request, branding);
  return data(
    {
      businessName: branding.businessName,
      reference: application.reference,
      applicantEmail: application.applicantEmail,
      submitted: date(application.submittedAt),
    },
    { headers: CREDIT_PAGE_HEADERS },
  );
}
