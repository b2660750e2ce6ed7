import { randomUUID } from "node:crypto";
import { data, redirect } from "@remix-run/node";
import { BRAND_LABELS, formatExpiry, isExpired } from "~/lib/card";
import { todayIn } from "~/lib/dates";
import { formatMoney, type PageDates } from "~/lib/format";
import { computeCreditPayment, type FeeRules } from "~/lib/payment-calc";
import { CARD_BRANDS, type CardBrand } from "~/lib/payment-method-types";
import { acceptancePath, methodReturnPath, progressPath } from "~/lib/schedule-paths";
import type {
  AcceptanceData,
  ClosedReason,
  FeeRow,
  ProgressData,
  ScheduleSummary,
  WayOption,
  WayToPayRefusal,
  AgreementName,
  AuthorityFacts,
  PayButton,
  RescueData,
} from "~/lib/schedule-pages";
import { scheduleAuthority } from "~/lib/schedule-pages";
import { accountNotFound } from "../accounts/account-access.server";
import { hasPortalAccess } from "../auth/access.server";
import { getPageContext, requireSession } from "../auth/auth.server";
import type { PortalSession } from "../auth/session.server";
import type { HostBranding } from "../host/host.server";
import { pageDates, pageLanguage } from "../host/language.server";
import { translator } from "~/lib/i18n/catalog";
import { LINK_PAGE_HEADERS, linkInvalid } from "../links/link-pages.server";
import { checkLinkAccess, recordLinkOpened, rememberLinkInBrowser, type LinkToken } from "../links/link-tokens.server";
import { businessContact } from "../links/request-links.server";
import { gatewayContextFrom, listCards } from "../payment-methods/payment-methods.server";
import { payToChoices } from "../payments/payto/payto-payments.server";
import { payToConfigurationOf } from "../payments/payto/settings.server";
import { now } from "../platform/clock.server";
import { readForm } from "../platform/http.server";
import { isMessageKey } from "~/lib/i18n/catalog";
import type { MessageKey } from "~/lib/i18n";
import { breakdownView, type PayFormReply } from "~/lib/pay-form";
import { confirmOrPay, heldChoice, readyToPay, resolvePayMethod, startPayReply } from "../payments/pay-form.server";
import { instalmentOfSubmission, payInstalment, type InstalmentPayOutcome } from "./instalment-charges.server";
import { clientAddress, requestOrigin, requireSameOrigin } from "../platform/request-context.server";
import { acceptSchedule, changeWayToPay, parseWayToPay } from "./acceptance.server";
import { getSchedule, mayActFor, previewSchedule } from "./queries.server";
import type { ScheduleView } from "./schedule-rows.server";
import { getDb } from "../platform/database.server";

/**
 * The contact's pages of a payment schedule (issue 15; decision 034), for both ways in:
 * - by link (`/payment-schedule/acceptance/<token>`, `/customer/payment-schedule/<token>`): the
 *   proposal to review (accepting needs a sign-in: a forwarded link must not bind the account's
 *   stored methods), or the progress page of a declined instalment's email (pay it another way
 *   with a new card);
 * - signed in, by reference, for a contact who may act for the schedule's account: accept with a
 *   saved card or an active PayTo agreement, see progress, change the way to pay, pay early.
 * Routes stay thin: they call these and render `~/components/PaymentSchedule`.
 */

type Actor = { businessId: string; contactId: string; clientIp: string };

export type SchedulePageContext = {
  branding: HostBranding;
  schedule: ScheduleView;
  /** The page's dates: the business's zone, the page's language (decision 078). */
  dates: PageDates;
  /** The contact acting: the signed-in one, or the link's. */
  contactId: string;
  session: PortalSession | null;
  link: LinkToken | null;
};

const money = (branding: HostBranding) => (cents: number) => formatMoney(cents, { currency: branding.currency });

/** What a schedule page shows is of one schedule, written in the page's dates. */
type Shown = Pick<SchedulePageContext, "branding" | "schedule" | "dates">;

const loadForLink = (businessId: string) => async (link: LinkToken) => {
  const schedule = await getSchedule(businessId, link.subjectId);
  return schedule ? { ...schedule, accountId: schedule.account.id } : null;
};

/**
 * A signed-in contact's schedule by reference: one who may act for its account (it need not be
 * the selected one). Anything else — another account's, another business's, a malformed
 * reference — is "Page not found", in the loader and again in the action.
 */
