import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { formatMoney, parseMoneyToCents } from "~/lib/format";
import type { MessageKey } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import {
  businessToday,
  requireApiAccountAccess,
  requireApiPortalAccess,
  checkPayToAgreement,
  findPaymentByGuid,
  loadPayable,
  previewPayment,
  submitPayment,
  type PaymentOutcome,
  findPaymentByReference,
  invoicesOfAccount,
  getPayToConfiguration,
  gatewayContextFrom,
  apiJson,
  readApiBody,
  logger,
  clientAddress,
  requestOrigin,
  requireSameOrigin,
  problemBody,
} from "./payto-api.server";
import { UUID } from "~/lib/ids";

/**
 * POST /api/payTo/payment (spec §3 "PayTo payment payload", §7 "errors are returned as values
 * rather than thrown"; decision 029). Pays invoices under one of the account's ACTIVE PayTo
 * agreements (PaymentTokenGuid). The server recomputes every figure and refuses a payload whose
 * figures differ from its own; nothing is written unless they all agree.
 *
 * Every answer is a JSON value: `{ ok: true, payment }` (200), or `{ ok: false, reason,
 * message, errors? }` with 422 for anything the caller must change (bad fields, figures that
 * differ, an inactive agreement, a rejection), and the HTTP meaning kept where it is about
 * access or transport: 401 signed out, 403 cross-site, 404 another account's or business's
 * ids or a contact without portal access (decision 056), 405, 413. Never a thrown 500.
 */
const english = translator("en-AU");
const MAX_ORDERS = 50;

type Refusal = { status: number; reason: string; message: string; errors?: Record<string, string>; extra?: object };

/** A refusal as a value (spec §7), in the one error shape beside the call's own `ok`/`reason`/`errors` (decision 069). */
const refusal = (status: number, reason: string, message: string, errors?: Record<string, string>) => ({
  ok: false as const,
  reason,
  ...problemBody(status, message, { code: reason, fields: errors }),
  ...(errors ? { errors } : {}),
});

const refuse = ({ status, reason, message, errors, extra }: Refusal) =>
  apiJson({ ...refusal(status, reason, message, errors), ...extra }, { status });

const REASON_BY_STATUS: Record<number, { reason: string; key: MessageKey }> = {
  400: { reason: "malformed", key: "paytoPay.api.malformed" },
  401: { reason: "signed_out", key: "paytoPay.api.signedOut" },
  403: { reason: "cross_origin", key: "paytoPay.api.crossOrigin" },
  404: { reason: "not_found", key: "paytoPay.api.notFound" },
  405: { reason: "method_not_allowed", key: "paytoPay.api.methodNotAllowed" },
  413: { reason: "too_large", key: "paytoPay.api.tooLarge" },
  415: { reason: "malformed", key: "paytoPay.api.malformed" },
};

/**
 * The shared helpers answer access and transport problems by throwing a Response: turn it into
 * this call's value shape, keeping its status (and a cleared cookie on 401). Anything else is
 * a fault of ours: logged, and answered 503 as a value.
 */
async function asValue(thrown: unknown): Promise<Response> {
  if (thrown instanceof Response) {
    const known = REASON_BY_STATUS[thrown.status] ?? { reason: "refused", key: "paytoPay.api.invalid" as MessageKey };
    const headers: Record<string, string> = {};
    const cookie = thrown.headers.get("Set-Cookie");
    if (cookie) headers["Set-Cookie"] = cookie;
    // Portal access taken away while signed in (decision 093): its own reason and words, not a cross-site 403's.
    const withdrawn = thrown.status === 403 ? await withdrawnMessage(thrown) : null;
    if (withdrawn) return apiJson(refusal(403, "access_withdrawn", withdrawn), { status: 403, headers });
    // A 400 from reading the body says 422 here: the payload is the caller's to fix.
    const status = thrown.status === 400 || thrown.status === 415 ? 422 : thrown.status;
    return apiJson(refusal(status, known.reason, english(known.key)), { status, headers });
  }
  logger.error("api payTo payment failed", { error: thrown });
  return apiJson(refusal(503, "unavailable", english("paytoPay.api.busy")), { status: 503 });
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    return await pay(request);
  } catch (thrown) {
    return asValue(thrown);
  }
}

async function withdrawnMessage(thrown: Response): Promise<string | null> {
  const body = (await thrown
    .clone()
    .json()
    .catch(() => null)) as { message?: string; error?: { code?: string } } | null;
  return body?.error?.code === "access_withdrawn" && body.message ? body.message : null;
}

/** Any method but POST: a 405 naming POST in `Allow`, in the call's own shape. */
export function loader() {
  const status = 405;
  const body = refusal(status, "method_not_allowed", english("paytoPay.api.methodNotAllowed"));
  return apiJson(body, { status, headers: { Allow: "POST" } });
}

