import type { HydrateHandle } from "./client-runtime";
import type { Translate } from "./i18n";
import type { BreakdownView } from "./pay-form";
import { RETRY_AFTER_DAYS } from "./instalments";
import type { InstalmentView, ScheduleView } from "./schedule-states";

/**
 * What the payment-schedule pages are given to render (issue 15; decision 034): built by
 * `app/services/schedules/schedule-pages.server.ts`, rendered by `app/components/PaymentSchedule`;
 * every string is already formatted for the page. And the words of the retry policy and of the
 * authority, which the pages show and the seed stores. Pure.
 */

/**
 * Why a way to pay was refused (accepting, or changing it); nothing changed.
 * - notFound: no such schedule for this contact.
 * - accepted / withdrawn / expired / cancelled / completed: the proposal can no longer be accepted.
 * - notActive: the schedule is not active or in arrears (its way to pay cannot change).
 * - method: not a saved card or PayTo agreement of this account (another account's id, removed, none).
 * - cardExpired: the card has expired.
 * - agreementInactive: the PayTo agreement is not active (pending, paused or ended).
 * - payToOff: the business does not take PayTo.
 * - payToLimit: an instalment is above what the agreement (or the business) lets one payment take.
 * - authority: the authority box was not ticked.
 */
export type WayToPayRefusal =
  | "notFound"
  | "accepted"
  | "withdrawn"
  | "expired"
  | "cancelled"
  | "completed"
  | "notActive"
  | "method"
  | "cardExpired"
  | "agreementInactive"
  | "payToOff"
  | "payToLimit"
  | "authority";

/** Why a page shows no form: what became of the proposal, or of the link. */
export type ClosedReason =
  "accepted" | "withdrawn" | "expired" | "cancelled" | "completed" | "replaced" | "linkWithdrawn";

export type InstalmentRow = {
  id: string;
  seq: number;
  date: string;
  amount: string;
  view: InstalmentView;
  /** A retried instalment's next try. */
  nextTry: string | null;
  /** A paid instalment's receipt. */
  receiptHref: string | null;
  dueToday: boolean;
};

export type ScheduleSummary = {
  reference: string;
  description: string;
  account: string;
  state: ScheduleView;
  total: string;
  paid: string;
  remaining: string;
  count: number;
  first: { date: string; amount: string };
  last: { date: string; amount: string };
  instalments: InstalmentRow[];
  invoices: { number: string; amount: string }[];
};

/**
 * One way to pay's fees: a group of card brands with one surcharge rule (`brands`: their names),
 * the brands the rules do not name (`other`), every card alike (`cards`), or PayTo. `rate` null:
 * no fee.
 */
export type FeeRow = {
  kind: "brands" | "other" | "cards" | "payto";
  brands: string | null;
  rate: string | null;
  first: string;
  total: string;
};

/** A PayTo agreement as people know it: its PayID, or its BSB and the account's last digits. */
export type AgreementName = { payId: string | null; bsb: string | null; last3: string | null };

export type WayOption =
  | {
      /** The radio's value: `card:<id>` or `payto:<id>`. */
      value: string;
      kind: "card";
      name: string;
      expiry: string;
      /** The surcharge over the instalments still to be charged. */
      surcharge: string;
      isDefault: boolean;
    }
  | { value: string; kind: "payto"; agreement: AgreementName; isDefault: boolean };

export type MethodsForm = {
  options: WayOption[];
  /** PayTo agreements listed but not offered: waiting for the payer's bank, or paused. */
  waiting: { agreement: AgreementName; status: string }[];
  chosen: string | null;
  addCardHref: string | null;
  setUpPayToHref: string | null;
  /** The contact may not add cards or agreements (no portal access). */
  noAccess: boolean;
};

/** The facts the authority's words are made of (`scheduleAuthority`). */
export type AuthorityFacts = {
  business: string;
  reference: string;
  count: number;
  total: string;
  first: string;
  last: string;
};

