import { createHash } from "node:crypto";
import { sql } from "kysely";
import { REFEREE_LINK_DAYS } from "~/lib/credit-steps";
import { MONEY_ERRORS, parseMoneyToCents } from "~/lib/format";
import type { MessageKey } from "~/lib/i18n";
import {
  COMMENTS_MAX,
  DISHONOUR_DETAILS_MAX,
  EMPTY_REFEREE_FORM,
  PAYMENT_BEHAVIOURS,
  REFEREE_FIELDS,
  REFEREE_NAME_MAX,
  REFEREE_POSITION_MAX,
  TERMS_OTHER_MAX,
  TRADE_TERMS,
  TRADING_LENGTHS,
  type RefereeField,
  type RefereeFormValues,
  type TradeReferenceAnswer,
} from "~/lib/trade-reference";
import { publicLink } from "../host/host.server";
import { deliverLinkEmail, linkSender, type Delivery } from "../links/link-lifecycle.server";
import { linkSecretMatches, linkSelectorOf } from "../links/link-tokens.server";
import { audit } from "../platform/audit.server";
import { now as clockNow } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import { sendThroughOutbox } from "../platform/mail-outbox.server";
import { consume, refund, TOKEN_CHECKS } from "../platform/rate-limit.server";
import { renderTradeReferenceRequestEmail } from "./trade-reference-email.server";

/**
 * A trade referee's side of a credit application (issue 17; decision 041). A referee is not a
 * contact of the business, so their link lives on their own `credit_trade_references` row (the
 * selector and the SHA-256 of the verifier, decision 031's format through `mintLinkSecret`), not
 * in link_tokens. The page checks the token with `checkRefereeLink`, counts openings, and records
 * the answer once with `answerTradeReference`; the back office resends a link (a new secret on the
 * same row, so the old link reads like any unknown one) through `sendTradeReferenceRequest`.
 */

/** How long a referee's link works (at submission and after a resend): the form's own constant. */
export const TRADE_REFERENCE_LINK_DAYS = REFEREE_LINK_DAYS;
export const TRADE_REFERENCE_LINK_MS = TRADE_REFERENCE_LINK_DAYS * 86_400_000;

/** Where a referee opens their link: the path the emails carry. */
export const tradeReferencePath = (token: string) => `/credit-trade-reference/${token}`;

// ---------------------------------------------------------------------------------------------
// Checking a link

export type RefereeLink = {
  id: string;
  businessId: string;
  applicationId: string;
  position: number;
  selector: string;
  refereeBusiness: string;
  contactName: string;
  email: string;
  linkExpiresAt: Date;
  answeredAt: Date | null;
  application: {
    reference: string;
    legalName: string;
    status: "submitted" | "accepted" | "declined";
    country: "AU" | "NZ";
  };
};

/**
 * valid: the referee may answer. answered: they did (the page says when). closed: the business
 * has decided the application (accepted or declined — the page does not say which: that is the
 * applicant's business, not the referee's), so no reference is needed. expired: the link ran out.
 * unknown: anything else — malformed, tampered, guessed, another host's, replaced by a resend —
 * one answer, with no hint whether it ever existed (decision 031).
 */
export type RefereeLinkCheck =
  { status: "unknown" } | { status: "valid" | "answered" | "closed" | "expired"; link: RefereeLink };

/**
 * Checks a referee's token for this business. One statement: the row by its selector *within
 * this business* (another host's link is simply not found), then the verifier compared in
 * constant time, against a dummy when no row was found, so a guess and a real link do the same
 * work. Never throws on input.
 */
