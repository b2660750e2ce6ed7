import { data, redirect } from "@remix-run/node";
import { pageDates } from "../host/language.server";
import type { RefereeFormValues } from "~/lib/trade-reference";
import type { HostBranding } from "../host/host.server";
import { LINK_PAGE_HEADERS, linkInvalid } from "../links/link-pages.server";
import { businessContact } from "../links/request-links.server";
import { readFormReportingControls } from "../platform/http.server";
import { clientAddress } from "../platform/request-context.server";
import {
  answerTradeReference,
  checkRefereeLink,
  countRefereeCheck,
  forgiveRefereeCheck,
  readRefereeAnswer,
  recordRefereeOpened,
  tradeReferencePath,
  type RefereeErrors,
  type RefereeLinkCheck,
} from "./trade-references.server";

/**
 * The referee's page, `/credit-trade-reference/<token>` (issue 17; decision 041): what its loader
 * and action do, so the route stays a page. Decision 031's link rules: a token that does not check
 * out is "This link isn't valid" (404, nothing more); a GET shows and counts, never spends; the
 * POST answers once; every answer (redirects and errors too) keeps the token out of Referers and
 * caches. Token checks are limited per client address.
 */
export type RefereeCheckedLink = Exclude<RefereeLinkCheck, { status: "unknown" }> & { token: string };

/** Too many misses from this address: the error page says to wait (429, nothing checked). */
function tooManyTries() {
  return data({ reason: "rate-limited" }, { status: 429, headers: { ...LINK_PAGE_HEADERS, "Retry-After": "900" } });
}

/**
 * The link in the path, checked: counted against the client address first (a locked address
 * checks nothing), and forgiven when it is a real link. Throws the 404 or 429 page.
 */
export async function requireRefereeLink(
  request: Request,
  branding: HostBranding,
  token: string | undefined,
): Promise<RefereeCheckedLink> {
  const address = clientAddress(request);
  if (!(await countRefereeCheck(branding.businessId, address))) throw tooManyTries();
  const check = await checkRefereeLink(branding.businessId, token);
  if (check.status === "unknown") throw linkInvalid();
  await forgiveRefereeCheck(branding.businessId, address);
  return { ...check, token: token! };
}

export type RefereeClosedReason = "thanks" | "answered" | "closed" | "expired";

export type RefereePageData =
  | {
      kind: "open";
      businessName: string;
      applicant: string;
      reference: string;
      referee: { name: string; business: string };
      expires: string;
      currency: string;
    }
  | {
      kind: "closed";
      reason: RefereeClosedReason;
      businessName: string;
      applicant: string;
      reference: string;
      date: string;
      contact: { email: string | null; phone: string | null };
    };

/** The page for a checked link: the form while it may be answered, else why not. Counts a GET of an open link. */
export async function refereePage(request: Request, branding: HostBranding, link: RefereeCheckedLink) {
  const { application } = link.link;
  const { date } = await pageDates(request, branding);
  if (link.status === "valid") {
    await recordRefereeOpened(branding.businessId, link.link.id);
    const page: RefereePageData = {
      kind: "open",
      businessName: branding.businessName,
      applicant: application.legalName,
      reference: application.reference,
      referee: { name: link.link.contactName, business: link.link.refereeBusiness },
      expires: date(link.link.linkExpiresAt),
      currency: branding.currency,
    };
    return data(page, { headers: LINK_PAGE_HEADERS });
  }
  const thanks = new URL(request.url).searchParams.get("notice") === "thanks";
  const reason: RefereeClosedReason = link.status === "answered" ? (thanks ? "thanks" : "answered") : link.status;
  const page: RefereePageData = {
    kind: "closed",
    reason,
    businessName: branding.businessName,
    applicant: application.legalName,
    reference: application.reference,
    date:
      link.status === "answered"
        ? date(link.link.answeredAt!)
        : link.status === "expired"
          ? date(link.link.linkExpiresAt)
          : "",
    contact: await businessContact(branding.businessId),
  };
  return data(page, { headers: LINK_PAGE_HEADERS });
}

export type RefereeReply = { errors: RefereeErrors; values: RefereeFormValues };

/**
 * The form's body. Control characters make `readForm` refuse the whole body; here they are an
 * answer's problem instead, said at the field that held them, with the rest of the form kept (the
 * body was within the size limit, or readForm would have said 413).
 */
async function readRefereeForm(request: Request): Promise<FormData> {
  return (await readFormReportingControls(request)).form;
}

/**
 * The answer's POST. Recorded: redirect to the thank-you page. Refused because the link no longer
 * takes an answer (answered meanwhile — another tab, a double submit —, closed, expired, replaced
 * by a resend): redirect to the page, which says which (POST/redirect/GET, with JavaScript on or
 * off). Only the form's own mistakes answer 400 with the form as typed; nothing is written then.
 */
export async function refereeAction(request: Request, branding: HostBranding, link: RefereeCheckedLink) {
  const self = tradeReferencePath(link.token);
  const back = (query = "") => redirect(`${self}${query}`, { status: 303, headers: LINK_PAGE_HEADERS });
  if (link.status !== "valid") return back();
  const form = await readRefereeForm(request);
  const reading = readRefereeAnswer(form);
  if (!reading.ok) {
    const reply: RefereeReply = { errors: reading.errors, values: reading.values };
    return data(reply, { status: 400, headers: LINK_PAGE_HEADERS });
  }
  const result = await answerTradeReference({
    businessId: branding.businessId,
    referenceId: link.link.id,
    selector: link.link.selector,
    answer: reading.answer,
    name: reading.name,
    clientAddress: clientAddress(request),
    userAgent: request.headers.get("user-agent"),
  });
  return result.ok ? back("?notice=thanks") : back();
}
