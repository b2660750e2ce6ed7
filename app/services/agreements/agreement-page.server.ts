import { data, redirect } from "@remix-run/node";
import {
  AGREEMENT_REFERENCE,
  agreementRecordFile,
  agreementRecordFileName,
  agreementTextFileName,
  TYPED_NAME_MAX,
  type AgreementRecordFacts,
} from "~/lib/agreements";
import type { PageDates } from "~/lib/format";
import type { MessageKey } from "~/lib/i18n";
import { accountNotFound, requireAccountAccess } from "../accounts/account-access.server";
import { hasPortalAccess } from "../auth/access.server";
import { requireSession } from "../auth/auth.server";
import type { HostBranding } from "../host/host.server";
import { pageDates } from "../host/language.server";
import { LINK_PAGE_HEADERS, linkInvalid, notUnderThisLink } from "../links/link-pages.server";
import { checkLinkAccess, type LinkToken } from "../links/link-tokens.server";
import { businessContact } from "../links/request-links.server";
import { now } from "../platform/clock.server";
import { readForm } from "../platform/http.server";
import { clientAddress } from "../platform/request-context.server";
import { decideAgreementOffer } from "./acceptance.server";
import { KIND_LABELS } from "./agreement-views.server";
import { loadAgreementOffer, previewOffer, type AgreementPageOffer } from "./queries.server";

/**
 * One agreement offer's pages, for both ways in (issue 15; decisions 034 and 036):
 * - by its emailed link (`/agreements/acceptance/<token>`): the link's contact decides;
 * - signed in (`/agreements/acceptance/<reference>`, and the record at `/customer/agreement/
 *   <reference>`): a portal contact who may act for the offer's account decides, as themselves;
 *   a customer-style contact only on the offers addressed to them.
 * The routes say who the way in is; this module decides what the page shows, takes the decision
 * and writes the downloads.
 */
export type AgreementWayIn =
  | { kind: "link"; token: string; link: LinkToken; status: "valid" | "expired" | "revoked" | "withdrawn" }
  | { kind: "session"; contactId: string };

export type AgreementContext = { branding: HostBranding; offer: AgreementPageOffer; wayIn: AgreementWayIn };

/** The signed-in pages name an offer by its reference; anything else in that place is a token. */
export const isAgreementReference = (slug: string | undefined) => AGREEMENT_REFERENCE.test(slug ?? "");

/** An emailed link's offer (`checkLinkAccess`: token, then record, then the contact's right to act). */
export async function agreementByLink(branding: HostBranding, token: string | undefined): Promise<AgreementContext> {
  const access = await checkLinkAccess(
    branding.businessId,
    "agreement",
    token,
    (link) => loadAgreementOffer(branding.businessId, { id: link.subjectId }),
    now(),
  );
  if (access.status === "unknown") throw linkInvalid();
  return {
    branding,
    offer: access.record,
    wayIn: { kind: "link", token: token!, link: access.link, status: access.status },
  };
}

/**
 * A signed-in contact's offer by reference: one of an account they may act for, else "Page not
 * found". A customer-style contact (no portal access, decision 033) sees only the offers
 * addressed to them — the same ones their list shows; a colleague's reference opens nothing.
 */
export async function agreementBySession(request: Request, reference: string | undefined): Promise<AgreementContext> {
  const { branding, session } = await requireSession(request);
  const offer = isAgreementReference(reference)
    ? await loadAgreementOffer(branding.businessId, { reference: reference! })
    : null;
  if (!offer) throw accountNotFound();
  if (!hasPortalAccess(session.contact) && offer.contactId !== session.contact.id) throw accountNotFound();
  await requireAccountAccess(branding.businessId, session.contact.id, offer.accountId);
  return { branding, offer, wayIn: { kind: "session", contactId: session.contact.id } };
}

/** Where the page lives for this way in, and where its downloads are. */
export function agreementPaths(context: AgreementContext) {
  const self =
    context.wayIn.kind === "link"
      ? `/agreements/acceptance/${context.wayIn.token}`
      : `/agreements/acceptance/${context.offer.reference}`;
  const download =
    context.wayIn.kind === "link" ? `${self}/download` : `/customer/agreement/${context.offer.reference}/download`;
  return { self, download };
}

export type ClosedReason = "withdrawn" | "expired" | "replaced" | "decided";