export async function requireSignedInSchedule(request: Request, reference: string | undefined) {
  const { branding, session } = await requireSession(request);
  const schedule = await getSchedule(branding.businessId, reference ?? "");
  if (!schedule || schedule.reference !== reference) throw accountNotFound();
  const db = await getDb();
  if (!(await mayActFor(db, branding.businessId, session.contact.id, schedule.account.id))) throw accountNotFound();
  const dates = await pageDates(request, branding);
  return {
    branding,
    schedule,
    dates,
    contactId: session.contact.id,
    session,
    link: null,
  } satisfies SchedulePageContext;
}

// ---------------------------------------------------------------------------------------------
// What every schedule page shows

export function summaryOf(context: Shown, today: string): ScheduleSummary {
  const { branding, schedule } = context;
  const m = money(branding);
  const d = context.dates.date;
  const first = schedule.instalments[0]!;
  const last = schedule.instalments[schedule.instalments.length - 1]!;
  return {
    reference: schedule.reference,
    description: schedule.description,
    account: `${schedule.account.name} (${schedule.account.number})`,
    state: schedule.state,
    total: m(schedule.totalCents),
    paid: m(schedule.paidCents),
    remaining: m(schedule.remainingCents),
    count: schedule.instalments.length,
    first: { date: d(first.dueDate), amount: m(first.amountCents) },
    last: { date: d(last.dueDate), amount: m(last.amountCents) },
    instalments: schedule.instalments.map((i) => ({
      id: i.id,
      seq: i.seq,
      date: d(i.dueDate),
      amount: m(i.amountCents),
      view: i.view,
      nextTry: i.view === "retrying" && i.nextAttemptOn ? d(i.nextAttemptOn) : null,
      receiptHref:
        i.status === "paid" && i.payment ? `/payment/complete/${encodeURIComponent(i.payment.reference)}` : null,
      dueToday: i.dueDate <= today,
    })),
    invoices: schedule.invoices.map((invoice) => ({ number: invoice.number, amount: m(invoice.amountCents) })),
  };
}

/** A rate as people read it: basis points as a percentage, and any fixed part. */
function rateText(rule: { bps: number; fixedCents: number }, m: (cents: number) => string) {
  const percent = `${(rule.bps / 100).toLocaleString("en-AU", { maximumFractionDigits: 2 })}%`;
  if (rule.fixedCents > 0 && rule.bps > 0) return `${percent} + ${m(rule.fixedCents)}`;
  return rule.fixedCents > 0 ? m(rule.fixedCents) : percent;
}

/** The surcharge a card of `brand` adds to each instalment still to be charged, and in all. */
function surchargeOf(schedule: ScheduleView, brand: CardBrand, rules: FeeRules) {
  const charged = schedule.instalments.filter((i) => i.status !== "paid" && i.status !== "cancelled");
  const fees = charged.map(
    (i) => computeCreditPayment(i.amountCents, { kind: "card", brand }, rules).merchantFeeComponent,
  );
  return { first: fees[0] ?? 0, total: fees.reduce((sum, fee) => sum + fee, 0) };
}

/**
 * The fees of each way to pay (decision 034): a card's surcharge by brand from the business's
 * fee rules, on each instalment; PayTo none. Brands with the same rule share a row; brands the
 * rules do not name pay the default ("other cards").
 */
export function feeRows(context: Pick<SchedulePageContext, "branding" | "schedule">): FeeRow[] {
  const { branding, schedule } = context;
  const m = money(branding);
  const rules = branding.feeRules;
  const named = CARD_BRANDS.filter((brand) => rules.surcharge[brand]);
  const groups = new Map<string, CardBrand[]>();
  for (const brand of named) {
    const key = JSON.stringify(rules.surcharge[brand]);
    groups.set(key, [...(groups.get(key) ?? []), brand]);
  }
  const rateOf = (rule: { bps: number; fixedCents: number } | undefined) =>
    rule && (rule.bps > 0 || rule.fixedCents > 0) ? rateText(rule, m) : null;
  const rows: FeeRow[] = [];
  for (const brands of groups.values()) {
    const fee = surchargeOf(schedule, brands[0]!, rules);
    rows.push({
      kind: "brands",
      brands: brands.map((brand) => BRAND_LABELS[brand]).join(", "),
      rate: rateOf(rules.surcharge[brands[0]!]),
      first: m(fee.first),
      total: m(fee.total),
    });
  }
  const others = CARD_BRANDS.filter((brand) => !rules.surcharge[brand]);
  if (others.length) {
    const fee = surchargeOf(schedule, others[0]!, rules);
    rows.push({
      kind: named.length ? "other" : "cards",
      brands: null,
      rate: rateOf(rules.surcharge.default),
      first: m(fee.first),
      total: m(fee.total),
    });
  }
  if (payToConfigurationOf(branding).enabled) {
    rows.push({ kind: "payto", brands: null, rate: null, first: m(0), total: m(0) });
  }
  return rows;
}

