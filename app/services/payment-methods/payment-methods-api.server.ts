import { z } from "zod";
import { checkNzAccount, maskAccountNumber, parseAuAccountNumber, parseBsb } from "~/lib/bank-account";
import { brandFromTypeId, CARD_TYPE_IDS, cardDigits, detectBrand, formatExpiry, isExpired } from "~/lib/card";
import type { MessageKey } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import { maskCardNumber } from "~/lib/format";
import {
  accountName,
  authorityReference,
  cardHolderName,
  checkCard,
  checkExpiry,
  CONTROL,
  description,
  plainText,
  todayIso,
} from "~/lib/payment-method-schemas";
import { requireApiAccountAccess } from "../accounts/account-access.server";
import { requireApiPortalAccess } from "../auth/auth.server";
import { apiError, apiJson, methodNotAllowed, readApiBody } from "../platform/http.server";
import { problemBody } from "../platform/problems.server";
import type { SavedBankAccount, SavedCard } from "./payment-methods.server";
import { gatewayContextFrom } from "./payment-methods.server";
import { clientAddress, requestOrigin, requireSameOrigin } from "../platform/request-context.server";
import { UUID } from "~/lib/ids";

/**
 * The JSON side of saved cards and bank accounts (spec §3 payloads, §5, §7): the same rules
 * as the pages, read from JSON (numbers or strings), answered in English, with the spec's
 * exact messages where it gives them. Account-scoped: another account's ids are a 404.
 */
const english = translator("en-AU");

/** Session, portal access, and an account the contact may see; else 401/404 as JSON. */
export async function requireApiPaymentAccount(request: Request, accountId: unknown) {
  const { branding, session } = await requireApiPortalAccess(request);
  if (accountId === undefined || accountId === null || accountId === "") throw apiError(400, "Invalid request");
  const account = await requireApiAccountAccess(
    branding.businessId,
    session.contact.id,
    String(accountId).slice(0, 100),
  );
  const clientIp = clientAddress(request);
  return {
    branding,
    account,
    actor: { businessId: branding.businessId, accountId: account.accountId, contactId: session.contact.id, clientIp },
    clientIp,
  };
}

/**
 * The start of every save or update call: the method (else 405), the same-origin check, the
 * body (JSON or a form), then the session, portal access and the account the body names.
 * Nothing reaches the gateway before all of this and the body's own checks have passed.
 */
export async function readPaymentMethodCall(request: Request, method: "POST" | "PUT") {
  if (request.method !== method) throw methodNotAllowed([method]);
  requireSameOrigin(request);
  const body = await readApiBody(request);
  return { body, ...(await requireApiPaymentAccount(request, body.accountId)) };
}

/**
 * The start of a removal (`DELETE ?<idName>=&accountId=`): the method, the same-origin check,
 * the id (missing → 400 with the spec's §5 message), then the account.
 */
export async function readRemovalCall(request: Request, idName: string, missing: string) {
  if (request.method !== "DELETE") throw methodNotAllowed(["DELETE"]);
  requireSameOrigin(request);
  const params = new URL(request.url).searchParams;
  const id = params.get(idName);
  if (!id) throw apiError(400, missing);
  const { actor } = await requireApiPaymentAccount(request, params.get("accountId"));
  return { id, actor };
}

/** 400 with the first problem as `message` and every field's problem in `errors`. */
export function validationError(issues: z.ZodIssue[]) {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "body");
    errors[field] ??= english(issue.message as MessageKey);
  }
  const [first] = Object.values(errors);
  const message = first ?? "Invalid request";
  return apiJson({ ...problemBody(400, message, { code: "validation", fields: errors }), errors }, { status: 400 });
}

export function refusalError(refusal: string) {
  const status = refusal === "unavailable" ? 503 : refusal === "limit" ? 409 : 422;
  const message = english(`pm.refusal.${refusal}` as MessageKey, { max: 20 });
  return apiJson({ ...problemBody(status, message, { code: refusal }), code: refusal }, { status });
}

/** JSON numbers and strings alike, as text (so "07" and 7 read the same); anything else stays as is. */
const text = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? String(value) : value);
const asText = <T extends z.ZodTypeAny>(schema: T) => z.preprocess(text, schema);

/**
 * gatewayExtraData: a small flat object of short strings, with no control characters (it is
 * handed to the gateway and kept by it) and never anything shaped like a card number.
 */
const ExtraData = z
  .preprocess(
    (value) => {
      if (typeof value !== "string") return value;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    },
    z
      .record(z.string().max(40), z.string().max(200))
      .refine((record) => Object.keys(record).length <= 10, "pm.error.form")
      .refine(
        (record) => Object.entries(record).every(([name, value]) => !CONTROL.test(name) && !CONTROL.test(value)),
        "pm.error.text.control",
      ),
  )
  .refine(
    (record) => !Object.values(record).some((value) => /\d{12,}/.test(value.replace(/[\s-]/g, ""))),
    "pm.error.form",
  )
  .optional();

const required = (k: MessageKey) => ({ required_error: k, invalid_type_error: k });

