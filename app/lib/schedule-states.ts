/**
 * The life of a payment schedule and of its instalments (decision 034), as data: the services
 * apply these tables, the pages read the words from them. Pure and isomorphic.
 */
export const SCHEDULE_STATUSES = ["proposed", "active", "arrears", "completed", "withdrawn", "cancelled"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/**
 * scheduled: waiting for its day (or its next try); processing: a charge is in flight; paid;
 * failed: the last try was declined (the schedule is in arrears); cancelled: with its schedule.
 */
export const INSTALMENT_STATUSES = ["scheduled", "processing", "paid", "failed", "cancelled"] as const;
export type InstalmentStatus = (typeof INSTALMENT_STATUSES)[number];

export type ScheduleActor = "business" | "contact" | "runner";

/** Every allowed step of a schedule, with who takes it. Anything not listed is refused. */
export const SCHEDULE_TRANSITIONS: readonly {
  from: ScheduleStatus;
  to: ScheduleStatus;
  by: readonly ScheduleActor[];
  what: string;
}[] = [
  { from: "proposed", to: "active", by: ["contact"], what: "the contact accepts it with a way to pay" },
  { from: "proposed", to: "withdrawn", by: ["business"], what: "the business takes the proposal back" },
  { from: "active", to: "completed", by: ["runner", "contact"], what: "the last instalment is paid" },
  { from: "active", to: "arrears", by: ["runner"], what: "an instalment's last try was declined" },
  { from: "active", to: "cancelled", by: ["business"], what: "the business ends it; nothing more is charged" },
  { from: "arrears", to: "active", by: ["contact", "runner"], what: "the missed instalments are paid" },
  { from: "arrears", to: "completed", by: ["contact", "runner"], what: "everything is paid" },
  { from: "arrears", to: "cancelled", by: ["business"], what: "the business ends it" },
];

export const TERMINAL_SCHEDULE_STATUSES: readonly ScheduleStatus[] = ["completed", "withdrawn", "cancelled"];

export function canMoveSchedule(from: ScheduleStatus, to: ScheduleStatus, actor: ScheduleActor): boolean {
  return SCHEDULE_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by.includes(actor));
}

/** An instalment's steps. processing → scheduled is a declined try with another to come. */
export const INSTALMENT_TRANSITIONS: readonly { from: InstalmentStatus; to: InstalmentStatus; what: string }[] = [
  { from: "scheduled", to: "processing", what: "a run (or the contact) starts a charge" },
  { from: "processing", to: "paid", what: "the charge succeeded (a PayTo payment: settled)" },
  { from: "processing", to: "scheduled", what: "declined; the next try is booked (or the contact's own try failed)" },
  { from: "processing", to: "failed", what: "the last try was declined" },
  { from: "failed", to: "processing", what: "the contact pays it another way" },
  { from: "scheduled", to: "cancelled", what: "its schedule was cancelled" },
  { from: "failed", to: "cancelled", what: "its schedule was cancelled" },
];

export function canMoveInstalment(from: InstalmentStatus, to: InstalmentStatus): boolean {
  return INSTALMENT_TRANSITIONS.some((t) => t.from === from && t.to === to);
}

/**
 * What a contact is shown for an instalment: paid; processing (a charge in flight); failed (the
 * last try declined: pay it another way); retrying (declined, tried again on `next_attempt_on`);
 * due (its day has come, not yet charged); upcoming; cancelled.
 */
export type InstalmentView = "paid" | "processing" | "failed" | "retrying" | "due" | "upcoming" | "cancelled";

export function instalmentView(
  instalment: { status: InstalmentStatus; dueDate: string; attempts: number },
  today: string,
): InstalmentView {
  switch (instalment.status) {
    case "paid":
    case "processing":
    case "failed":
    case "cancelled":
      return instalment.status;
    case "scheduled":
      if (instalment.attempts > 0) return "retrying";
      return instalment.dueDate <= today ? "due" : "upcoming";
  }
}

/** A proposal past its expiry reads as expired; it is never stored so (like payment requests). */
export type ScheduleView = ScheduleStatus | "expired";

export function scheduleView(schedule: { status: ScheduleStatus; expiresAt: Date }, now: Date): ScheduleView {
  if (schedule.status === "proposed" && schedule.expiresAt.getTime() <= now.getTime()) return "expired";
  return schedule.status;
}
