/**
 * English (AU): payment requests and ad-hoc payments (issue 14): what the payment engine's
 * refusals say. The link pages, the back-office emails and the landing page add their own
 * messages in files of their own. Spread into `enAU`.
 */
export const requestsEnAU = {
  "request.error.closed":
    "This request can't be paid any more: it has been paid, has expired or was cancelled. Nothing was charged.",
  "request.error.fullPaymentRequired": "This request must be paid in full ({remaining}). Nothing was charged.",
  "request.error.belowMinimum": "Pay at least {min}, or everything still owing ({remaining}). Nothing was charged.",
  "request.error.aboveRemaining": "Pay no more than the {remaining} still owing on this request. Nothing was charged.",
  "adhoc.error.disabled": "{business} doesn't take payments of any amount here. Nothing was charged.",
  "adhoc.error.belowMinimum": "Pay at least {min}. Nothing was charged.",
  "adhoc.error.aboveMaximum": "Pay at most {max}. Nothing was charged.",
};