export async function checkRefereeLink(
  businessId: string,
  token: unknown,
  now = clockNow(),
): Promise<RefereeLinkCheck> {
  const selector = linkSelectorOf(token);
  const db = await getDb();
  const row = await db
    .selectFrom("credit_trade_references as r")
    .innerJoin("credit_applications as a", (join) =>
      join.onRef("a.id", "=", "r.application_id").onRef("a.business_id", "=", "r.business_id"),
    )
    .select([
      "r.id",
      "r.business_id as businessId",
      "r.application_id as applicationId",
      "r.position",
      "r.selector",
      "r.verifier_hash as verifierHash",
      "r.referee_business as refereeBusiness",
      "r.contact_name as contactName",
      "r.email",
      "r.link_expires_at as linkExpiresAt",
      "r.answered_at as answeredAt",
      "a.reference",
      "a.legal_name as legalName",
      "a.status",
      "a.country",
    ])
    .where("r.selector", "=", selector)
    .where("r.business_id", "=", businessId)
    .executeTakeFirst();
  const matches = linkSecretMatches(token, row?.verifierHash);
  if (!row || !matches || row.status === "draft" || !row.reference || !row.legalName) return { status: "unknown" };
  const link: RefereeLink = {
    id: row.id,
    businessId: row.businessId,
    applicationId: row.applicationId,
    position: row.position,
    selector: row.selector,
    refereeBusiness: row.refereeBusiness,
    contactName: row.contactName,
    email: row.email,
    linkExpiresAt: new Date(row.linkExpiresAt),
    answeredAt: row.answeredAt ? new Date(row.answeredAt) : null,
    application: { reference: row.reference, legalName: row.legalName, status: row.status, country: row.country },
  };
  // An answer given stays the first thing its link says, whatever happened to the application since.
  if (link.answeredAt) return { status: "answered", link };
  if (link.application.status !== "submitted") return { status: "closed", link };
  if (link.linkExpiresAt.getTime() <= now.getTime()) return { status: "expired", link };
  return { status: "valid", link };
}

/**
 * Counts an opening of a link still waiting for its answer (GET): the business's list shows who
 * opened and did not answer, to chase them. Opening never spends the link (mail scanners open
 * links too); the page after an answer is not counted.
 */
export async function recordRefereeOpened(businessId: string, referenceId: string) {
  const db = await getDb();
  await db
    .updateTable("credit_trade_references")
    .set({
      first_opened_at: sql`coalesce(first_opened_at, ${clockNow()})`,
      open_count: sql`open_count + 1`,
    })
    .where("business_id", "=", businessId)
    .where("id", "=", referenceId)
    .where("answered_at", "is", null)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Guessing

/**
 * The per-address limit on referee token checks (ARCHITECTURE "Security by default"): every
 * check is counted before it is made, and given back when the token turned out to be a real
 * link, so only misses add up — a referee opening their own link again and again is never
 * locked out, and a guesser gets 30 tries in 15 minutes per address.
 */
export const refereeCheckLimit = (address: string) => [{ key: `trade-reference:ip:${address}`, ...TOKEN_CHECKS }];

export const countRefereeCheck = (businessId: string, address: string) =>
  consume(businessId, refereeCheckLimit(address));

export const forgiveRefereeCheck = (businessId: string, address: string) =>
  refund(businessId, refereeCheckLimit(address));

// ---------------------------------------------------------------------------------------------
// The answer

/** One line a person types: no control characters, line or paragraph separators, or bidi overrides. */
const FORBIDDEN_IN_LINE = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** A text of several lines: the same, but line feeds and tabs are fine. */
const FORBIDDEN_IN_TEXT =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Zl}\p{Zp}\p{Cs}\u061c\u202a-\u202e\u2066-\u2069]/u;
const hasUnpairedSurrogate = (value: string) =>
  /[\ud800-\udfff]/.test(value.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""));
const codePoints = (value: string) => [...value].length;

/** Characters a browser never sends from a keyboard: stripped from what is shown back. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

export type RefereeErrors = Partial<Record<RefereeField, MessageKey>>;

export type RefereeReading =
  | { ok: true; answer: TradeReferenceAnswer; name: string; values: RefereeFormValues }
  | { ok: false; errors: RefereeErrors; values: RefereeFormValues };

const MONEY_KEYS: Record<string, MessageKey> = {
  [MONEY_ERRORS.format]: "tradeReference.error.money.format",
  [MONEY_ERRORS.decimals]: "tradeReference.error.money.decimals",
  [MONEY_ERRORS.negative]: "tradeReference.error.money.negative",
  [MONEY_ERRORS.tooLarge]: "tradeReference.error.money.tooLarge",
};

/**
 * The referee's form, checked. Every field's problem is named at that field (the page lists them
 * in its error summary too); the values come back as typed (control characters left out), so
 * nothing is lost. Markup, quotes and SQL are text: kept as typed and always rendered escaped.
 */