const REQUIRED: MessageKey = "paytoPay.field.required";
const ORDERS: MessageKey = "paytoPay.field.orders";
const MERCHANT_FEE: MessageKey = "paytoPay.field.merchantFee";
const MONEY: MessageKey = "paytoPay.field.money";

/** Every problem a schema below finds is one message key: `required` for an absent value, `invalid` otherwise. */
const says = (required: MessageKey, invalid: MessageKey = required): z.RawCreateParams => ({
  errorMap: (_issue, ctx) => ({ message: ctx.data === undefined ? required : invalid }),
});

/** The spec's callers send an absent field as missing, null or "": all three read as absent. */
const blankAsAbsent = (value: unknown) => (value === null || value === "" ? undefined : value);

const Uuid = z.preprocess(
  blankAsAbsent,
  z
    .string(says(REQUIRED, "paytoPay.field.uuid"))
    .max(36)
    .regex(UUID)
    .transform((id) => id.toLowerCase()),
);

/** Money as the spec's payloads give it: a JSON number or a decimal string, exact to the cent. */
const Money = z.preprocess(
  blankAsAbsent,
  z
    .union([z.number().transform(String), z.string(says(MONEY)).max(20)], says(REQUIRED, MONEY))
    .transform((text, ctx) => {
      const parsed = parseMoneyToCents(text);
      if (parsed.ok) return parsed.cents;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: MONEY });
      return z.NEVER;
    }),
);

/** Spec §9: the merchant fee is always 0. */
const ZeroMoney = Money.pipe(z.literal(0, says(MERCHANT_FEE)));

const Flag = z.union(
  [z.boolean(), z.enum(["true", "false"]).transform((flag) => flag === "true")],
  says(REQUIRED, "paytoPay.field.boolean"),
);
const RequiredFlag = z.preprocess(blankAsAbsent, Flag);
const OptionalFlag = z.preprocess(blankAsAbsent, Flag.optional());

const OrderSchema = z.object(
  {
    orderId: Uuid,
    balanceTotal: Money,
    partPayAmount: Money,
    paymentAmount: Money,
    discount: Money,
    merchantFee: ZeroMoney,
    lateFee: Money,
  },
  says(ORDERS),
);

/**
 * An invoice paid twice in one payload. Read from the list as sent, so that it is named even when
 * an order is also wrong (an order that is not an object has no id to compare).
 */
function paysAnInvoiceTwice(orders: unknown[]): boolean {
  const ids = orders.flatMap((order) => {
    if (order === null || typeof order !== "object" || Array.isArray(order)) return [];
    const id = (order as { orderId?: unknown }).orderId;
    return [typeof id === "string" ? id.toLowerCase() : ""];
  });
  return new Set(ids).size !== ids.length;
}

const OrdersSchema = z.preprocess(
  (orders, ctx) => {
    if (Array.isArray(orders) && paysAnInvoiceTwice(orders))
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: ORDERS, params: { afterOrders: true } });
    return orders;
  },
  z
    .array(z.unknown(), says(REQUIRED, ORDERS))
    .min(1)
    .max(MAX_ORDERS)
    // Only a list of the right length has its orders read.
    .pipe(z.array(OrderSchema).max(MAX_ORDERS)),
);

/** Spec §3's PayTo payment payload; unknown fields are ignored. */
const PayloadSchema = z.preprocess(
  // `accountID` is the spec's spelling; `accountId` is accepted as well.
  (body) => {
    const fields = body as Record<string, unknown>;
    return { ...fields, accountID: fields.accountID ?? fields.accountId };
  },
  z
    .object({
      accountID: Uuid,
      PaymentTokenGuid: Uuid,
      requestGuid: Uuid,
      savePaymentMethod: OptionalFlag,
      applyFee: OptionalFlag,
      applyLateFee: OptionalFlag,
      isPartPay: RequiredFlag,
      merchantFeeComponent: ZeroMoney,
      totalLateFee: Money,
      totalDiscount: Money,
      amount: Money,
      subTotal: Money,
      // A PayTo payment is made now: a promise to pay later is refused.
      promiseDate: z.preprocess(blankAsAbsent, z.undefined(says("paytoPay.field.promiseDate"))),
      paymentNote: z
        .string(says("paytoPay.field.note"))
        .max(500)
        .nullish()
        .transform((note) => (note ?? "").trim()),
      orders: OrdersSchema,
    })
    .transform((payload) => ({
      accountId: payload.accountID,
      agreementId: payload.PaymentTokenGuid,
      requestGuid: payload.requestGuid,
      note: payload.paymentNote,
      isPartPay: payload.isPartPay,
      merchantFeeComponent: payload.merchantFeeComponent,
      totalLateFee: payload.totalLateFee,
      totalDiscount: payload.totalDiscount,
      amount: payload.amount,
      subTotal: payload.subTotal,
      orders: payload.orders,
    })),
);