/** The facts of the authority a contact gives by accepting (`scheduleAuthority` words them). */
export function authorityFacts(context: Shown): AuthorityFacts {
  const { branding, schedule } = context;
  const d = context.dates.date;
  return {
    business: branding.businessName,
    reference: schedule.reference,
    count: schedule.instalments.length,
    total: money(branding)(schedule.totalCents),
    first: d(schedule.instalments[0]!.dueDate),
    last: d(schedule.instalments[schedule.instalments.length - 1]!.dueDate),
  };
}

/**
 * The ways this contact may pay the schedule with: the account's saved cards that have not
 * expired, and its PayTo agreements (active ones offered; pending or paused ones listed).
 */
async function waysToPay(context: SchedulePageContext, today: string) {
  const { branding, schedule } = context;
  const m = money(branding);
  const scope = { businessId: branding.businessId, accountId: schedule.account.id };
  const [cards, payTo] = await Promise.all([listCards(scope), payToChoices(scope, payToConfigurationOf(branding))]);
  const options: WayOption[] = [
    ...cards
      .filter((card) => !isExpired(card.expiryMonth, card.expiryYear, today))
      .map((card) => ({
        value: `card:${card.cardId}`,
        kind: "card" as const,
        name: `${BRAND_LABELS[card.brand]} •••• ${card.last4}`,
        expiry: formatExpiry(card.expiryMonth, card.expiryYear),
        surcharge: m(surchargeOf(schedule, card.brand, branding.feeRules).total),
        isDefault: card.isDefault,
      })),
    ...payTo.agreements
      .filter((agreement) => agreement.status === "ACTIVE")
      .map((agreement) => ({
        value: `payto:${agreement.id}`,
        kind: "payto" as const,
        agreement: agreementOf(agreement),
        isDefault: false,
      })),
  ];
  const waiting = payTo.agreements
    .filter((agreement) => agreement.status !== "ACTIVE")
    .map((agreement) => ({ agreement: agreementOf(agreement), status: agreement.status }));
  return { options, waiting, payToEnabled: payTo.enabled };
}

/** A PayTo agreement as the page names it: its PayID, or its BSB and the account's last digits. */
function agreementOf(agreement: {
  payId: string | null;
  bsb: string | null;
  accountLast3: string | null;
}): AgreementName {
  return {
    payId: agreement.payId,
    bsb: agreement.bsb ? `${agreement.bsb.slice(0, 3)}-${agreement.bsb.slice(3)}` : null,
    last3: agreement.accountLast3,
  };
}

/** The way the schedule pays now, as its radio names it (or null). */
const currentWay = (schedule: ScheduleView) =>
  schedule.wayToPay ? `${schedule.wayToPay.kind}:${schedule.wayToPay.id}` : null;

async function methodsForm(context: SchedulePageContext, today: string, returnTo: string) {
  const ways = await waysToPay(context, today);
  const mayManage = context.session ? hasPortalAccess(context.session.contact) : false;
  const back = encodeURIComponent(methodReturnPath(returnTo) ?? "");
  return {
    options: ways.options,
    waiting: ways.waiting,
    chosen:
      currentWay(context.schedule) ?? ways.options.find((o) => o.isDefault)?.value ?? ways.options[0]?.value ?? null,
    addCardHref: mayManage ? `/payment-methods/cards/new?returnTo=${back}` : null,
    setUpPayToHref: mayManage && ways.payToEnabled ? `/payment-methods/payto/new?returnTo=${back}` : null,
    noAccess: !mayManage,
  };
}

// ---------------------------------------------------------------------------------------------
// The proposal: /payment-schedule/acceptance/<token | reference>

async function closedAcceptance(
  { branding, schedule, dates }: Shown,
  reason: ClosedReason,
  extra: { progressHref?: string | null } = {},
): Promise<AcceptanceData> {
  return {
    kind: "closed",
    reason,
    reference: schedule.reference,
    businessName: branding.businessName,
    contact: await businessContact(branding.businessId),
    progressHref: extra.progressHref ?? null,
    acceptedOn: schedule.acceptance ? dates.date(new Date(schedule.acceptance.at)) : null,
  };
}

