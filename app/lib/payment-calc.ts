/**
 * What a payment costs, in integer cents (issue 3; spec §3 PayTo payment payload). Pure code:
 * the server computes it when the pay page is shown and again at submit, so the browser never
 * sets a price. Percentages are basis points (1% = 100), rounded half up to the cent, per
 * line, once, at the end of each step.
 */
import type { CardBrand } from "./payment-method-types";

export type FeeRules = {
  /** Card surcharge by brand; a brand not listed pays `default` (or nothing). */
  surcharge: Partial<Record<CardBrand | "default", { bps: number; fixedCents: number }>>;
  /** On invoices past their due date. */
  lateFee: { bps: number; fixedCents: number } | null;
  /** On invoices paid in full at least `daysBeforeDue` days before they are due. */
  earlyDiscount: { bps: number; daysBeforeDue: number } | null;
};

/**
 * The rules a payment request is priced by (decision 075): the card surcharge only. A request's
 * amount is what its email asked for, so no late fee is added to it and no early-payment discount
 * taken off it, whatever its invoices' due dates (the business sets the amount it asks for).
 */
export function requestFeeRules(rules: FeeRules): FeeRules {
  return { surcharge: rules.surcharge, lateFee: null, earlyDiscount: null };
}

/** A business's fee_rules row as stored (null: no rules), read wherever it was joined. */
export type FeeRulesRow = {
  surcharge: unknown;
  lateFeeBps: number;
  lateFeeFixedCents: number;
  earlyDiscountBps: number;
  earlyDiscountDays: number;
};

/** What a stored fee_rules row means: zero rates are "no such fee". */
export function feeRulesFromRow(row: FeeRulesRow | null): FeeRules {
  if (!row) return { surcharge: {}, lateFee: null, earlyDiscount: null };
  return {
    surcharge: (row.surcharge ?? {}) as FeeRules["surcharge"],
    lateFee:
      row.lateFeeBps > 0 || row.lateFeeFixedCents > 0
        ? { bps: row.lateFeeBps, fixedCents: Number(row.lateFeeFixedCents) }
        : null,
    earlyDiscount:
      row.earlyDiscountBps > 0 ? { bps: row.earlyDiscountBps, daysBeforeDue: row.earlyDiscountDays } : null,
  };
}

export type PayableInvoice = { orderId: string; balanceCents: number; dueDate: string };

export type OrderLine = {
  orderId: string;
  balanceTotal: number;
  partPayAmount: number;
  paymentAmount: number;
  discount: number;
  /** Spec §9: the per-order merchant fee is always 0; the surcharge is on the payment. */
  merchantFee: 0;
  lateFee: number;
};

export type PaymentBreakdown = {
  orders: OrderLine[];
  subTotal: number;
  totalLateFee: number;
  totalDiscount: number;
  merchantFeeComponent: number;
  amount: number;
  isPartPay: boolean;
  applyFee: boolean;
  applyLateFee: boolean;
};

/** `cents × bps / 10000`, rounded half up, exactly (BigInt: no float ever touches money). */
export function percentOf(cents: number, bps: number): number {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(bps) || cents < 0 || bps < 0) {
    throw new RangeError("percentOf takes non-negative whole cents and basis points");
  }
  return Number((BigInt(cents) * BigInt(bps) + 5000n) / 10000n);
}

const DAY = 86_400_000;
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY);

export function isOverdue(dueDate: string, today: string) {
  return dayNumber(dueDate) < dayNumber(today);
}

/**
 * The breakdown of paying `amounts` (orderId → cents, each 1..balance) of `invoices` by
 * `method`. Throws a RangeError for an amount outside its invoice's balance: callers check
 * amounts first and show their own messages; this is the last line of defence.
 */
export function computePayment(
  invoices: PayableInvoice[],
  amounts: Record<string, number>,
  method: { kind: "card"; brand: CardBrand } | { kind: "payto" },
  rules: FeeRules,
  today: string,
): PaymentBreakdown {
  const orders: OrderLine[] = invoices.map((invoice) => {
    const pay = amounts[invoice.orderId];
    if (pay === undefined || !Number.isSafeInteger(pay) || pay < 1 || pay > invoice.balanceCents) {
      throw new RangeError(`amount for ${invoice.orderId} must be 1..${invoice.balanceCents} cents`);
    }
    const partPay = pay < invoice.balanceCents;
    const lateFee =
      rules.lateFee && isOverdue(invoice.dueDate, today)
        ? percentOf(pay, rules.lateFee.bps) + rules.lateFee.fixedCents
        : 0;
    const early =
      rules.earlyDiscount &&
      !partPay &&
      dayNumber(invoice.dueDate) - dayNumber(today) >= rules.earlyDiscount.daysBeforeDue;
    const discount = early ? percentOf(pay, rules.earlyDiscount!.bps) : 0;
    return {
      orderId: invoice.orderId,
      balanceTotal: invoice.balanceCents,
      partPayAmount: partPay ? pay : 0,
      paymentAmount: pay,
      discount,
      merchantFee: 0,
      lateFee,
    };
  });
  const subTotal = orders.reduce((sum, o) => sum + o.paymentAmount, 0);
  const totalLateFee = orders.reduce((sum, o) => sum + o.lateFee, 0);
  const totalDiscount = orders.reduce((sum, o) => sum + o.discount, 0);
  const base = subTotal + totalLateFee - totalDiscount;
  const fee = method.kind === "card" ? (rules.surcharge[method.brand] ?? rules.surcharge.default) : undefined;
  const merchantFeeComponent = fee && base > 0 ? percentOf(base, fee.bps) + fee.fixedCents : 0;
  return {
    orders,
    subTotal,
    totalLateFee,
    totalDiscount,
    merchantFeeComponent,
    amount: base + merchantFeeComponent,
    isPartPay: orders.some((o) => o.partPayAmount > 0),
    applyFee: merchantFeeComponent > 0,
    applyLateFee: totalLateFee > 0,
  };
}

/**
 * The breakdown of a payment that pays no invoice (an ad-hoc payment, or a payment request for
 * a stated amount): the amount becomes credit on the account. No late fee and no discount (there
 * is no due date); a card pays the business's surcharge on it, PayTo pays none (spec §9).
 */
export function computeCreditPayment(
  amountCents: number,
  method: { kind: "card"; brand: CardBrand } | { kind: "payto" },
  rules: FeeRules,
): PaymentBreakdown {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1) {
    throw new RangeError("a credit payment is at least one whole cent");
  }
  const fee = method.kind === "card" ? (rules.surcharge[method.brand] ?? rules.surcharge.default) : undefined;
  const merchantFeeComponent = fee ? percentOf(amountCents, fee.bps) + fee.fixedCents : 0;
  return {
    orders: [],
    subTotal: amountCents,
    totalLateFee: 0,
    totalDiscount: 0,
    merchantFeeComponent,
    amount: amountCents + merchantFeeComponent,
    isPartPay: false,
    applyFee: merchantFeeComponent > 0,
    applyLateFee: false,
  };
}