/**
 * Why this way in shows no form and no record, or null. By link, as for payment requests: a
 * contact who may no longer act for the account reads "withdrawn" before anything else; then
 * the offer's own state; a decided offer's record opens only under a live link (a link that
 * expired or was replaced says the decision is recorded, and where to see it). Signed in: the
 * offer's state alone.
 */
export function closedReason(context: AgreementContext): ClosedReason | null {
  const { offer, wayIn } = context;
  const decided = offer.state === "accepted" || offer.state === "declined";
  if (wayIn.kind === "link") {
    if (wayIn.status === "withdrawn" || offer.state === "withdrawn") return "withdrawn";
    if (decided) {
      return wayIn.status === "valid" && offer.decision?.contactId === wayIn.link.contactId ? null : "decided";
    }
    if (wayIn.status === "revoked") return "replaced";
    if (wayIn.status === "expired" || offer.state === "expired") return "expired";
    return null;
  }
  if (offer.state === "withdrawn" || offer.state === "expired") return offer.state;
  return null;
}

/** Notices a page may carry after a refused or finished POST (POST/redirect/GET). */
const NOTICES = ["recorded", "changed", "stale", "decided", "closed"] as const;
export type AgreementNotice = (typeof NOTICES)[number];

function noticeOf(request: Request): AgreementNotice | null {
  const value = new URL(request.url).searchParams.get("notice");
  return (NOTICES as readonly string[]).includes(value ?? "") ? (value as AgreementNotice) : null;
}

function offerFacts(context: AgreementContext, dates: PageDates) {
  const { offer } = context;
  return {
    reference: offer.reference,
    title: offer.document.title,
    kind: `agreement.kind.${offer.document.kind}` as MessageKey,
    version: offer.version.version,
    versionId: offer.version.id,
    published: dates.date(offer.version.publishedAt),
    account: `${offer.accountName} (${offer.accountNumber})`,
  };
}

/** What the page shows: the form, the record, or why neither. */
export async function agreementView(request: Request, context: AgreementContext) {
  const { branding, offer } = context;
  const dates = await pageDates(request, branding);
  const reason = closedReason(context);
  if (reason) {
    return {
      kind: "closed" as const,
      reason,
      reference: offer.reference,
      businessName: branding.businessName,
      decidedOn: reason === "decided" && offer.decision ? dates.date(offer.decision.decidedAt) : null,
      contact: await businessContact(branding.businessId),
    };
  }
  const notice = noticeOf(request);
  const paths = agreementPaths(context);
  const common = {
    businessName: branding.businessName,
    offer: offerFacts(context, dates),
    body: offer.version.body,
  };
  if (offer.decision) {
    const decision = offer.decision;
    return {
      kind: "record" as const,
      ...common,
      notice: notice === "recorded" || notice === "decided" ? notice : null,
      record: {
        decision: decision.decision,
        name: decision.typedName,
        contact: decision.contactEmail,
        time: dates.dateTime(decision.decidedAt),
      },
      downloads: { pdf: `${paths.download}?format=pdf`, record: paths.download, text: `${paths.download}?format=text` },
    };
  }
  return {
    kind: "open" as const,
    ...common,
    notice: notice === "changed" || notice === "stale" || notice === "closed" ? notice : null,
    nameMax: TYPED_NAME_MAX,
  };
}

/**
 * A brand preview of an offer's link page (decision 082): the business's newest offer as its link
 * first opens — undecided, whatever became of it (a specimen, which the preview labels) — without a
 * token; null when it has none. `request` only carries the page's notice, which a preview has not.
 */
export async function agreementLinkPreview(request: Request, branding: HostBranding) {
  const offer = await previewOffer(branding.businessId);
  if (!offer) return null;
  const page = await agreementView(request, {
    branding,
    offer: { ...offer, status: "offered", state: "offered", decision: null },
    wayIn: { kind: "session", contactId: offer.contactId },
  });
  return { source: offer.reference, page };
}

export type AgreementReply = {
  errors: { typedName?: MessageKey; agreed?: MessageKey; intent?: MessageKey };
  values: { typedName: string; agreed: boolean };
};

