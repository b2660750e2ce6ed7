/**
 * Communication preferences (issue 17; decision 039): which messages a contact of the business
 * wants, and by which channel. Pure and shared: the preference page renders these, the services
 * store and honour them, the mail frame names them, the back-office API returns them.
 *
 * Modelled on Australian and New Zealand billing preference centres: statements and invoices may
 * come by email and/or by post; payment reminders and marketing by email; marketing is off until
 * the contact says yes (Spam Act 2003 (Cth) s 16 and the Unsolicited Electronic Messages Act 2007
 * (NZ) s 9: commercial email needs consent, and a pre-ticked box is not consent). Receipts, and
 * every other message about a payment or an agreement the contact is party to, are transactional:
 * always sent, never a choice.
 */
export const PREFERENCE_TOPICS = ["statements", "invoices", "reminders", "marketing"] as const;
export type PreferenceTopic = (typeof PREFERENCE_TOPICS)[number];

export const CHANNELS = ["email", "post"] as const;
export type Channel = (typeof CHANNELS)[number];

/** The channels each topic is offered by (the page's checkboxes, the database's check). */
export const TOPIC_CHANNELS: Record<PreferenceTopic, readonly Channel[]> = {
  statements: ["email", "post"],
  invoices: ["email", "post"],
  reminders: ["email"],
  marketing: ["email"],
};

/**
 * What a contact gets before they choose: what a business's customers expect by default
 * (statements, invoices and reminders by email; nothing by post, which costs the business and
 * which the contact asks for), and no marketing without consent.
 */
export const DEFAULT_PREFERENCES: Record<PreferenceTopic, Partial<Record<Channel, boolean>>> = {
  statements: { email: true, post: false },
  invoices: { email: true, post: false },
  reminders: { email: true },
  marketing: { email: false },
};

/** One choice: a topic by a channel, written `topic.channel` in forms (`reminders.email`). */
export type PreferenceKey = `${PreferenceTopic}.${Channel}`;

export const PREFERENCE_KEYS: readonly PreferenceKey[] = PREFERENCE_TOPICS.flatMap((topic) =>
  TOPIC_CHANNELS[topic].map((channel) => `${topic}.${channel}` as PreferenceKey),
);

export const isPreferenceTopic = (value: unknown): value is PreferenceTopic =>
  typeof value === "string" && (PREFERENCE_TOPICS as readonly string[]).includes(value);

export const isPreferenceKey = (value: unknown): value is PreferenceKey =>
  typeof value === "string" && (PREFERENCE_KEYS as readonly string[]).includes(value);

export function splitPreferenceKey(key: PreferenceKey): { topic: PreferenceTopic; channel: Channel } {
  const [topic, channel] = key.split(".") as [PreferenceTopic, Channel];
  return { topic, channel };
}

/** How a change was made (kept with every change: decision 039). */
export const CHANGE_VIAS = ["portal", "link", "one-click", "api"] as const;
export type ChangeVia = (typeof CHANGE_VIAS)[number];

/**
 * Choices a signed link may turn off but never on (decision 039). A preferences or unsubscribe
 * link travels with the email that carries it, so whoever it was forwarded to holds it; consent to
 * commercial email (Spam Act 2003 s 16) must be the address owner's. Signed in — or recorded by the
 * business, with a note of how the contact told it — news and offers may be turned on.
 */
export const SIGNED_IN_OPT_INS: readonly PreferenceKey[] = ["marketing.email"];

/** Would turning `key` on by `via` need the contact to sign in instead? */
export const optInNeedsSignIn = (key: PreferenceKey, via: ChangeVia) =>
  SIGNED_IN_OPT_INS.includes(key) && (via === "link" || via === "one-click");

/**
 * What every email the portal sends is about. The first four are the contact's choice (sent only
 * when wanted, and each carries a one-click unsubscribe); the transactional ones to a contact are
 * always sent and carry the link to their preferences; `business` and `non-contact` go to people
 * who are not contacts (the business's own address, a credit applicant, a trade referee), whom no
 * preference concerns.
 */
export const MAIL_CATEGORIES = [
  ...PREFERENCE_TOPICS,
  "receipts",
  "payment-requests",
  "schedules",
  "agreements",
  // A question the business asks the contact to answer (confirm an address, acknowledge a statement,
  // respond to a dispute): something they are asked to do, like a payment request.
  "responses",
  "account",
  "business",
  "non-contact",
] as const;
export type MailCategory = (typeof MAIL_CATEGORIES)[number];

/** Mail to a contact of the business (preferences link in its footer). */
export type ContactMailCategory = Exclude<MailCategory, "business" | "non-contact">;

/** Is this mail the contact's choice (and so checked against their preferences before it leaves)? */
export const isOptionalCategory = (category: MailCategory): category is PreferenceTopic =>
  (PREFERENCE_TOPICS as readonly string[]).includes(category);

/** The page's and the API's limit on how much of a contact's history is shown at once. */
export const HISTORY_SHOWN = 20;

/** What the preference page shows (signed in, or by a signed link): the loaders' data. */
export type PreferencesPageData =
  | { kind: "invalid"; businessName: string }
  | { kind: "signed-out"; businessName: string; signInHref: string }
  | { kind: "unverified"; businessName: string }
  | PreferencesViewData;

export type PreferencesViewData = {
  kind: "preferences";
  way: "session" | "link";
  businessName: string;
  email: string;
  topics: {
    topic: PreferenceTopic;
    /** `signInToEnable`: off, and only a signed-in contact may turn it on (a link page shows why, no box). */
    channels: { channel: Channel; enabled: boolean; signInToEnable: boolean }[];
  }[];
  /** The latest changes, newest first, `when` written where the business is. */
  history: { topic: PreferenceTopic; channel: Channel; enabled: boolean; via: ChangeVia; when: string }[];
  notice: "saved" | "unchanged" | null;
  /**
   * Why the form was refused (nothing changed): a choice the page does not offer, or a choice a
   * link may not turn on (`refused` names its topics).
   */
  error: "unknown" | "sign-in-to-opt-in" | null;
  refused: PreferenceTopic[];
  /** Where to sign in to come back to `/communication` (a link page's way to opt in). */
  signInHref: string;
};

/** What the one-click unsubscribe page shows. */
export type UnsubscribePageData = { kind: "invalid"; businessName: string } | UnsubscribeViewData;

export type UnsubscribeViewData = {
  kind: "unsubscribe";
  businessName: string;
  email: string;
  topic: PreferenceTopic;
  /** The topic by email, now. */
  enabled: boolean;
  /** Whether this page may turn the topic back on (news and offers: only signed in). */
  resubscribe: boolean;
  preferencesHref: string;
  signInHref: string;
  notice: "unsubscribed" | "resubscribed" | null;
  /** A "Subscribe again" this link may not do was posted: nothing changed. */
  error: "sign-in-to-opt-in" | null;
};
