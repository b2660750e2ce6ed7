import { data, redirect } from "@remix-run/node";
import { formatMoney, type PageDates } from "~/lib/format";
import { AU_STATES } from "~/lib/au-postcodes";
import {
  addressLines,
  FIELD_MAX,
  KIND_CHOICES,
  NAME_REQUIRED,
  type Address,
  type ResponseChoice,
} from "~/lib/responses";
import type { HostBranding } from "../host/host.server";
import { LINK_PAGE_HEADERS, linkInvalid } from "../links/link-pages.server";
import { checkLinkAccess, type LinkToken } from "../links/link-tokens.server";
import { businessContact } from "../links/request-links.server";
import { now } from "../platform/clock.server";
import { readFormReportingControls, withoutControlCharacters } from "../platform/http.server";
import { clientAddress } from "../platform/request-context.server";
import {
  ANSWER_FIELDS,
  readAnswer,
  type AnswerErrors,
  type AnswerField,
  type AnswerValues,
} from "./response-input.server";
import { answerResponseRequest, loadResponseRequest, type ResponsePageRequest } from "./responses.server";

/**
 * The pages a response request's emailed link opens (issue 17; decisions 031 and 040):
 * `/response/<token>` — what the business asks and the answer form — and, once answered,
 * `/response/complete/<token>` — exactly what was recorded, which is what the link shows from
 * then on. Every loader and action checks the link with `checkLinkAccess` (purpose `response`):
 * token, then the request, then whether the link's contact may still act for the account.
 */
export type ResponseContext = {
  branding: HostBranding;
  /** The page's dates: the business's zone, the page's language (`pageDates`, decision 078). */
  dates: PageDates;
  request: ResponsePageRequest;
  token: string;
  link: LinkToken;
  status: "valid" | "expired" | "revoked" | "withdrawn";
};

export const questionPath = (token: string) => `/response/${token}`;
export const completePath = (token: string) => `/response/complete/${token}`;

/** The request an emailed link opens, or "This link isn't valid" (404) for any token that does not check out. */
export async function responseByLink(
  branding: HostBranding,
  token: string | undefined,
  dates: PageDates,
): Promise<ResponseContext> {
  const access = await checkLinkAccess(
    branding.businessId,
    "response",
    token,
    (link) => loadResponseRequest(branding.businessId, link.subjectId),
    now(),
  );
  if (access.status === "unknown") throw linkInvalid();
  return { branding, dates, request: access.record, token: token!, link: access.link, status: access.status };
}

export type ClosedReason = "withdrawn" | "expired" | "replaced" | "answered";

/**
 * Why the link opens neither the form nor the record, or null. As decision 031 orders it: a
 * contact who may no longer act for the account, or a request the business withdrew, reads
 * "withdrawn" before anything else; an answered request shows its record under a live link and
 * only "already answered" (the date, nothing of the answer) under a replaced or expired one; an
 * open request under a revoked link is "replaced", past its expiry "expired".
 */
export function closedReason(context: ResponseContext): ClosedReason | null {
  const { request, status } = context;
  if (status === "withdrawn" || request.state === "withdrawn") return "withdrawn";
  if (request.state === "answered") return status === "valid" ? null : "answered";
  if (status === "revoked") return "replaced";
  if (status === "expired" || request.state === "expired") return "expired";
  return null;
}

const redirectTo = (path: string, status: 302 | 303) => redirect(path, { status, headers: LINK_PAGE_HEADERS });

async function closedView(context: ResponseContext, reason: ClosedReason) {
  const { branding, request, dates } = context;
  return {
    kind: "closed" as const,
    reason,
    reference: request.reference,
    businessName: branding.businessName,
    answeredOn: reason === "answered" && request.answer ? dates.date(request.answer.answeredAt) : null,
    contact: await businessContact(branding.businessId),
  };
}

/** What the business asks, worded for the page (money in the business's currency, dates as the page writes them). */
function questionFacts(context: ResponseContext) {
  const { branding, request } = context;
  const money = (cents: number) => formatMoney(cents, { currency: request.currency });
  const day = context.dates.date;
  const { address, statement, dispute } = request.details;
  return {
    reference: request.reference,
    kind: request.kind,
    businessName: branding.businessName,
    account: `${request.accountName} (${request.accountNumber})`,
    expires: day(request.expiresAt),
    message: request.message,
    address: address ? addressLines(address) : null,
    statement: statement
      ? {
          date: day(statement.periodEnd),
          periodStart: statement.periodStart ? day(statement.periodStart) : null,
          balance: money(Math.abs(statement.closingBalanceCents)),
          inCredit: statement.closingBalanceCents < 0,
        }
      : null,
    dispute: dispute
      ? {
          invoice: dispute.invoice.number,
          issued: day(dispute.invoice.issueDate),
          amount: money(dispute.invoice.amountCents),
          disputeReason: dispute.invoice.disputeReason,
          resolution:
            dispute.resolution.type === "credit"
              ? {
                  type: "credit" as const,
                  amount: money(dispute.resolution.amountCents),
                  note: dispute.resolution.note,
                }
              : { type: "position" as const, text: dispute.resolution.text },
        }
      : null,
  };
}

