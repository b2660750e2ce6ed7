import type { ActionFunctionArgs } from "@remix-run/node";
import { formatMoney, parseMoneyToCents } from "~/lib/format";
import type { MessageKey } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import { todayIso } from "~/lib/payment-method-schemas";
import {
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

const refuse = ({ status, reason, message, errors, extra }: Refusal) =>
  apiJson({ ok: false, reason, message, ...(errors ? { errors } : {}), ...extra }, { status });

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
function asValue(thrown: unknown): Response {
  if (thrown instanceof Response) {
    const known = REASON_BY_STATUS[thrown.status] ?? { reason: "refused", key: "paytoPay.api.invalid" as MessageKey };
    const headers: Record<string, string> = {};
    const cookie = thrown.headers.get("Set-Cookie");
    if (cookie) headers["Set-Cookie"] = cookie;
    // A 400 from reading the body says 422 here: the payload is the caller's to fix.
    const status = thrown.status === 400 || thrown.status === 415 ? 422 : thrown.status;
    return apiJson({ ok: false, reason: known.reason, message: english(known.key) }, { status, headers });
  }
  logger.error("api payTo payment failed", { error: thrown });
  return apiJson({ ok: false, reason: "unavailable", message: english("paytoPay.api.busy") }, { status: 503 });
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    return await pay(request);
  } catch (thrown) {
    return asValue(thrown);
  }
}

export function loader() {
  return refuse({ status: 405, reason: "method_not_allowed", message: english("paytoPay.api.methodNotAllowed") });
}

/** Money as the spec's payloads give it: a JSON number or a decimal string, exact to the cent. */
function money(value: unknown): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    value = String(value);
  }
  if (typeof value !== "string" || value.length > 20) return null;
  const parsed = parseMoneyToCents(value);
  return parsed.ok ? parsed.cents : null;
}

function bool(value: unknown): boolean | null {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return null;
}

type Order = {
  orderId: string;
  balanceTotal: number;
  partPayAmount: number;
  paymentAmount: number;
  discount: number;
  merchantFee: number;
  lateFee: number;
};

type Payload = {
  accountId: string;
  agreementId: string;
  requestGuid: string;
  note: string;
  isPartPay: boolean;
  merchantFeeComponent: number;
  totalLateFee: number;
  totalDiscount: number;
  amount: number;
  subTotal: number;
  orders: Order[];
};

/** Reads the payload; each problem is named by its field (orders[2].paymentAmount). */
function parsePayload(
  body: Record<string, unknown>,
): { ok: true; payload: Payload } | { ok: false; errors: Record<string, MessageKey> } {
  const errors: Record<string, MessageKey> = {};
  const uuid = (name: string, value: unknown) => {
    if (value === undefined || value === null || value === "") errors[name] = "paytoPay.field.required";
    else if (typeof value !== "string" || !UUID.test(value)) errors[name] = "paytoPay.field.uuid";
    return typeof value === "string" ? value.toLowerCase() : "";
  };
  const cents = (name: string, value: unknown) => {
    if (value === undefined || value === null || value === "") {
      errors[name] = "paytoPay.field.required";
      return 0;
    }
    const parsed = money(value);
    if (parsed === null) errors[name] = "paytoPay.field.money";
    return parsed ?? 0;
  };
  const flag = (name: string, value: unknown, required: boolean) => {
    if (value === undefined || value === null || value === "") {
      if (required) errors[name] = "paytoPay.field.required";
      return false;
    }
    const parsed = bool(value);
    if (parsed === null) errors[name] = "paytoPay.field.boolean";
    return parsed ?? false;
  };

  const accountId = uuid("accountID", body.accountID ?? body.accountId);
  const agreementId = uuid("PaymentTokenGuid", body.PaymentTokenGuid);
  const requestGuid = uuid("requestGuid", body.requestGuid);
  flag("savePaymentMethod", body.savePaymentMethod, false);
  flag("applyFee", body.applyFee, false);
  flag("applyLateFee", body.applyLateFee, false);
  const isPartPay = flag("isPartPay", body.isPartPay, true);
  const merchantFeeComponent = cents("merchantFeeComponent", body.merchantFeeComponent);
  if (!errors.merchantFeeComponent && merchantFeeComponent !== 0)
    errors.merchantFeeComponent = "paytoPay.field.merchantFee";
  const totalLateFee = cents("totalLateFee", body.totalLateFee);
  const totalDiscount = cents("totalDiscount", body.totalDiscount);
  const amount = cents("amount", body.amount);
  const subTotal = cents("subTotal", body.subTotal);
  if (body.promiseDate !== undefined && body.promiseDate !== null && body.promiseDate !== "") {
    errors.promiseDate = "paytoPay.field.promiseDate";
  }
  const rawNote = body.paymentNote ?? "";
  if (typeof rawNote !== "string" || rawNote.length > 500) errors.paymentNote = "paytoPay.field.note";
  const note = typeof rawNote === "string" ? rawNote.trim().slice(0, 500) : "";

  const orders: Order[] = [];
  const raw = body.orders;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_ORDERS) {
    errors.orders = raw === undefined ? "paytoPay.field.required" : "paytoPay.field.orders";
  } else {
    raw.forEach((item: unknown, index) => {
      const at = (field: string) => `orders[${index}].${field}`;
      if (item === null || typeof item !== "object" || Array.isArray(item)) {
        errors[`orders[${index}]`] = "paytoPay.field.orders";
        return;
      }
      const o = item as Record<string, unknown>;
      const order: Order = {
        orderId: uuid(at("orderId"), o.orderId),
        balanceTotal: cents(at("balanceTotal"), o.balanceTotal),
        partPayAmount: cents(at("partPayAmount"), o.partPayAmount),
        paymentAmount: cents(at("paymentAmount"), o.paymentAmount),
        discount: cents(at("discount"), o.discount),
        merchantFee: cents(at("merchantFee"), o.merchantFee),
        lateFee: cents(at("lateFee"), o.lateFee),
      };
      // Spec §9: an order's merchantFee is always 0.
      if (!errors[at("merchantFee")] && order.merchantFee !== 0)
        errors[at("merchantFee")] = "paytoPay.field.merchantFee";
      orders.push(order);
    });
    if (!errors.orders && new Set(orders.map((o) => o.orderId)).size !== orders.length) {
      errors.orders = "paytoPay.field.orders";
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    payload: {
      accountId,
      agreementId,
      requestGuid,
      note,
      isPartPay,
      merchantFeeComponent,
      totalLateFee,
      totalDiscount,
      amount,
      subTotal,
      orders,
    },
  };
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
  const today = todayIso();
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
