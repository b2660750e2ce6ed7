/**
 * The life of a PayTo agreement (a mandate in the New Payments Platform) and of a payment made
 * under one: the transition table of decision 027, as data. Pure and isomorphic: the services
 * apply it, the pages read the labels from it.
 *
 * The provider is the source of truth. Its snapshots carry a version that grows with every
 * change; the portal applies a snapshot only when it is newer than the one it holds and its
 * status can be reached from ours (a webhook or poll in between may have been missed), so
 * webhooks and polling arriving in any order, any number of times, end in the same state.
 */
export const AGREEMENT_STATUSES = [
  "CREATED",
  "ACTIVE",
  "SUSPENDED",
  "CANCELLED",
  "DECLINED",
  "EXPIRED",
  "FAILED",
] as const;
export type AgreementStatus = (typeof AGREEMENT_STATUSES)[number];

/** Who moves an agreement: the payer (in their banking app), the business (the portal), or the provider. */
export type AgreementActor = "payer" | "business" | "provider";

/** Every allowed step, with who may take it. Anything not listed is refused. */
export const AGREEMENT_TRANSITIONS: readonly {
  from: AgreementStatus;
  to: AgreementStatus;
  by: readonly AgreementActor[];
  what: string;
}[] = [
  { from: "CREATED", to: "ACTIVE", by: ["payer"], what: "the payer approves it in their banking app" },
  { from: "CREATED", to: "DECLINED", by: ["payer"], what: "the payer declines it" },
  { from: "CREATED", to: "EXPIRED", by: ["provider"], what: "nobody answers before it expires" },
  { from: "CREATED", to: "CANCELLED", by: ["business"], what: "the business withdraws it before approval" },
  { from: "ACTIVE", to: "SUSPENDED", by: ["payer", "business"], what: "paused: no payments meanwhile" },
  { from: "ACTIVE", to: "CANCELLED", by: ["payer", "business"], what: "ended for good" },
  { from: "SUSPENDED", to: "ACTIVE", by: ["payer", "business"], what: "resumed" },
  { from: "SUSPENDED", to: "CANCELLED", by: ["payer", "business"], what: "ended for good" },
];

/** States no agreement leaves. FAILED: the provider could not create it at all. */
export const TERMINAL_AGREEMENT_STATUSES: readonly AgreementStatus[] = ["CANCELLED", "DECLINED", "EXPIRED", "FAILED"];

export function isAgreementStatus(value: unknown): value is AgreementStatus {
  return typeof value === "string" && (AGREEMENT_STATUSES as readonly string[]).includes(value);
}

/** May `actor` move an agreement from `from` to `to` in one step? */
export function canTransition(from: AgreementStatus, to: AgreementStatus, actor?: AgreementActor): boolean {
  return AGREEMENT_TRANSITIONS.some(
    (t) => t.from === from && t.to === to && (actor === undefined || t.by.includes(actor)),
  );
}

/**
 * Can `to` follow `from` through any number of steps (snapshots in between may have been
 * missed)? The same status is reachable from itself (a newer version with the same status,
 * e.g. a changed reason).
 */
export function isReachable(from: AgreementStatus, to: AgreementStatus): boolean {
  if (from === to) return true;
  const seen = new Set<AgreementStatus>([from]);
  const queue: AgreementStatus[] = [from];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const step of AGREEMENT_TRANSITIONS) {
      if (step.from !== current || seen.has(step.to)) continue;
      if (step.to === to) return true;
      seen.add(step.to);
      queue.push(step.to);
    }
  }
  return false;
}

export type SnapshotDecision = "apply" | "stale" | "impossible";

/**
 * What to do with a provider snapshot (`status`, `version`) of an agreement we hold at
 * (`current`, `currentVersion`): apply it, ignore it as old news, or refuse it as
 * impossible (a terminal agreement coming back to life, which only a provider fault could send).
 */
export function decideSnapshot(
  current: AgreementStatus,
  currentVersion: number,
  status: AgreementStatus,
  version: number,
): SnapshotDecision {
  if (version <= currentVersion) return "stale";
  return isReachable(current, status) ? "apply" : "impossible";
}

/** A PayTo payment at the provider: accepted, then settled or rejected. */
export const PROVIDER_PAYMENT_STATUSES = ["CREATED", "SETTLED", "FAILED"] as const;
export type ProviderPaymentStatus = (typeof PROVIDER_PAYMENT_STATUSES)[number];

/** Why the provider rejects a payment (each has a message key on the pages). */
export const PAYTO_PAYMENT_FAILURES = [
  "insufficient_funds",
  "agreement_not_active",
  "limit_exceeded",
  "declined",
  "unavailable",
] as const;
export type PayToPaymentFailure = (typeof PAYTO_PAYMENT_FAILURES)[number];

/** May an agreement in this state be used to pay? Only an active one. */
export const isUsable = (status: AgreementStatus) => status === "ACTIVE";

/** Agreements still shown to the customer as theirs (pending, active or paused). */
export const isLive = (status: AgreementStatus) => !TERMINAL_AGREEMENT_STATUSES.includes(status);