/**
 * The decision's POST. A recorded decision, and every refusal the page must show afresh — the
 * text changed (the new version is shown), the page named no version of this text, the offer
 * was decided or closed meanwhile — redirect to the page with a notice (POST/redirect/GET, so
 * the page is read again with JavaScript on or off). Only the form's own mistakes answer 400 with
 * the form as it was typed. Nothing is written unless the decision is recorded.
 */
export async function decideAction(request: Request, context: AgreementContext) {
  const { branding, offer, wayIn } = context;
  const paths = agreementPaths(context);
  const headers = wayIn.kind === "link" ? LINK_PAGE_HEADERS : undefined;
  const back = (notice: AgreementNotice) => redirect(`${paths.self}?notice=${notice}`, { status: 303, headers });
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (thrown) {
    // Control characters in the only field a person types: said at that field.
    if (thrown instanceof Response && thrown.status === 400) {
      const reply: AgreementReply = {
        errors: { typedName: "agreement.error.name.characters" },
        values: { typedName: "", agreed: false },
      };
      return data(reply, { status: 400, headers });
    }
    throw thrown;
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = text("intent");
  const values = { typedName: text("typedName").slice(0, 1_000), agreed: text("agreed") === "yes" };
  if (intent !== "accept" && intent !== "decline") {
    return data({ errors: { intent: "agreement.error.intent" }, values } satisfies AgreementReply, {
      status: 400,
      headers,
    });
  }
  const reason = closedReason(context);
  if (reason === "decided" || offer.decision) return back("decided");
  if (reason) return back("closed");
  const result = await decideAgreementOffer({
    businessId: branding.businessId,
    offerId: offer.id,
    contactId: wayIn.kind === "link" ? wayIn.link.contactId : wayIn.contactId,
    linkTokenId: wayIn.kind === "link" ? wayIn.link.id : null,
    decision: intent === "accept" ? "accepted" : "declined",
    typedName: form.get("typedName"),
    agreed: values.agreed,
    versionId: form.get("versionId"),
    clientAddress: clientAddress(request),
    userAgent: request.headers.get("user-agent"),
  });
  if (result.ok) return back("recorded");
  if (result.problem === "fields") {
    return data({ errors: result.errors, values } satisfies AgreementReply, { status: 400, headers });
  }
  if (result.problem === "withdrawn" || result.problem === "expired" || result.problem === "replaced") {
    return back("closed");
  }
  return back(result.problem);
}

/**
 * The record as a file (decision 036): `?format=text` is the version's text alone, byte for byte
 * as hashed; otherwise the record's header, then that text to the end of the file. Only for a
 * decided offer (anything else: "Page not found").
 */
export function agreementDownload(request: Request, context: AgreementContext, extraHeaders: HeadersInit = {}) {
  const facts = decidedAgreementFacts(context);
  const body = facts.body;
  const bytes = Buffer.byteLength(body, "utf8");
  const textOnly = new URL(request.url).searchParams.get("format") === "text";
  const content = textOnly ? body : agreementRecordFile(facts, bytes);
  const fileName = textOnly ? agreementTextFileName(facts) : agreementRecordFileName(facts);
  return new Response(content, {
    headers: {
      ...extraHeaders,
      "Content-Type": "text/markdown; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * The facts of a decided offer's record, as every copy of it states them (the text file, the PDF):
 * no decision, or a link that no longer opens the offer, and there is no record to give.
 */
export function decidedAgreementFacts(
  context: AgreementContext,
): AgreementRecordFacts & { kind: AgreementContext["offer"]["document"]["kind"] } {
  const { branding, offer } = context;
  if (!offer.decision || closedReason(context)) throw notUnderThisLink();
  const decision = offer.decision;
  const body = offer.version.body;
  return {
    businessName: branding.businessName,
    timeZone: branding.timeZone,
    reference: offer.reference,
    documentTitle: offer.document.title,
    kindLabel: KIND_LABELS[offer.document.kind],
    account: { name: offer.accountName, number: offer.accountNumber },
    version: offer.version.version,
    publishedAt: offer.version.publishedAt,
    decision: decision.decision,
    typedName: decision.typedName,
    contactEmail: decision.contactEmail,
    decidedAt: decision.decidedAt,
    clientAddress: decision.clientAddress,
    userAgent: decision.userAgent,
    bodySha256: decision.bodySha256,
    body,
    kind: offer.document.kind,
  };
}