type Payload = z.output<typeof PayloadSchema>;

/** `orders[2].paymentAmount` for the path ["orders", 2, "paymentAmount"]. */
const fieldName = (path: (string | number)[]) =>
  path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join("");

/** Reads the payload; each problem is named by its field (orders[2].paymentAmount), the first problem of each. */
function parsePayload(
  body: Record<string, unknown>,
): { ok: true; payload: Payload } | { ok: false; errors: Record<string, MessageKey> } {
  const parsed = PayloadSchema.safeParse(body);
  if (parsed.success) return { ok: true, payload: parsed.data };
  const errors: Record<string, MessageKey> = {};
  // A duplicate is named after the orders' own problems, as the answers have always listed it.
  const issues = parsed.error.issues;
  const afterOrders = (issue: z.ZodIssue) => issue.code === z.ZodIssueCode.custom && issue.params?.afterOrders === true;
  for (const issue of [...issues.filter((i) => !afterOrders(i)), ...issues.filter(afterOrders)]) {
    // Every message above is a MessageKey (`says`, and the two custom issues).
    errors[fieldName(issue.path)] ??= issue.message as MessageKey;
  }
  return { ok: false, errors };
}

const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

async function pay(request: Request): Promise<Response> {
  if (request.method !== "POST") return loader();
  requireSameOrigin(request);
  // Paying under the account's agreement needs portal access, as listing or setting one up does
  // (decision 056): without it, 404 as every account-scoped call, before the body is read.
  const { branding, session } = await requireApiPortalAccess(request);
  const body = await readApiBody(request);
  const parsed = parsePayload(body);
  if (!parsed.ok) {
    const errors = Object.fromEntries(Object.entries(parsed.errors).map(([field, key]) => [field, english(key)]));
    // An account id we cannot read is still the caller's to fix; one we can read but may not see is a 404 below.
    return refuse({ status: 422, reason: "invalid", message: english("paytoPay.api.invalid"), errors });
  }
  const payload = parsed.payload;
  const account = await requireApiAccountAccess(branding.businessId, session.contact.id, payload.accountId);
  const actor = {
    businessId: branding.businessId,
    accountId: account.accountId,
    contactId: session.contact.id,
    clientIp: clientAddress(request),
  };

  // A refusal over the PayTo limit names the limit that applied (the agreement's or the
  // business's, whichever is less, read when refused), in the business's currency.
  const over = {
    currency: branding.currency,
    limit: async () => {
      const now = await checkPayToAgreement(actor, payload.agreementId);
      return now.kind === "ok"
        ? now.agreement.maxCents
        : (await getPayToConfiguration(actor.businessId)).maxPaymentCents;
    },
  };

  // A repeat of the requestGuid answers the first result (which may have changed what is payable).
  const prior = await findPaymentByGuid(actor, payload.requestGuid);
  if (prior && prior.kind !== "invalid" && prior.kind !== "conflict") return answer(branding.businessId, prior, over);

  // Another account's or business's ids: 404, before anything about them is said.
  const ids = payload.orders.map((o) => o.orderId);
  const mine = await invoicesOfAccount(actor, ids);
  if (ids.some((id) => !mine.has(id))) return notFound();
  const agreement = await checkPayToAgreement(actor, payload.agreementId);
  if (agreement.kind === "agreement") return notFound();
  if (agreement.kind === "method") {
    return refuse({ status: 422, reason: "disabled", message: english("paytoPay.error.disabled") });
  }
  if (agreement.kind === "agreementInactive") {
    return refuse({
      status: 422,
      reason: "agreement_not_active",
      message: english("paytoPay.error.agreementInactive"),
    });
  }

  const invoices = await loadPayable(actor, ids);
  if (invoices.length !== ids.length || invoices.some((i) => i.availableCents < 1)) {
    return refuse({ status: 422, reason: "not_payable", message: english("paytoPay.api.notPayable") });
  }
  const tooLarge: Record<string, string> = {};
  payload.orders.forEach((order, index) => {
    const invoice = invoices.find((i) => i.id === order.orderId)!;
    if (order.paymentAmount < 1 || order.paymentAmount > invoice.availableCents) {
      tooLarge[`orders[${index}].paymentAmount`] = english("paytoPay.field.tooLarge");
    }
  });
  if (Object.keys(tooLarge).length > 0) {
    return refuse({ status: 422, reason: "invalid", message: english("paytoPay.api.invalid"), errors: tooLarge });
  }

  // The server's own figures, compared field by field with the payload's.
  const today = businessToday(branding.timeZone);
  const amounts = Object.fromEntries(payload.orders.map((o) => [o.orderId, o.paymentAmount]));
  const ours = await previewPayment(actor, invoices, amounts, { kind: "payto" }, today);
  const differs: Record<string, string> = {};
  const show = (cents: number) => formatMoney(cents, { currency: branding.currency });
  const compare = (field: string, theirs: number | boolean, expected: number | boolean) => {
    if (theirs !== expected) {
      differs[field] = english("paytoPay.field.differs", {
        expected: typeof expected === "boolean" ? String(expected) : show(expected),
      });
    }
  };
  compare("subTotal", payload.subTotal, ours.subTotal);
  compare("totalLateFee", payload.totalLateFee, ours.totalLateFee);
  compare("totalDiscount", payload.totalDiscount, ours.totalDiscount);
  compare("merchantFeeComponent", payload.merchantFeeComponent, ours.merchantFeeComponent);
  compare("amount", payload.amount, ours.amount);
  compare(
    "isPartPay",
    payload.isPartPay,
    ours.orders.some((o) => o.partPayAmount > 0),
  );
  payload.orders.forEach((order, index) => {
    const line = ours.orders.find((o) => o.orderId === order.orderId)!;
    for (const field of ["balanceTotal", "partPayAmount", "paymentAmount", "discount", "lateFee"] as const) {
      compare(`orders[${index}].${field}`, order[field], line[field]);
    }
  });
  if (Object.keys(differs).length > 0) {
    return refuse({
      status: 422,
      reason: "figures_differ",
      message: english("paytoPay.api.figuresDiffer"),
      errors: differs,
    });
  }
  // The limit (the agreement's or the business's, whichever is less) is checked by submitPayment
  // under the invoices' lock, where it is current; its refusal is answered below with that limit.
  const outcome = await submitPayment(
    actor,
    {
      requestGuid: payload.requestGuid,
      selection: payload.orders.map((o) => ({ invoiceId: o.orderId, amountCents: o.paymentAmount })),
      method: { kind: "payto", agreementId: payload.agreementId },
      note: payload.note,
      currency: branding.currency,
      today,
      expectedAmountCents: ours.amount,
    },
    gatewayContextFrom(request, actor.clientIp, requestOrigin(request)),
  );
  return answer(branding.businessId, outcome, over);
}