/** Why a proposal can no longer be accepted, or null while it can. */
function proposalClosed(schedule: ScheduleView): ClosedReason | null {
  switch (schedule.state) {
    case "proposed":
      return null;
    case "active":
    case "arrears":
    case "completed":
      return "accepted";
    default:
      return schedule.state;
  }
}

function reviewCommon(context: Shown, today: string) {
  return {
    businessName: context.branding.businessName,
    schedule: summaryOf(context, today),
    fees: feeRows(context),
    authority: authorityFacts(context),
    // The last moment it can be accepted is the end of the day before `expiresAt` when that is a midnight.
    expires: context.dates.date(new Date(Date.parse(context.schedule.expiresAt) - 1)),
  };
}

/**
 * The proposal opened from its email. The whole review, and "Sign in to accept" leading to the
 * same proposal by reference after sign-in (never the token). What became of it otherwise:
 * withdrawn (its contact has left the account) first, then accepted, withdrawn or cancelled,
 * then replaced by a newer email or expired. Any token that does not check out: "This link isn't
 * valid".
 */
export async function acceptanceByLink(request: Request, token: string | undefined): Promise<AcceptanceData> {
  const { branding } = await getPageContext(request);
  const access = await checkLinkAccess(
    branding.businessId,
    "payment-schedule",
    token,
    loadForLink(branding.businessId),
    now(),
  );
  if (access.status === "unknown") throw linkInvalid();
  await recordLinkOpened(branding.businessId, access.link.id);
  const context = { branding, schedule: access.record, dates: await pageDates(request, branding) };
  const { schedule } = context;
  if (access.status === "withdrawn") return closedAcceptance(context, "linkWithdrawn");
  const closed = proposalClosed(schedule);
  if (closed === "accepted") {
    return closedAcceptance(context, closed, { progressHref: progressPath(schedule.reference) });
  }
  if (closed === "withdrawn" || closed === "cancelled") return closedAcceptance(context, closed);
  if (access.status === "revoked") return closedAcceptance(context, "replaced");
  if (access.status === "expired" || closed) return closedAcceptance(context, "expired");
  return linkReview(context);
}

/**
 * The proposal as its emailed link shows it while it can be accepted: the review and "Sign in to
 * accept" (by reference, never the token). Reads only; a brand preview shows it too (decision 082).
 */
export function linkReview(context: Shown): AcceptanceData {
  const { branding, schedule } = context;
  const reference = acceptancePath(schedule.reference);
  return {
    kind: "review",
    mode: "link",
    ...reviewCommon(context, todayIn(branding.timeZone, now())),
    signInHref: `/auth/signin?${new URLSearchParams({ callbackUrl: reference })}`,
  };
}

/**
 * A brand preview of a proposal's link page (decision 082): the business's newest proposal (else
 * newest schedule) as its link first shows it, without a token; null when it has none.
 */
export async function scheduleLinkPreview(request: Request, branding: HostBranding) {
  const schedule = await previewSchedule(branding.businessId);
  if (!schedule) return null;
  return {
    source: schedule.reference,
    page: linkReview({ branding, schedule, dates: await pageDates(request, branding) }),
  };
}

/** The proposal for a signed-in contact who may act for its account: review and accept. */
export async function acceptanceSignedIn(
  context: SchedulePageContext,
  answer: { refusal?: WayToPayRefusal; chosen?: string | null } = {},
): Promise<AcceptanceData> {
  const { branding, schedule } = context;
  const closed = proposalClosed(schedule);
  if (closed) {
    return closedAcceptance(context, closed, {
      progressHref: closed === "accepted" ? progressPath(schedule.reference) : null,
    });
  }
  const today = todayIn(branding.timeZone, now());
  const form = await methodsForm(context, today, acceptancePath(schedule.reference));
  return {
    kind: "review",
    mode: "signedIn",
    ...reviewCommon(context, today),
    form: { ...form, chosen: answer.chosen !== undefined ? answer.chosen : form.chosen },
    refusal: answer.refusal ?? null,
  };
}

/**
 * Accept (POST): the chosen way (a radio `way`: `card:<id>` or `payto:<id>`) and the authority
 * box. Accepted → the progress page. Refused → the page again with the reason, status 409 for a
 * proposal no longer open (already accepted, withdrawn, expired), 400 for the form's own
 * problems; nothing changes either way.
 */