/** An expiry month (1–12, "07" or 7) and year ("27" or 2027), as the page forms take them. */
const expiryMonth = asText(
  z
    .string(required("pm.error.expiryMonth.required"))
    .max(2, "pm.error.expiryMonth.invalid")
    .regex(/^(0?[1-9]|1[0-2])$/, "pm.error.expiryMonth.invalid"),
);
const expiryYear = asText(
  z
    .string(required("pm.error.expiryYear.required"))
    .max(4, "pm.error.expiryYear.invalid")
    .regex(/^(\d{2}|20\d{2})$/, "pm.error.expiryYear.invalid"),
);

export function parseSaveCard(body: Record<string, unknown>, today = todayIso()) {
  const schema = z
    .object({
      accountId: z.unknown(),
      cardNumber: asText(z.string(required("pm.error.cardNumber.required")).max(30, "pm.error.cardNumber.invalid")),
      cardHolderName,
      cvn: asText(
        z
          .string(required("pm.error.cvn.required"))
          .max(4, "pm.error.cvn.invalid")
          .regex(/^\d{3,4}$/, "pm.error.cvn.invalid"),
      ),
      expiry: z
        .string()
        .max(7, "pm.error.expiryYear.invalid")
        .regex(/^(0?[1-9]|1[0-2])\/(\d{2}|20\d{2})$/, "pm.error.expiryYear.invalid")
        .optional(),
      expiryMonth: expiryMonth.optional(),
      expiryYear: expiryYear.optional(),
      creditCardTypeID: z.coerce.number().int().optional(),
      authorityReference,
      isDefault: z.boolean().optional(),
      gatewayOrigin: plainText("pm.error.text.type", 200, "pm.error.form").optional(),
      gatewayExtraData: ExtraData,
    })
    .passthrough()
    .transform((value, ctx) => {
      // `expiry` ("MM/YY") and expiryMonth/expiryYear are two spellings of one thing.
      const [month, year] = value.expiry ? value.expiry.split("/") : [value.expiryMonth, value.expiryYear];
      if (!month) ctx.addIssue({ code: "custom", path: ["expiryMonth"], message: "pm.error.expiryMonth.required" });
      if (!year) ctx.addIssue({ code: "custom", path: ["expiryYear"], message: "pm.error.expiryYear.required" });
      if (!month || !year) return z.NEVER;
      const card = checkCard({ cardNumber: value.cardNumber, cvn: value.cvn }, ctx);
      const expiry = checkExpiry({ expiryMonth: month, expiryYear: year }, ctx, today);
      if (!card || !expiry) return z.NEVER;
      if (value.creditCardTypeID !== undefined && brandFromTypeId(value.creditCardTypeID) !== card.brand) {
        ctx.addIssue({ code: "custom", path: ["creditCardTypeID"], message: "pm.error.cardNumber.brand" });
        return z.NEVER;
      }
      return {
        cardNumber: card.digits,
        cvn: value.cvn,
        holderName: value.cardHolderName,
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        authorityReference: value.authorityReference,
        makeDefault: value.isDefault === true,
        gatewayOrigin: value.gatewayOrigin,
        extraData: value.gatewayExtraData ?? {},
      };
    });
  return schema.safeParse(body);
}

const updateCardSchema = (today: string) =>
  z
    .object({
      creditCardId: z.unknown(),
      accountId: z.unknown(),
      businessId: z.unknown(),
      expiryMonth,
      expiryYear,
      cvn: asText(
        z
          .string()
          .max(4, "pm.error.cvn.invalid")
          .regex(/^\d{3,4}$/, "pm.error.cvn.invalid"),
      ).optional(),
      cardHolderName: cardHolderName.optional(),
      cardNumber: asText(z.string().max(30, "pm.error.cardNumber.invalid")).optional(),
      creditCardTypeId: z.coerce.number().int().optional(),
      creditCardType: z.unknown().optional(),
    })
    .passthrough()
    .transform((value, ctx) => {
      const expiry = checkExpiry({ expiryMonth: value.expiryMonth, expiryYear: value.expiryYear }, ctx, today);
      if (!expiry) return z.NEVER;
      const digits = value.cardNumber === undefined ? null : cardDigits(value.cardNumber);
      if (value.cardNumber !== undefined && (!digits || !detectBrand(digits))) {
        ctx.addIssue({ code: "custom", path: ["cardNumber"], message: "pm.error.cardNumber.invalid" });
        return z.NEVER;
      }
      return {
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        cvn: value.cvn,
        holderName: value.cardHolderName,
        cardNumberLast4: digits ? digits.slice(-4) : null,
        cardTypeId: value.creditCardTypeId ?? null,
      };
    });

/**
 * The card a PUT names, read before its fields (whose problems are told only about a card the
 * caller may see): `undefined` when absent, `null` when it can name none. businessId is compared
 * as text with the host's, as String() reads it (a list of one id reads as that id); a longer
 * text than an id is no business's. creditCardId "" is absent; anything but a UUID is no card.
 */
