/**
 * A receipt as its page shows it (`/payment/complete/<reference>` signed in or in the browser that
 * paid from a link, and `/customer/receipt/<token>` from the receipt email; decision 076). Pure
 * data, shared by the pages' service and the component that renders them.
 */
export type ReceiptView = {
  /** What the money was for: a payment request, and money kept as credit (ad hoc, a stated amount). */
  forRequest: { reference: string; description: string } | null;
  credited: string | null;
  payerReference: string | null;
  reference: string;
  status: string;
  date: string;
  promiseDate: string | null;
  method: string | null;
  subTotal: string;
  lateFee: string | null;
  discount: string | null;
  surcharge: string | null;
  total: string;
  note: string;
  invoices: { number: string; amount: string }[];
  payTo: boolean;
  failure: string | null;
  /** A rejected payment's way to pay again; href null: the payer is told to use their email's link. */
  payAgain: { kind: "request" | "adhoc" | "invoices"; href: string | null };
  /**
   * What is still owing on the request (or the invoices) this payment paid part of, and where the
   * rest is paid: a page (`href`), or, with none to give, the email the payer paid from.
   */
  owing: { amount: string; on: "request" | "invoices"; reference: string | null; href: string | null } | null;
};

export type ReceiptPageData = {
  businessName: string;
  /** The account the payment was for (its own contacts' to see): the PDF's "Paid for". */
  account: { name: string; number: string } | null;
  /** Opened without a session (the link payer's browser, or the receipt email's link): no way into the portal. */
  viaLink: boolean;
  /** Opened from the receipt email's own link: the page does not say a receipt is on its way. */
  fromEmail?: boolean;
  receipt: ReceiptView;
};