export async function acceptAction(request: Request, reference: string | undefined) {
  requireSameOrigin(request);
  const context = await requireSignedInSchedule(request, reference);
  const form = await readForm(request);
  if (form.get("intent") !== "accept") {
    return data(await acceptanceSignedIn(context, { refusal: "method" }), { status: 400 });
  }
  const rawWay = String(form.get("way") ?? "").slice(0, 80);
  const actor: Actor = {
    businessId: context.branding.businessId,
    contactId: context.contactId,
    clientIp: clientAddress(request),
  };
  const outcome = await acceptSchedule(actor, {
    reference: context.schedule.reference,
    way: parseWayToPay(rawWay),
    authorityAccepted: form.get("authority") === "on",
    // The words the page showed, in its language, from the proposal's facts (which never change).
    authorityText: scheduleAuthority(translator(await pageLanguage(request)), authorityFacts(context)),
  });
  if (outcome.ok) return redirect(`${progressPath(context.schedule.reference)}?notice=accepted`);
  if (outcome.reason === "notFound") throw accountNotFound();
  const fresh = (await getSchedule(context.branding.businessId, context.schedule.id)) ?? context.schedule;
  const page = await acceptanceSignedIn(
    { ...context, schedule: fresh },
    { refusal: outcome.reason, chosen: rawWay || null },
  );
  if (page.kind === "closed") page.refused = true;
  const open = ["method", "cardExpired", "agreementInactive", "payToOff", "payToLimit", "authority"];
  return data(page, { status: open.includes(outcome.reason) ? 400 : 409 });
}

// ---------------------------------------------------------------------------------------------
// Progress: /customer/payment-schedule/<reference | token>

const NOTICES = ["accepted", "changed", "paid", "submitted"] as const;

/** One schedule's progress for a signed-in contact, with the change form and the pay buttons. */
export async function progressSignedIn(
  request: Request,
  context: SchedulePageContext,
  answer: {
    refusal?: WayToPayRefusal;
    message?: string | null;
    messageParams?: Record<string, string>;
    reasonKey?: string;
    chosen?: string | null;
  } = {},
): Promise<ProgressData> {
  const { branding, schedule } = context;
  const today = todayIn(branding.timeZone, now());
  if (schedule.state === "proposed") {
    throw redirect(acceptancePath(schedule.reference));
  }
  const url = new URL(request.url);
  const notice = NOTICES.find((n) => n === url.searchParams.get("notice")) ?? null;
  const live = schedule.status === "active" || schedule.status === "arrears";
  const form = live ? await methodsForm(context, today, progressPath(schedule.reference)) : null;
  // The receipt a notice is about: only a payment of one of this schedule's instalments.
  const receipt = notice && ["paid", "submitted", "pending"].includes(notice) ? url.searchParams.get("payment") : null;
  return {
    kind: "progress",
    mode: "signedIn",
    businessName: branding.businessName,
    schedule: summaryOf(context, today),
    wayToPay: wayToPayText(schedule),
    change: form ? { ...form, chosen: answer.chosen ?? form.chosen, refusal: answer.refusal ?? null } : null,
    notice,
    message: answer.message ?? null,
    messageParams: answer.messageParams,
    reasonKey: answer.reasonKey,
    requestGuid: randomUUID(),
    pay: payButtons(context),
    receiptHref:
      receipt && (await paymentOfSchedule(branding.businessId, schedule, receipt)) ? receiptPath(receipt) : null,
    rescue: null,
  };
}

const receiptPath = (reference: string) => `/payment/complete/${encodeURIComponent(reference)}`;

/** Is this payment (by reference) one of the schedule's instalments'? One indexed look-up. */
async function paymentOfSchedule(businessId: string, schedule: ScheduleView, reference: string) {
  if (!/^PAY-[0-9A-F]{10}$/.test(reference)) return false;
  const db = await getDb();
  const row = await db
    .selectFrom("payments")
    .select("schedule_instalment_id as instalmentId")
    .where("business_id", "=", businessId)
    .where("reference", "=", reference)
    .executeTakeFirst();
  return row?.instalmentId ? schedule.instalments.some((i) => i.id === row.instalmentId) : false;
}

/** What one instalment costs by the schedule's way to pay: the amount and a card's surcharge. */
function costByWay(context: Pick<SchedulePageContext, "branding" | "schedule">, amountCents: number) {
  const way = context.schedule.wayToPay;
  const method = way?.kind === "card" ? { kind: "card" as const, brand: way.brand } : { kind: "payto" as const };
  return computeCreditPayment(amountCents, method, context.branding.feeRules).amount;
}

/**
 * "Pay instalment n now" for each failed instalment, and "Pay the next instalment now" for the
 * first still waiting, by the schedule's way to pay (decision 034): while the schedule is active
 * or in arrears and has a way to pay. Their totals are what the engine charges.
 */