export function readRefereeAnswer(form: FormData | Record<string, unknown>): RefereeReading {
  const raw = (name: RefereeField) => {
    const value = form instanceof FormData ? form.get(name) : form[name];
    return typeof value === "string" ? value.slice(0, 10_000) : "";
  };
  const values = { ...EMPTY_REFEREE_FORM };
  const errors: RefereeErrors = {};
  for (const field of REFEREE_FIELDS) {
    const typed = raw(field);
    const clean = typed.replace(CONTROL, "");
    values[field] = clean;
    if (clean !== typed) errors[field] = "tradeReference.error.characters";
  }
  const line = (field: RefereeField, max: number, required: MessageKey | null): string | null => {
    const value = values[field].normalize("NFC").trim();
    if (errors[field]) return null;
    if (value === "") {
      if (required) errors[field] = required;
      return null;
    }
    if (hasUnpairedSurrogate(value) || FORBIDDEN_IN_LINE.test(value)) errors[field] = "tradeReference.error.characters";
    else if (codePoints(value) > max) errors[field] = "tradeReference.error.tooLong";
    return value;
  };
  const text = (field: RefereeField, max: number, required: MessageKey | null): string | null => {
    const value = values[field].replace(/\r\n?/g, "\n").normalize("NFC").trim();
    if (errors[field]) return null;
    if (value === "") {
      if (required) errors[field] = required;
      return null;
    }
    if (hasUnpairedSurrogate(value) || FORBIDDEN_IN_TEXT.test(value)) errors[field] = "tradeReference.error.characters";
    else if (codePoints(value) > max) errors[field] = "tradeReference.error.tooLong";
    return value;
  };
  const choice = <T extends string>(field: RefereeField, options: readonly T[], required: MessageKey): T | null => {
    const value = values[field];
    if ((options as readonly string[]).includes(value)) return value as T;
    errors[field] ??= required;
    return null;
  };
  const money = (field: RefereeField, required: boolean): number | null => {
    const value = values[field].trim();
    if (errors[field]) return null;
    if (value === "") {
      if (required) errors[field] = "tradeReference.error.creditLimit.required";
      return null;
    }
    const parsed = parseMoneyToCents(value);
    if (!parsed.ok) {
      errors[field] = MONEY_KEYS[parsed.error] ?? "tradeReference.error.money.format";
      return null;
    }
    return parsed.cents;
  };

  const tradingLength = choice("tradingLength", TRADING_LENGTHS, "tradeReference.error.tradingLength");
  const terms = choice("terms", TRADE_TERMS, "tradeReference.error.terms");
  const termsOther =
    terms === "other" ? line("termsOther", TERMS_OTHER_MAX, "tradeReference.error.termsOther.required") : null;
  const creditLimitCents = money("creditLimit", true);
  const highestBalanceCents = money("highestBalance", false);
  const paymentBehaviour = choice("paymentBehaviour", PAYMENT_BEHAVIOURS, "tradeReference.error.paymentBehaviour");
  const dishonours = choice("dishonours", ["yes", "no"] as const, "tradeReference.error.dishonours");
  const dishonourDetails =
    dishonours === "yes"
      ? text("dishonourDetails", DISHONOUR_DETAILS_MAX, "tradeReference.error.dishonourDetails.required")
      : null;
  const recommend = choice("recommend", ["yes", "no"] as const, "tradeReference.error.recommend");
  const comments = text("comments", COMMENTS_MAX, null);
  const name = line("name", REFEREE_NAME_MAX, "tradeReference.error.name.required");
  const position = line("position", REFEREE_POSITION_MAX, "tradeReference.error.position.required");
  // A field that is not asked (other terms when a listed term is chosen, details without a
  // dishonour) is neither checked nor kept.
  if (terms !== "other") delete errors.termsOther;
  if (dishonours !== "yes") delete errors.dishonourDetails;

  if (
    Object.keys(errors).length ||
    !tradingLength ||
    !terms ||
    creditLimitCents === null ||
    !paymentBehaviour ||
    !dishonours ||
    !recommend ||
    !name ||
    !position
  ) {
    return { ok: false, errors, values };
  }
  return {
    ok: true,
    name,
    values,
    answer: {
      version: 1,
      tradingLength,
      terms,
      termsOther,
      creditLimitCents,
      highestBalanceCents,
      paymentBehaviour,
      dishonours: dishonours === "yes",
      dishonourDetails,
      recommend: recommend === "yes",
      comments,
      position,
    },
  };
}

export type AnswerResult =
  { ok: true; answeredAt: Date } | { ok: false; problem: "answered" | "closed" | "expired" | "replaced" | "unknown" };

