import { readPayerReference } from "./adhoc";
import { UUID } from "./ids";

/**
 * The way back to a pay page (issue 31, decision 077): "Set up PayTo" on a pay page sends the
 * contact to the PayTo set-up with `returnTo`, the page's path with what was typed on it, and
 * (on the way back) the new agreement. Three pages: the invoices' pay page (the invoices, the
 * amounts typed that are not the whole balance), a payment request's signed-in page (the part
 * payment typed) and the signed-in ad-hoc page (the amount and the payer's reference typed).
 * Pure, so the pages that write the path and the payment-methods pages that read it share one
 * rule.
 *
 * A `returnTo` is never trusted: it is read back (`payReturnPath`) only as one of those pages'
 * own paths with known, bounded parameters — a same-origin relative path, one leading "/", no
 * "//" or backslash, at most `MAX_RETURN_PATH` characters (`MAX_AMOUNT_RETURN_PATH` for a
 * request's or the ad-hoc page), at most `MAX_CHOSEN` invoices and amounts, ids that are UUIDs,
 * a request's reference as references are drawn, amounts in whole cents, a payer's reference as
 * the ad-hoc page takes one — and written again from what was read, so nothing else in it
 * survives. Anything else is null: the page behaves as it did before (no way back).
 */
export const PAY_PAGE_PATH = "/customer/invoices-and-payments/pay";

/** The pay page's own limit on invoices (decision 072), and so on typed amounts. */
export const MAX_CHOSEN = 50;

/** 50 invoice ids, 50 amounts and an agreement come to about 5,200 characters. */
export const MAX_RETURN_PATH = 6000;

/** What a pay page had chosen: the invoices ("all" owing), typed amounts in cents by invoice, an agreement. */
export type PayPageChoice = {
  invoices: string[] | "all";
  amounts: Record<string, number>;
  agreementId: string | null;
};

const AMOUNT_KEY = /^amount-(.+)$/;
const CENTS = /^[1-9][0-9]{0,11}$/;

/**
 * The choice in a pay page's query (`?invoice=…&amount-<id>=<cents>&agreement=<id>`, or `?all=1`),
 * or null when any parameter is unknown, malformed or over the limits (`strict`). Not strict (the
 * pay page's loader reading its own address): bad parameters are left out, as the page has always
 * ignored an invoice that is not the account's.
 */
export function payPageChoiceOf(params: URLSearchParams, strict = false): PayPageChoice | null {
  const invoices: string[] = [];
  const amounts: Record<string, number> = {};
  let all = false;
  let agreementId: string | null = null;
  let amountCount = 0;
  for (const [key, value] of params) {
    const amountFor = AMOUNT_KEY.exec(key)?.[1];
    if (key === "invoice" && UUID.test(value) && invoices.length < MAX_CHOSEN) {
      const id = value.toLowerCase();
      if (!invoices.includes(id)) invoices.push(id);
    } else if (key === "all" && value === "1") all = true;
    else if (key === "agreement" && UUID.test(value) && agreementId === null) agreementId = value.toLowerCase();
    else if (amountFor && UUID.test(amountFor) && CENTS.test(value) && amountCount < MAX_CHOSEN) {
      amountCount += 1;
      amounts[amountFor.toLowerCase()] = Number(value);
    } else if (strict) return null;
  }
  if (strict && (all ? invoices.length > 0 : invoices.length === 0)) return null;
  // An amount for an invoice that is not chosen means nothing.
  const chosen = all ? null : new Set(invoices);
  for (const id of Object.keys(amounts)) {
    if (chosen && !chosen.has(id)) {
      if (strict) return null;
      delete amounts[id];
    }
  }
  return { invoices: all ? "all" : invoices, amounts, agreementId };
}

/** The pay page's path for a choice: the inverse of `payPageChoiceOf`. */
export function payPagePath(choice: PayPageChoice): string {
  const query = new URLSearchParams();
  if (choice.invoices === "all") query.append("all", "1");
  else for (const id of choice.invoices.slice(0, MAX_CHOSEN)) query.append("invoice", id);
  for (const [id, cents] of Object.entries(choice.amounts).slice(0, MAX_CHOSEN)) {
    if (Number.isSafeInteger(cents) && cents > 0) query.append(`amount-${id}`, String(cents));
  }
  if (choice.agreementId) query.append("agreement", choice.agreementId);
  return `${PAY_PAGE_PATH}?${query}`;
}

/** A payment request's signed-in page (`<folder><reference>`) and the signed-in ad-hoc page (`<folder><account id>`). */
export const REQUEST_PAGE_FOLDER = "/payment/payment-request/";
export const ADHOC_PAGE_FOLDER = "/payment/adhoc/";

/** A payment request's reference as they are drawn (`PR-` and 6–12 capitals or digits). */
export const REQUEST_REFERENCE = /^PR-[0-9A-Z]{6,12}$/;

/**
 * A request's or the ad-hoc page's way back: an amount, a payer's reference of at most 80
 * characters (each at most 12 once percent-encoded) and an agreement come to about 1,100.
 */
export const MAX_AMOUNT_RETURN_PATH = 1200;

/**
 * What a payment request's or the ad-hoc page had: the amount typed in whole cents, the payer's
 * reference typed (the ad-hoc page's; a request has none) and an agreement.
 */
export type AmountPageChoice = {
  amountCents: number | null;
  reference: string | null;
  agreementId: string | null;
};

/** A way back, as read: which page, and what it had. */
export type PayReturn =
  | { page: "invoices"; choice: PayPageChoice }
  | { page: "request"; requestReference: string; choice: AmountPageChoice }
  | { page: "adhoc"; accountId: string; choice: AmountPageChoice };