export function payButtons(context: Pick<SchedulePageContext, "branding" | "schedule">): PayButton[] {
  const { schedule } = context;
  if ((schedule.status !== "active" && schedule.status !== "arrears") || !schedule.wayToPay) return [];
  const m = money(context.branding);
  const button = (i: ScheduleView["instalments"][number], failed: boolean): PayButton => {
    const totalCents = costByWay(context, i.amountCents);
    return { instalmentId: i.id, seq: i.seq, amount: m(i.amountCents), total: m(totalCents), totalCents, failed };
  };
  const failed = schedule.instalments.filter((i) => i.status === "failed").map((i) => button(i, true));
  const next = schedule.instalments.find((i) => i.status === "scheduled");
  return [...failed, ...(next ? [button(next, false)] : [])];
}

export function wayToPayText(schedule: ScheduleView): ProgressData["wayToPay"] {
  const way = schedule.wayToPay;
  if (!way) return null;
  if (way.kind === "card") {
    return { kind: "card", name: `${BRAND_LABELS[way.brand]} •••• ${way.last4}`, status: null };
  }
  return { kind: "payto", agreement: agreementOf(way), status: way.status === "ACTIVE" ? null : way.status };
}

/** Change the way to pay (POST, intent `change`): the same checks as accepting; future instalments only. */
export async function changeAction(request: Request, context: SchedulePageContext, form: FormData) {
  const rawWay = String(form.get("way") ?? "").slice(0, 80);
  const outcome = await changeWayToPay(
    { businessId: context.branding.businessId, contactId: context.contactId, clientIp: clientAddress(request) },
    { reference: context.schedule.reference, way: parseWayToPay(rawWay) },
  );
  if (outcome.ok) return redirect(`${progressPath(context.schedule.reference)}?notice=changed`);
  if (outcome.reason === "notFound") throw accountNotFound();
  return data(await progressSignedIn(request, context, { refusal: outcome.reason, chosen: rawWay || null }), {
    status: outcome.reason === "notActive" ? 409 : 400,
  });
}

/**
 * The progress page opened from a declined instalment's email. A proposal's token on this path
 * goes to the proposal; a link that no longer opens says why (the contact left the account, it
 * was replaced, it expired, the schedule was withdrawn or cancelled) and nothing else.
 */
export async function progressByLink(request: Request, token: string | undefined) {
  const { branding } = await getPageContext(request);
  const access = await checkLinkAccess(
    branding.businessId,
    "payment-schedule",
    token,
    loadForLink(branding.businessId),
    now(),
  );
  if (access.status === "unknown") throw linkInvalid();
  const context = { branding, schedule: access.record, dates: await pageDates(request, branding) };
  const { schedule } = context;
  const closed = async (reason: ClosedReason): Promise<AcceptanceData> => closedAcceptance(context, reason);
  if (access.status === "withdrawn") return { page: await closed("linkWithdrawn"), access };
  if (schedule.state === "proposed" && access.status === "valid") {
    throw redirect(acceptancePath(token!), { headers: LINK_PAGE_HEADERS });
  }
  if (schedule.state === "withdrawn" || schedule.state === "cancelled")
    return { page: await closed(schedule.state), access };
  if (access.status === "revoked") return { page: await closed("replaced"), access };
  if (access.status === "expired" || schedule.state === "expired") return { page: await closed("expired"), access };
  const today = todayIn(branding.timeZone, now());
  const page: ProgressData = {
    kind: "progress",
    mode: "link",
    businessName: branding.businessName,
    schedule: summaryOf(context, today),
    wayToPay: wayToPayText(schedule),
    change: null,
    notice: null,
    message: null,
    requestGuid: randomUUID(),
    pay: [],
    receiptHref: null,
    rescue: access.status === "valid" ? rescueOf(context) : null,
  };
  return { page, access };
}

/** The declined instalment's new-card form: its amount, priced with no card chosen yet. */
function rescueOf(context: Pick<SchedulePageContext, "branding" | "schedule">): RescueData | null {
  const instalment = instalmentToRescue(context.schedule);
  if (!instalment) return null;
  const { branding, schedule } = context;
  return {
    instalmentId: instalment.id,
    seq: instalment.seq,
    amount: money(branding)(instalment.amountCents),
    requestGuid: randomUUID(),
    breakdown: breakdownView(
      computeCreditPayment(instalment.amountCents, { kind: "payto" }, branding.feeRules),
      branding.currency,
    ),
    signInHref: `/auth/signin?${new URLSearchParams({ callbackUrl: progressPath(schedule.reference) })}`,
  };
}