/**
 * Records a referee's answer, once. Under the application's shared lock (a decision, which takes
 * it for update, waits for the answer or is waited for) and the reference's row lock (two answers
 * at once: the second waits, then finds it answered), the link the page checked must still be
 * this row's (a resend gives it a new selector: `replaced`), unexpired, and the application still
 * waiting for its decision. The update is conditional on no answer yet as well, and the
 * database's trigger refuses any change of an answer, so nothing can ever answer twice.
 */
export async function answerTradeReference(input: {
  businessId: string;
  referenceId: string;
  /** The selector of the token the page checked. */
  selector: string;
  answer: TradeReferenceAnswer;
  name: string;
  clientAddress: string;
  userAgent: string | null;
}): Promise<AnswerResult> {
  const { businessId } = input;
  const at = clockNow();
  const db = await getDb();
  const result = await db.transaction().execute(async (tx): Promise<AnswerResult> => {
    const reference = await tx
      .selectFrom("credit_trade_references")
      .select(["application_id as applicationId"])
      .where("business_id", "=", businessId)
      .where("id", "=", input.referenceId)
      .executeTakeFirst();
    if (!reference) return { ok: false, problem: "unknown" };
    const application = await tx
      .selectFrom("credit_applications")
      .select("status")
      .where("business_id", "=", businessId)
      .where("id", "=", reference.applicationId)
      .forShare()
      .executeTakeFirstOrThrow();
    const row = await tx
      .selectFrom("credit_trade_references")
      .select(["selector", "answered_at as answeredAt", "link_expires_at as linkExpiresAt"])
      .where("business_id", "=", businessId)
      .where("id", "=", input.referenceId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.answeredAt) return { ok: false, problem: "answered" };
    if (application.status !== "submitted") return { ok: false, problem: "closed" };
    if (row.selector !== input.selector) return { ok: false, problem: "replaced" };
    if (new Date(row.linkExpiresAt).getTime() <= at.getTime()) return { ok: false, problem: "expired" };
    const updated = await tx
      .updateTable("credit_trade_references")
      .set({
        answered_at: at,
        answer: JSON.stringify(input.answer),
        answered_by_name: input.name,
        answer_ip: input.clientAddress.slice(0, 64),
        answer_user_agent: input.userAgent ? input.userAgent.slice(0, 512) : null,
      })
      .where("business_id", "=", businessId)
      .where("id", "=", input.referenceId)
      .where("answered_at", "is", null)
      .where("selector", "=", input.selector)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { ok: false, problem: "answered" };
    return { ok: true, answeredAt: at };
  });
  if (result.ok) {
    await audit({
      businessId,
      action: "credit.reference.answered",
      clientIp: input.clientAddress,
      details: { referenceId: input.referenceId },
    });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The email

export type RefereeDelivery = Delivery;

/**
 * Emails a referee their link (the submission's invitation, and the back office's resend). The
 * token is in this email and nowhere else: the log names the application and the position, never
 * the link. A mail failure is returned, never thrown: the link is already committed, and a resend
 * fixes it.
 */
export async function sendTradeReferenceRequest(
  businessId: string,
  input: {
    token: string;
    email: string;
    refereeName: string;
    refereeBusiness: string;
    applicantName: string;
    applicationReference: string;
    position: number;
    expiresAt: Date;
    resend: boolean;
    onLink?: (email: string, link: string) => void;
  },
): Promise<RefereeDelivery> {
  const db = await getDb();
  return deliverLinkEmail(
    "trade reference request",
    input.email,
    { application: input.applicationReference, position: input.position, resend: input.resend },
    async () => {
      const { branding, support: business } = await linkSender(
        db,
        businessId,
        () => new Error("the business has no host name"),
      );
      const link = publicLink(branding, tradeReferencePath(input.token));
      input.onLink?.(input.email, link);
      const mail = await renderTradeReferenceRequestEmail({
        branding,
        support: business,
        refereeName: input.refereeName,
        refereeBusiness: input.refereeBusiness,
        applicantName: input.applicantName,
        applicationReference: input.applicationReference,
        link,
        expiresAt: input.expiresAt,
        resend: input.resend,
      });
      // One message per link (a resend mints a new one): keyed by the link's hash, never the link.
      await sendThroughOutbox(
        {
          // An applicant or a referee is not a contact: no preferences apply (decision 039).
          category: "non-contact",
          to: input.email,
          fromName: branding.businessName,
          replyTo: business.supportEmail ?? undefined,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        },
        { key: `trade-reference:${createHash("sha256").update(input.token).digest("base64url")}`, businessId },
      );
    },
  );
}