export type QuestionFacts = ReturnType<typeof questionFacts>;

/** The answer form's setup: the kind's choices, the limits, the address's starting country. */
function formSetup(request: ResponsePageRequest) {
  const stated: Address | undefined = request.details.address;
  return {
    choices: KIND_CHOICES[request.kind] as readonly ResponseChoice[],
    nameRequired: NAME_REQUIRED[request.kind],
    max: FIELD_MAX,
    states: AU_STATES,
    country: stated?.country ?? "AU",
  };
}

/**
 * `/response/<token>`: the form while the request is open; once answered under a live link, a
 * redirect to the complete page (what the link shows from then on); otherwise why it is closed.
 */
export async function questionView(context: ResponseContext) {
  const reason = closedReason(context);
  if (reason) return closedView(context, reason);
  if (context.request.answer) throw redirectTo(completePath(context.token), 302);
  return { kind: "open" as const, question: questionFacts(context), form: formSetup(context.request) };
}

/**
 * `/response/complete/<token>`: what was recorded — the question as asked, the choice and what
 * came with it, the name typed and when. The network address it came from stays in the record and
 * the back-office API, not on a page anyone holding the link (a forwarded email) can open.
 * An open request goes back to its question; a closed one says why.
 */
export async function completeView(request: Request, context: ResponseContext) {
  const reason = closedReason(context);
  if (reason) return closedView(context, reason);
  const answer = context.request.answer;
  if (!answer) throw redirectTo(questionPath(context.token), 302);
  const { branding } = context;
  const notice = new URL(request.url).searchParams.get("notice") === "already" ? ("already" as const) : null;
  return {
    kind: "complete" as const,
    question: questionFacts(context),
    notice,
    answer: {
      choice: answer.choice,
      address: answer.details.address ? addressLines(answer.details.address) : null,
      note: answer.details.note ?? null,
      reason: answer.details.reason ?? null,
      typedName: answer.typedName,
      time: context.dates.dateTime(answer.answeredAt),
    },
    contact: await businessContact(branding.businessId),
  };
}

export type ResponseReply = { errors: AnswerErrors & { form?: AnswerErrors["choice"] }; values: AnswerValues };

/** What a reply may echo of a field: enough to correct it, never a megabyte reflected back. */
const ECHO_MAX = 4_000;

/**
 * The answer's body, and whether it held control characters. `readForm` refuses those for every
 * form; here they are the answer's problem instead, said at the field that held them with the
 * rest of what was typed kept (the body was within the size limit, or readForm would have said 413).
 */
async function readAnswerForm(request: Request): Promise<{ form: FormData; controls: boolean }> {
  return readFormReportingControls(request);
}

/**
 * The answer's POST. A recorded answer redirects to the complete page (POST/redirect/GET); so does
 * a second submission, or the loser of two at once, which find the first answer (with a notice
 * that nothing new was recorded). A request closed meanwhile redirects to its question page,
 * which says why. Only the form's own mistakes answer 400 with the form as typed and each error
 * at its field — control characters too, taken out of what is shown back and named at their
 * field. Nothing is written unless the answer is recorded.
 */
export async function answerAction(request: Request, context: ResponseContext) {
  const { branding, request: record, token, link } = context;
  const { form, controls } = await readAnswerForm(request);
  const reason = closedReason(context);
  if (record.answer) {
    throw redirectTo(reason ? questionPath(token) : `${completePath(token)}?notice=already`, 303);
  }
  if (reason) throw redirectTo(questionPath(token), 303);
  const typed: AnswerValues = {};
  const held: AnswerField[] = [];
  for (const name of ANSWER_FIELDS) {
    const value = form.get(name);
    if (typeof value !== "string") continue;
    typed[name] = withoutControlCharacters(value);
    if (typed[name] !== value) held.push(name);
  }
  const values: AnswerValues = Object.fromEntries(
    Object.entries(typed).map(([name, value]) => [name, value.slice(0, ECHO_MAX)]),
  );
  // Read from the form itself, not the clipped echo: an oversized field is refused as too long.
  const parsed = readAnswer(record.kind, typed, record.details.address ?? null);
  if (controls || !parsed.ok) {
    const errors: ResponseReply["errors"] = parsed.ok ? {} : { ...parsed.errors };
    for (const name of held) errors[name] = "response.error.controlCharacters";
    // Held by a field the form does not have (only a tool sends one): said above the form.
    if (controls && !held.length) errors.form = "response.error.characters";
    return data({ errors, values } satisfies ResponseReply, { status: 400, headers: LINK_PAGE_HEADERS });
  }
  const result = await answerResponseRequest({
    businessId: branding.businessId,
    requestId: record.id,
    contactId: link.contactId,
    linkTokenId: link.id,
    choice: parsed.choice,
    details: parsed.details,
    typedName: parsed.typedName,
    clientAddress: clientAddress(request),
    userAgent: request.headers.get("user-agent"),
  });
  if (result.ok) throw redirectTo(completePath(token), 303);
  if (result.problem === "answered") throw redirectTo(`${completePath(token)}?notice=already`, 303);
  throw redirectTo(questionPath(token), 303);
}