/** A payment that did not go through, worded for the page: the refusal's own words where there are some. */
function refusalMessage(
  outcome: Exclude<InstalmentPayOutcome, { kind: "paid" | "submitted" | "pending" }>,
  payTo: boolean,
): { message: MessageKey; reasonKey?: MessageKey } {
  switch (outcome.kind) {
    case "declined": {
      if (payTo) {
        const reason = `paytoPay.reason.${outcome.refusal}`;
        return {
          message: "paytoPay.error.rejected",
          reasonKey: isMessageKey(reason) ? reason : "paytoPay.reason.declined",
        };
      }
      const refusal = `pm.refusal.${outcome.refusal}`;
      return { message: isMessageKey(refusal) ? refusal : "pm.refusal.declined" };
    }
    case "notPayable":
      return { message: `schedules.pay.notPayable.${outcome.why}` as MessageKey };
    case "invalid":
      return { message: "schedules.pay.error.invalid" };
  }
}

/**
 * Pay an instalment now (POST, intent `pay`, signed in): the next one early, or a failed one,
 * by the schedule's way to pay, through `payInstalment` with the form's requestGuid (a repeat
 * of the same submission is answered by the first). Paid or on its way: the page with a notice
 * and the receipt. Refused: the page again with why; nothing was charged.
 */
export async function payAction(request: Request, context: SchedulePageContext, form: FormData) {
  const instalmentId = String(form.get("instalmentId") ?? "").slice(0, 40);
  const requestGuid = String(form.get("requestGuid") ?? "").slice(0, 40);
  const expected = String(form.get("expectedAmount") ?? "").slice(0, 14);
  const payer = { contactId: context.contactId, clientIp: clientAddress(request) };
  const businessId = context.branding.businessId;
  // A repeat of a submission already made (a double click, a reloaded POST) gets its first
  // answer, whatever the page offers now.
  const earlier = await instalmentOfSubmission(businessId, requestGuid);
  const repeat =
    earlier !== null && earlier === instalmentId && context.schedule.instalments.some((i) => i.id === earlier);
  // Otherwise only what the page offers now (the failed instalments and the next one) at its total.
  const offered = repeat ? null : payButtons(context).find((button) => button.instalmentId === instalmentId);
  if (!repeat && !offered) {
    return data(await progressSignedIn(request, context, { message: "schedules.pay.error.invalid" }), { status: 400 });
  }
  if (offered && (!/^\d{1,12}$/.test(expected) || Number(expected) !== offered.totalCents)) {
    return data(
      await progressSignedIn(request, context, {
        message: "pay.error.totalChanged",
        messageParams: { total: offered.total },
      }),
      { status: 409 },
    );
  }
  const outcome = await payInstalment({
    businessId,
    instalmentId,
    trigger: "contact",
    actor: payer,
    requestGuid,
    expectedAmountCents: offered?.totalCents,
  });
  if (outcome.kind === "paid" || outcome.kind === "submitted" || outcome.kind === "pending") {
    const notice = outcome.kind === "paid" ? "paid" : outcome.kind;
    const query = new URLSearchParams({ notice, payment: outcome.reference });
    return redirect(`${progressPath(context.schedule.reference)}?${query}`);
  }
  const fresh = (await getSchedule(businessId, context.schedule.id)) ?? context.schedule;
  if (outcome.kind === "invalid" && outcome.problem === "amount") {
    // The way to pay changed as it was charged: nothing was; the page shows the new total.
    const current = payButtons({ ...context, schedule: fresh }).find((b) => b.instalmentId === instalmentId);
    return data(
      await progressSignedIn(
        request,
        { ...context, schedule: fresh },
        { message: "pay.error.totalChanged", messageParams: { total: (current ?? offered)?.total ?? "" } },
      ),
      { status: 409 },
    );
  }
  const words = refusalMessage(outcome, context.schedule.wayToPay?.kind === "payto");
  const status = outcome.kind === "declined" ? 402 : outcome.kind === "invalid" ? 400 : 409;
  return data(
    await progressSignedIn(
      request,
      { ...context, schedule: fresh },
      { message: words.message, reasonKey: words.reasonKey },
    ),
    { status },
  );
}

/**
 * Pay a declined instalment another way from its email's link (POST): a new card, never saved,
 * as any link payer pays (decision 031). The pay form's steps (quote, "Update total", pay, and the
 * confirm step's held card when the total is not the one the button showed, decision 071) and
 * the engine's own price; the link's contact is the payer of record, and the browser may open
 * the receipt afterwards. A link that no longer opens, or a schedule with nothing to rescue,
 * charges nothing.
 */