function notFound() {
  return refuse({ status: 404, reason: "not_found", message: english("paytoPay.api.notFound") });
}

/** `over`: for a refusal over the PayTo limit, the limit that applied and the business's currency. */
async function answer(
  businessId: string,
  outcome: PaymentOutcome,
  over: { currency: string; limit: () => Promise<number> },
): Promise<Response> {
  switch (outcome.kind) {
    case "submitted":
    case "succeeded":
    case "pending":
    case "promised": {
      const payment = await findPaymentByReference(businessId, outcome.reference);
      // The first request with this guid is still running (no reference yet): ask again shortly.
      if (!payment) return refuse({ status: 503, reason: "unavailable", message: english("paytoPay.api.busy") });
      return apiJson({
        ok: true,
        payment: {
          reference: payment.reference,
          status: payment.status,
          method: payment.method,
          currency: payment.currency,
          amount: decimal(payment.amount_cents),
          subTotal: decimal(payment.subtotal_cents),
          totalLateFee: decimal(payment.late_fee_cents),
          totalDiscount: decimal(payment.discount_cents),
          merchantFeeComponent: decimal(payment.merchant_fee_cents),
          receipt: `/payment/complete/${payment.reference}`,
          orders: payment.allocations.map((a) => ({ number: a.number, paymentAmount: decimal(a.amountCents) })),
        },
      });
    }
    case "declined": {
      const reason = english(`paytoPay.reason.${outcome.refusal}` as MessageKey);
      return refuse({
        status: 422,
        reason: "rejected",
        message: english("paytoPay.error.rejected", { reason }),
        extra: { refusal: outcome.refusal, payment: { reference: outcome.reference, status: "failed" } },
      });
    }
    case "conflict":
      return refuse({ status: 422, reason: "conflict", message: english("paytoPay.api.conflict") });
    case "invalid":
      switch (outcome.problem) {
        case "agreement":
        case "invoice":
          return outcome.problem === "agreement"
            ? notFound()
            : refuse({ status: 422, reason: "not_payable", message: english("paytoPay.api.notPayable") });
        case "agreementInactive":
          return refuse({
            status: 422,
            reason: "agreement_not_active",
            message: english("paytoPay.error.agreementInactive"),
          });
        case "method":
          return refuse({ status: 422, reason: "disabled", message: english("paytoPay.error.disabled") });
        case "limit": {
          const max = formatMoney(await over.limit(), { currency: over.currency });
          return refuse({ status: 422, reason: "over_limit", message: english("paytoPay.error.limit", { max }) });
        }
        default:
          // amount: the balances moved between our check and the claim (another payment won).
          return refuse({ status: 422, reason: "figures_differ", message: english("paytoPay.api.figuresDiffer") });
      }
  }
}
