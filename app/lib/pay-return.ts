import { UUID } from "./ids";

/**
 * The way back to a pay page (issue 31, decision 077): "Set up PayTo" on the invoices' pay page
 * sends the contact to the PayTo set-up with `returnTo`, the pay page's path with what was chosen
 * on it — the invoices, the amounts typed that are not the whole balance, and (on the way back)
 * the new agreement. Pure, so the pay page that writes the path and the payment-methods pages
 * that read it share one rule.
 *
 * A `returnTo` is never trusted: it is read back (`payReturnPath`) only as the pay page's own
 * path with known, bounded parameters — a same-origin relative path, one leading "/", no "//" or
 * backslash, at most `MAX_RETURN_PATH` characters, at most `MAX_CHOSEN` invoices and amounts,
 * ids that are UUIDs, amounts in whole cents — and written again from what was read, so nothing
 * else in it survives. Anything else is null: the page behaves as it did before (no way back).
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

/**
 * A `returnTo` that may be followed back to the pay page, written afresh from what it chose, or
 * null. Only the pay page's own path: never another path, host or scheme, even within the origin.
 */
export function payReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_RETURN_PATH) return null;
  // One leading slash, no "//" anywhere (a protocol-relative URL), no backslash (browsers read it as "/"),
  // no control characters, spaces or fragment.
  if (!value.startsWith("/") || value.includes("//") || value.includes("\\")) return null;
  if (/[\u0000-\u0020\u007f#]/.test(value)) return null;
  const question = value.indexOf("?");
  if (question === -1 || value.slice(0, question) !== PAY_PAGE_PATH) return null;
  const choice = payPageChoiceOf(new URLSearchParams(value.slice(question + 1)), true);
  return choice ? payPagePath(choice) : null;
}

/** Is this (already checked) way back the pay page's? */
export const isPayReturn = (path: string | null): path is string =>
  path !== null && path.startsWith(`${PAY_PAGE_PATH}?`);

/** The way back with the agreement just set up chosen. */
export function withAgreement(path: string, agreementId: string): string {
  const choice = payPageChoiceOf(new URLSearchParams(path.slice(path.indexOf("?") + 1)));
  return payPagePath({ ...choice!, agreementId });
}