export async function rescueAction(request: Request, token: string | undefined) {
  requireSameOrigin(request);
  const { branding } = await getPageContext(request);
  const access = await checkLinkAccess(
    branding.businessId,
    "payment-schedule",
    token,
    loadForLink(branding.businessId),
    now(),
  );
  if (access.status === "unknown") throw linkInvalid();
  const form = await readForm(request);
  const { intent, text, reply } = startPayReply(form);
  const answer = (status: number) => data<PayFormReply>(reply, { status, headers: LINK_PAGE_HEADERS });
  const instalment = access.status === "valid" ? instalmentToRescue(access.record) : null;
  if (!instalment) {
    reply.message = "schedules.pay.error.closed";
    return answer(409);
  }
  if (!intent) return answer(400);
  // The instalment the page offered, and no other: another one to rescue now (this one was paid
  // meanwhile, a later one declined) is shown afresh, not paid with this form's card and total.
  // (A live-total quote posts only the price fields, and charges nothing.)
  if (intent !== "quote" && text("instalmentId", 40) !== instalment.id) {
    reply.message = "schedules.pay.error.changed";
    return answer(409);
  }
  // Posted again by the confirm step's forms, with the rest of what was typed.
  reply.extra.instalmentId = instalment.id;
  const today = todayIn(branding.timeZone, now());
  const holder = {
    businessId: branding.businessId,
    accountId: access.record.account.id,
    contactId: access.link.contactId,
  };
  const held = await heldChoice(request, reply, holder, text("requestGuid", 40));
  const { payMethod, feeMethod } = resolvePayMethod(form, intent, reply, {
    cards: [],
    agreements: [],
    promise: false,
    mayManagePaymentMethods: false,
    today,
    actor: { businessId: branding.businessId, contactId: access.link.contactId },
    held,
  });
  const priced = computeCreditPayment(
    instalment.amountCents,
    feeMethod.kind === "card" ? feeMethod : { kind: "payto" },
    branding.feeRules,
  );
  reply.breakdown = breakdownView(priced, branding.currency);
  const ready = readyToPay(intent, reply, payMethod);
  if (ready !== true || !payMethod) return answer(ready === true ? 400 : ready);
  if (payMethod.kind !== "new-card" && payMethod.kind !== "held-card") {
    reply.errors.method = "pay.error.method";
    return answer(400);
  }
  const clientIp = clientAddress(request);
  // A total the button did not show (a new card's surcharge without JavaScript): the card is held
  // and the exact total confirmed, never refused (decision 071).
  const step = await confirmOrPay(request, form, reply, payMethod, {
    holder,
    context: gatewayContextFrom(request, clientIp, requestOrigin(request), {
      schedule: access.record.reference,
      instalment: String(instalment.seq),
    }),
    feeMethod,
    feeRules: branding.feeRules,
    currency: branding.currency,
    timeZone: branding.timeZone,
    held: held?.card,
  });
  if (!step.pay) {
    return data<PayFormReply>(reply, { status: step.status, headers: { ...LINK_PAGE_HEADERS, ...step.headers } });
  }
  // The held card (a confirm) or the new card as typed (its total was the one shown): never saved.
  const method =
    payMethod.kind === "held-card"
      ? payMethod
      : { kind: "new-card" as const, card: { ...payMethod.card, save: false } };
  const outcome = await payInstalment({
    businessId: branding.businessId,
    instalmentId: instalment.id,
    trigger: "contact",
    actor: { contactId: access.link.contactId, clientIp },
    method,
    requestGuid: text("requestGuid", 40),
    linkTokenId: access.link.id,
    expectedAmountCents: step.expectedAmountCents,
  });
  if (outcome.kind === "paid" || outcome.kind === "submitted" || outcome.kind === "pending") {
    // This browser may now open the receipt of what it paid from this link (decision 031).
    const cookie = await rememberLinkInBrowser(request, access.link);
    return redirect(receiptPath(outcome.reference), { headers: { ...LINK_PAGE_HEADERS, "Set-Cookie": cookie } });
  }
  const words = refusalMessage(outcome, false);
  reply.message = words.message;
  return answer(outcome.kind === "declined" ? 402 : 409);
}

/** The instalment a link payer may pay another way: the earliest failed one, else one being retried. */
export function instalmentToRescue(schedule: ScheduleView) {
  if (schedule.status !== "active" && schedule.status !== "arrears") return null;
  return (
    schedule.instalments.find((i) => i.view === "failed") ??
    schedule.instalments.find((i) => i.view === "retrying") ??
    null
  );
}