type ReviewCommon = {
  businessName: string;
  schedule: ScheduleSummary;
  fees: FeeRow[];
  /** What the authority says (the page words it in its language; the accept action stores the same). */
  authority: AuthorityFacts;
  expires: string;
};

export type ClosedData = {
  kind: "closed";
  reason: ClosedReason;
  reference: string;
  businessName: string;
  contact: { email: string | null; phone: string | null };
  progressHref: string | null;
  acceptedOn: string | null;
  /** Shown after a refused accept: "nothing was changed". */
  refused?: boolean;
};

export type AcceptanceData =
  | (ReviewCommon & { kind: "review"; mode: "link"; signInHref: string })
  | (ReviewCommon & { kind: "review"; mode: "signedIn"; form: MethodsForm; refusal: WayToPayRefusal | null })
  | ClosedData;

/** Paying an instalment from the progress page: what it is and what it costs by the schedule's way. */
export type PayButton = {
  instalmentId: string;
  seq: number;
  amount: string;
  total: string;
  /** What the engine charges now, posted back: a different total then is refused, not charged. */
  totalCents: number;
  failed: boolean;
};

export type ProgressData = {
  kind: "progress";
  mode: "signedIn" | "link";
  businessName: string;
  schedule: ScheduleSummary;
  wayToPay:
    | { kind: "card"; name: string; status: null }
    | { kind: "payto"; agreement: AgreementName; status: string | null }
    | null;
  change: (MethodsForm & { refusal: WayToPayRefusal | null }) | null;
  notice: "accepted" | "changed" | "paid" | "submitted" | "pending" | null;
  /** A refused payment's words (a message key) and their values; `reasonKey` words the {reason}. */
  message: string | null;
  messageParams?: Record<string, string>;
  reasonKey?: string;
  requestGuid: string;
  /** Signed in: the buttons that pay the next instalment early, or a failed one now. */
  pay: PayButton[];
  /** The receipt of the payment a notice is about. */
  receiptHref: string | null;
  /** By link: the declined instalment to pay another way (a new card), with its price by the server. */
  rescue: RescueData | null;
};

/** A declined instalment paid another way from its email's link: the pay form's starting data. */
export type RescueData = {
  instalmentId: string;
  seq: number;
  amount: string;
  requestGuid: string;
  breakdown: BreakdownView | null;
  signInHref: string;
};

/**
 * The published retry policy in words (RETRY_AFTER_DAYS, decision 035): "3 days later, then 7
 * days after that".
 */
export function retrySteps(t: Translate) {
  return RETRY_AFTER_DAYS.map((days, index) =>
    t(index === 0 ? "schedules.retry.first" : "schedules.retry.next", { days }),
  ).join(", ");
}

/**
 * The authority a contact gives by accepting a schedule, in the page's language, from facts of
 * the proposal that never change (decision 034): the page shows it, the accept action builds it
 * again from the same facts and stores it, so what is kept is what was shown.
 */
export function scheduleAuthority(t: Translate, facts: AuthorityFacts) {
  return t(facts.count === 1 ? "schedules.authority.one" : "schedules.authority.text", {
    ...facts,
    retries: retrySteps(t),
  });
}

/**
 * A schedule's page ships no React (decision 084) — its review and progress are forms that post,
 * with the Menu and the session across tabs from `enhance.js`; a closed schedule ships no script
 * at all — except while a declined instalment can be paid another way with a new card: that form's
 * total follows the card as it is typed, as the pay page's does, so the page hydrates.
 */
export const SCHEDULE_PAGE_HANDLE: HydrateHandle = {
  hydrate: (data) => rescueOf(data) !== null,
  enhance: (data) => {
    const kind = (data as { kind?: unknown } | null | undefined)?.kind;
    return kind === "review" || kind === "progress";
  },
};

function rescueOf(data: unknown): unknown {
  if (typeof data !== "object" || data === null) return null;
  const page = data as { kind?: unknown; rescue?: unknown };
  return page.kind === "progress" ? (page.rescue ?? null) : null;
}