const CardReferenceSchema = z
  .object({
    businessId: z.preprocess(
      (value) => (value === undefined ? undefined : String(value)),
      z.string().max(36).nullable().catch(null).optional(),
    ),
    creditCardId: z.preprocess(
      (value) => (value === "" ? undefined : value),
      z.string().max(36).regex(UUID).nullable().catch(null).optional(),
    ),
  })
  .passthrough();

/**
 * The body of PUT /api/sample/update-credit-card as one schema: the card it names (never
 * refused, so that the route answers 404/400 about it first) and, as a result of its own, the
 * update (expiry, holder name, CVN, the number and type it must match). Other fields are kept
 * out of the update, as they always were.
 */
export function parseUpdateCardCall(body: Record<string, unknown>, today = todayIso()) {
  return CardReferenceSchema.transform(({ businessId, creditCardId, ...fields }) => ({
    businessId,
    creditCardId,
    update: updateCardSchema(today).safeParse(fields),
  })).parse(body);
}

export function parseSaveBankAccount(body: Record<string, unknown>, country: "AU" | "NZ") {
  const schema = z
    .object({
      accountId: z.unknown(),
      accountName,
      accountRouting: asText(
        z.string(required(country === "AU" ? "pm.error.bsb.required" : "pm.error.nzBank.required")).max(12),
      ),
      accountNumber: asText(
        z
          .string(required(country === "AU" ? "pm.error.auAccountNumber.required" : "pm.error.nzAccount.required"))
          .max(16),
      ),
      description,
      authorityReference,
    })
    .passthrough()
    .transform((value, ctx) => {
      const base = {
        accountName: value.accountName,
        description: value.description ?? "",
        authorityReference: value.authorityReference,
      };
      if (country === "AU") {
        const routing = parseBsb(value.accountRouting);
        const number = parseAuAccountNumber(value.accountNumber);
        if (!routing) ctx.addIssue({ code: "custom", path: ["accountRouting"], message: "pm.error.bsb.invalid" });
        if (!number)
          ctx.addIssue({ code: "custom", path: ["accountNumber"], message: "pm.error.auAccountNumber.invalid" });
        if (!routing || !number) return z.NEVER;
        return { ...base, country, routing, accountNumber: number };
      }
      // Spec §3: NZ routing is bank-branch, the number is account-suffix.
      const [bank = "", branch = "", extra] = value.accountRouting.trim().split("-");
      const [account = "", suffix = "", extraNumber] = value.accountNumber.trim().split("-");
      if (extra !== undefined || !/^\d{2}$/.test(bank) || !/^\d{4}$/.test(branch)) {
        ctx.addIssue({ code: "custom", path: ["accountRouting"], message: "pm.error.nzBranch.invalid" });
        return z.NEVER;
      }
      if (extraNumber !== undefined || !/^\d{7}$/.test(account) || !/^\d{2,3}$/.test(suffix)) {
        ctx.addIssue({ code: "custom", path: ["accountNumber"], message: "pm.error.nzAccount.invalid" });
        return z.NEVER;
      }
      const check = checkNzAccount({ bank, branch, account, suffix });
      if (!check.ok) {
        ctx.addIssue({
          code: "custom",
          path: [check.problem === "bank" ? "accountRouting" : "accountNumber"],
          message: check.problem === "bank" ? "pm.error.nzBank.unknown" : "pm.error.nzAccount.checksum",
        });
        return z.NEVER;
      }
      return { ...base, country, routing: `${bank}-${branch}`, accountNumber: `${account}-${suffix}` };
    });
  return schema.safeParse(body);
}

export function gatewayContextForApi(
  request: Request,
  clientIp: string,
  origin: string | undefined,
  extraData: Record<string, string>,
) {
  // The origin the gateway is told is the page's: a caller may name its own only if it is this host.
  const own = requestOrigin(request);
  return gatewayContextFrom(request, clientIp, origin && origin.toLowerCase() === own ? origin : own, extraData);
}

export function cardJson(accountId: string, card: SavedCard) {
  return {
    creditCardId: card.cardId,
    accountId,
    creditCardType: card.brand,
    creditCardTypeId: CARD_TYPE_IDS[card.brand],
    maskedCardNumber: maskCardNumber({ firstDigit: card.firstDigit, lastFour: card.last4 }),
    firstDigit: card.firstDigit,
    last4: card.last4,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    expiry: formatExpiry(card.expiryMonth, card.expiryYear),
    cardHolderName: card.holderName,
    isDefault: card.isDefault,
    isExpired: isExpired(card.expiryMonth, card.expiryYear, todayIso()),
  };
}

export function bankAccountJson(accountId: string, bank: SavedBankAccount) {
  return {
    bankAccountId: bank.bankAccountId,
    accountId,
    country: bank.country,
    accountName: bank.accountName,
    accountRouting: bank.routing,
    // Masked: only the last three digits (and an NZ suffix) leave the server.
    accountNumber: maskAccountNumber(bank.accountNumber),
    description: bank.description,
  };
}