/**
 * The choice in a request's or the ad-hoc page's query (`?amount=<cents>&agreement=<id>`, and
 * `reference=<text>` where `withReference`), or null when any parameter is unknown, repeated,
 * malformed or over the limits (`strict`). Not strict (the page's loader reading its own
 * address): bad parameters are left out, and of a repeated one the first counts. Whether the
 * amount is one the page would take (a request's minimum, the business's limits) is the page's
 * to say: here it is only well formed.
 */
export function amountPageChoiceOf(
  params: URLSearchParams,
  withReference: boolean,
  strict = false,
): AmountPageChoice | null {
  const choice: AmountPageChoice = { amountCents: null, reference: null, agreementId: null };
  for (const [key, value] of params) {
    if (key === "amount" && choice.amountCents === null && CENTS.test(value)) choice.amountCents = Number(value);
    else if (key === "agreement" && choice.agreementId === null && UUID.test(value)) {
      choice.agreementId = value.toLowerCase();
    } else if (key === "reference" && withReference && choice.reference === null) {
      const reference = readPayerReference(value);
      if (reference.ok) choice.reference = reference.value;
      else if (strict) return null;
    } else if (strict) return null;
  }
  return choice;
}

function amountPageQuery(choice: AmountPageChoice, withReference: boolean): string {
  const query = new URLSearchParams();
  if (choice.amountCents !== null && Number.isSafeInteger(choice.amountCents) && choice.amountCents > 0) {
    query.append("amount", String(choice.amountCents));
  }
  if (withReference && choice.reference !== null) {
    const reference = readPayerReference(choice.reference);
    if (reference.ok) query.append("reference", reference.value);
  }
  if (choice.agreementId !== null && UUID.test(choice.agreementId)) {
    query.append("agreement", choice.agreementId.toLowerCase());
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** A payment request's signed-in page with what was typed on it. */
export const requestPagePath = (requestReference: string, choice: AmountPageChoice) =>
  `${REQUEST_PAGE_FOLDER}${encodeURIComponent(requestReference)}${amountPageQuery(choice, false)}`;

/** The signed-in ad-hoc page of an account with what was typed on it. */
export const adhocPagePath = (accountId: string, choice: AmountPageChoice) =>
  `${ADHOC_PAGE_FOLDER}${encodeURIComponent(accountId.toLowerCase())}${amountPageQuery(choice, true)}`;

/** The path of a way back, written from what was read: the inverse of `payReturnOf`. */
export function payReturnPathOf(back: PayReturn): string {
  if (back.page === "invoices") return payPagePath(back.choice);
  if (back.page === "request") return requestPagePath(back.requestReference, back.choice);
  return adhocPagePath(back.accountId, back.choice);
}

/**
 * A `returnTo` read as the way back to one of the pay pages, or null. Only those pages' own
 * paths: never another path, host or scheme, even within the origin.
 */
export function payReturnOf(value: unknown): PayReturn | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_RETURN_PATH) return null;
  // One leading slash, no "//" anywhere (a protocol-relative URL), no backslash (browsers read it as "/"),
  // no control characters, spaces or fragment.
  if (!value.startsWith("/") || value.includes("//") || value.includes("\\")) return null;
  if (/[\u0000-\u0020\u007f#]/.test(value)) return null;
  const question = value.indexOf("?");
  const path = question === -1 ? value : value.slice(0, question);
  const params = new URLSearchParams(question === -1 ? "" : value.slice(question + 1));
  if (path === PAY_PAGE_PATH) {
    if (question === -1) return null;
    const choice = payPageChoiceOf(params, true);
    return choice ? { page: "invoices", choice } : null;
  }
  if (value.length > MAX_AMOUNT_RETURN_PATH) return null;
  if (path.startsWith(REQUEST_PAGE_FOLDER)) {
    const requestReference = path.slice(REQUEST_PAGE_FOLDER.length);
    if (!REQUEST_REFERENCE.test(requestReference)) return null;
    const choice = amountPageChoiceOf(params, false, true);
    return choice ? { page: "request", requestReference, choice } : null;
  }
  if (path.startsWith(ADHOC_PAGE_FOLDER)) {
    const accountId = path.slice(ADHOC_PAGE_FOLDER.length);
    if (!UUID.test(accountId)) return null;
    const choice = amountPageChoiceOf(params, true, true);
    return choice ? { page: "adhoc", accountId: accountId.toLowerCase(), choice } : null;
  }
  return null;
}

/**
 * A `returnTo` that may be followed back to a pay page, written afresh from what it chose, or
 * null (see `payReturnOf`).
 */
export function payReturnPath(value: unknown): string | null {
  const back = payReturnOf(value);
  return back ? payReturnPathOf(back) : null;
}

/** Is this (already checked) way back a pay page's? */
export const isPayReturn = (path: string | null): path is string => path !== null && payReturnOf(path) !== null;

/** The way back with the agreement just set up chosen (a path that is not a way back is returned as it is). */
export function withAgreement(path: string, agreementId: string): string {
  const back = payReturnOf(path);
  if (!back) return path;
  if (back.page === "invoices") return payPagePath({ ...back.choice, agreementId });
  return payReturnPathOf({ ...back, choice: { ...back.choice, agreementId } });
}

/** Where "Set up PayTo" on a pay page goes: the set-up, with the way back (already written by this module). */
export const payToSetUpPath = (back: string) => `/payment-methods/payto/new?${new URLSearchParams({ returnTo: back })}`;
