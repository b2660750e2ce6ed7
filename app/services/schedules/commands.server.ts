import { sql } from "kysely";
import { z } from "zod";
import { ISO_INSTANT_MAX } from "~/lib/input-bounds";
import { startOfDayIn, todayIn } from "~/lib/dates";
import { formatMoney, MAX_MONEY_CENTS } from "~/lib/format";
import { UUID } from "~/lib/ids";
import {
  addDays,
  instalmentProblem,
  isCalendarDate,
  MAX_INSTALMENTS,
  MAX_DAYS_TO_FIRST_INSTALMENT,
  regularInstalments,
  SCHEDULE_FREQUENCIES,
  type Instalment,
  type ScheduleFrequency,
} from "~/lib/instalments";
import { scheduleView, type ScheduleStatus } from "~/lib/schedule-states";
import { progressPath } from "~/lib/schedule-paths";
import { sendContactMail } from "../communication/contact-mail.server";
import { findBusinessBranding, publicLink } from "../host/host.server";
import {
  deliverLinkEmail,
  endRecord,
  linkSender,
  reissueLink,
  sendLinkAgain,
  type Delivery,
} from "../links/link-lifecycle.server";
import { insertWithReference } from "../links/reference.server";
import { audit } from "../platform/audit.server";
import { now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { clip, findAccount, findContact } from "../requests/lookups.server";
import { invalid, RequestProblem, zodFields } from "../platform/problems.server";
import { getSchedule, mayActFor } from "./queries.server";
import { renderScheduleProposalEmail } from "./schedule-email.server";
import { lockSchedule, type ScheduleView } from "./schedule-rows.server";

/**
 * Payment schedules (issue 15; decision 034): an amount an account owes, paid in dated
 * instalments by one stored way to pay.
 *
 * The business's side — propose, send and resend by email, withdraw, cancel — is called by the
 * back-office API and the CLI and by nothing else; they throw `RequestProblem` (validation → 400
 * with a message per field, not-found → 404, conflict → 409). Also here: the link a declined
 * instalment's email carries (`createScheduleLink`). Reading is in `queries.server.ts`, the
 * contact's side in `acceptance.server.ts`; charging is not here: the instalment runner and
 * `payInstalment` (decision 035) do it.
 *
 * Locks: a change to a schedule locks its `payment_schedules` row (FOR UPDATE) before any of its
 * instalments, so two accepts (or an accept and a withdrawal) race to one, and a cancel and the
 * runner never wait on each other in opposite orders.
 */
export const DEFAULT_PROPOSAL_DAYS = 14;
export const MAX_PROPOSAL_DAYS = 90;
export const MAX_INVOICES_PER_SCHEDULE = 50;
/** How long a link minted for a declined instalment's email works (`createScheduleLink`). */
export const SCHEDULE_LINK_DAYS = 30;

const DAY_MS = 86_400_000;
/** Invoice statuses a schedule may pay (spec §3 codes): Open, Overdue, Promise, Broken Promise. */
const PAYABLE_INVOICE_STATUSES = [1, 3, 7, 8];
/** A schedule in one of these still holds its invoices: another may not take them. */
const HOLDING_STATUSES: ScheduleStatus[] = ["proposed", "active", "arrears"];

// ---------------------------------------------------------------------------------------------
// Propose

const text = (what: string, max: number) =>
  z
    .string({ required_error: `Give the ${what}.`, invalid_type_error: `Give the ${what} as text.` })
    .trim()
    .min(1, `Give the ${what}.`)
    .max(max, `That is too long for the ${what} (at most ${max} characters).`);

const ProposeSchema = z
  .object({
    account: text("account's id or number", 100),
    contact: text("contact's id or email", 254),
    description: z
      .string({ invalid_type_error: "Give the description as text." })
      .trim()
      .max(500, "At most 500 characters.")
      .nullish(),
    invoices: z
      .array(text("invoice's id or number", 100), { invalid_type_error: "Give a list of invoice ids or numbers." })
      .min(1, "Name at least one invoice.")
      .max(MAX_INVOICES_PER_SCHEDULE, `At most ${MAX_INVOICES_PER_SCHEDULE} invoices in one schedule.`)
      .nullish(),
    amountCents: z.unknown().optional(),
    instalments: z.unknown().optional(),
    expiresAt: z
      .string({ invalid_type_error: "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00." })
      .max(ISO_INSTANT_MAX, "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00.")
      .datetime({ offset: true, message: "Give the expiry as a date and time, e.g. 2026-12-31T23:59:00+11:00." })
      .nullish(),
    expiresInDays: z
      .number({ invalid_type_error: "Give a whole number of days." })
      .int("Give a whole number of days.")
      .min(1, "At least 1 day.")
      .max(MAX_PROPOSAL_DAYS, `At most ${MAX_PROPOSAL_DAYS} days.`)
      .nullish(),
  })
  .strict();

export type ProposeScheduleInput = z.input<typeof ProposeSchema>;

/** Runs inside the service's transaction, just before it commits (the API's idempotency record). */
type BeforeCommit = (tx: Db, scheduleId: string) => Promise<void>;

/**
 * An amount of money as a field's message would have it: a whole number of cents above zero.
 * Zero, negative, fractional, non-numbers and amounts no ledger holds each get their own words.
 */
function centsProblem(value: unknown, what: string): string | null {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return `Give ${what} as a whole number of cents, e.g. 12050 for 120.50.`;
  }
  if (!Number.isInteger(value)) {
    return `Give ${what} in whole cents: ${String(value).slice(0, 20)} has a fraction of a cent (write 12050 for 120.50).`;
  }
  if (value <= 0) return `${what[0]!.toUpperCase()}${what.slice(1)} must be more than zero.`;
  if (value > MAX_MONEY_CENTS) return `${what[0]!.toUpperCase()}${what.slice(1)} is too large.`;
  return null;
}

/**
 * The instalments a proposal names, checked against its total and the business's today:
 * `{count, frequency, firstDate}` for equal instalments on a rhythm (the rounding cents on the
 * last), or a list of `{dueDate, amountCents}`. Every problem is a message on its own field
 * (`instalments.count`, `instalments.3.dueDate`, …); `app/lib/instalments.ts` has the rules.
 */
export function parseInstalments(
  raw: unknown,
  totalCents: number,
  today: string,
  money: (cents: number) => string,
): Instalment[] {
  const FIELD = "instalments";
  if (raw === undefined || raw === null) {
    throw invalid({
      [FIELD]:
        "Give the instalments: {count, frequency, firstDate} for equal instalments, or a list of {dueDate, amountCents}.",
    });
  }
  if (Array.isArray(raw)) return explicitInstalments(raw, totalCents, today, money);
  if (typeof raw !== "object") {
    throw invalid({
      [FIELD]: "Give {count, frequency, firstDate}, or a list of {dueDate, amountCents}.",
    });
  }
  const plan = raw as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const key of Object.keys(plan)) {
    if (!["count", "frequency", "firstDate"].includes(key)) {
      fields[`${FIELD}.${key.slice(0, 40)}`] =
        "This field is not part of a regular plan (count, frequency, firstDate).";
    }
  }
  const { count, frequency, firstDate } = plan;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_INSTALMENTS) {
    fields[`${FIELD}.count`] = `Give the number of instalments, a whole number from 1 to ${MAX_INSTALMENTS}.`;
  }
  if (typeof frequency !== "string" || !(SCHEDULE_FREQUENCIES as readonly string[]).includes(frequency)) {
    fields[`${FIELD}.frequency`] = `Use one of ${SCHEDULE_FREQUENCIES.join(", ")}.`;
  }
  if (!isCalendarDate(firstDate)) {
    fields[`${FIELD}.firstDate`] = "Give the first instalment's day as YYYY-MM-DD, e.g. 2026-12-15.";
  }
  if (Object.keys(fields).length) throw invalid(fields);
  const n = count as number;
  if (totalCents < n) {
    throw invalid({
      [`${FIELD}.count`]: `${money(totalCents)} cannot be split into ${n} instalments of at least one cent each.`,
    });
  }
  const list = regularInstalments(totalCents, n, firstDate as string, frequency as ScheduleFrequency);
  const problem = instalmentProblem(totalCents, list, today);
  if (problem?.code === "pastDate") {
    throw invalid({
      [`${FIELD}.firstDate`]: `${firstDate as string} is before today (${today}) in the business's time zone.`,
    });
  }
  if (problem?.code === "tooFarAhead") {
    throw invalid({
      [`${FIELD}.firstDate`]: `The first instalment must be within ${MAX_DAYS_TO_FIRST_INSTALMENT} days of today (${today}).`,
    });
  }
  if (problem?.code === "tooLong") {
    throw invalid({
      [`${FIELD}.count`]: `${n} ${frequency as string} instalments would run longer than five years.`,
    });
  }
  if (problem) throw invalid({ [FIELD]: "These instalments cannot be made." });
  return list;
}

function explicitInstalments(
  raw: unknown[],
  totalCents: number,
  today: string,
  money: (cents: number) => string,
): Instalment[] {
  const FIELD = "instalments";
  if (raw.length === 0) throw invalid({ [FIELD]: "Give at least one instalment." });
  if (raw.length > MAX_INSTALMENTS) {
    throw invalid({ [FIELD]: `At most ${MAX_INSTALMENTS} instalments (this list has ${raw.length}).` });
  }
  const fields: Record<string, string> = {};
  const list: { dueDate: unknown; amountCents: unknown }[] = [];
  raw.forEach((item, index) => {
    const at = `${FIELD}.${index}`;
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      fields[at] = "Give each instalment as {dueDate, amountCents}.";
      list.push({ dueDate: null, amountCents: null });
      return;
    }
    const entry = item as Record<string, unknown>;
    for (const key of Object.keys(entry)) {
      if (key !== "dueDate" && key !== "amountCents") {
        fields[`${at}.${key.slice(0, 40)}`] = "This field is not part of an instalment (dueDate, amountCents).";
      }
    }
    if (!isCalendarDate(entry.dueDate)) {
      fields[`${at}.dueDate`] = "Give a real date as YYYY-MM-DD, e.g. 2026-12-15.";
    } else if (entry.dueDate < today) {
      fields[`${at}.dueDate`] = `${entry.dueDate} is before today (${today}) in the business's time zone.`;
    }
    const amount = centsProblem(entry.amountCents, "the instalment");
    if (amount) fields[`${at}.amountCents`] = amount;
    list.push({ dueDate: entry.dueDate, amountCents: entry.amountCents });
  });
  if (Object.keys(fields).length) throw invalid(fields);
  // The one authority on a list (the same checks the pages and the runner trust).
  const problem = instalmentProblem(totalCents, list, today);
  if (!problem) return list as Instalment[];
  switch (problem.code) {
    case "notInOrder": {
      const previous = list[problem.index - 1]!.dueDate as string;
      throw invalid({
        [`${FIELD}.${problem.index}.dueDate`]: `Each instalment's day must be later than the one before: ${list[problem.index]!.dueDate as string} is not after ${previous}.`,
      });
    }
    case "tooFarAhead":
      throw invalid({
        [`${FIELD}.0.dueDate`]: `The first instalment must be within ${MAX_DAYS_TO_FIRST_INSTALMENT} days of today (${today}).`,
      });
    case "tooLong":
      throw invalid({ [FIELD]: "A schedule may run at most five years from its first instalment to its last." });
    case "sumMismatch": {
      const gap = problem.totalCents - problem.sumCents;
      throw invalid({
        [FIELD]: `The instalments add up to ${money(problem.sumCents)}, but the schedule is for ${money(problem.totalCents)} (${money(Math.abs(gap))} ${gap > 0 ? "short" : "over"}).`,
      });
    }
    default:
      throw invalid({ [FIELD]: "These instalments cannot be made." });
  }
}

/** Effective status (a promise whose date has passed unpaid is a Broken Promise: invoices.server). */
const effectiveStatus = (today: string) =>
  sql<number>`CASE WHEN invoices.status = 7 AND invoices.promise_date < ${today}::date AND invoices.balance_cents > 0 THEN 8 ELSE invoices.status END`;

/**
 * Proposes a schedule for one account of the business, in one transaction: the schedule, its
 * instalments (each first tried on its due day) and the invoices it pays. Nothing is sent.
 * Throws RequestProblem("validation") with a message per field for anything wrong.
 */
export async function proposeSchedule(
  businessId: string,
  input: unknown,
  options: { apiKeyId?: string | null; beforeCommit?: BeforeCommit } = {},
): Promise<ScheduleView> {
  const parsed = ProposeSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFields(parsed.error));
  const data = parsed.data;
  const at = now();
  const fields: Record<string, string> = {};
  const hasInvoices = data.invoices != null;
  const hasAmount = data.amountCents != null;
  if (hasInvoices === hasAmount) {
    fields[hasInvoices ? "amountCents" : "invoices"] =
      "Give either invoices (one or more of the account's invoices) or amountCents with a description, not both.";
  }
  if (hasAmount) {
    const problem = centsProblem(data.amountCents, "the amount");
    if (problem) fields.amountCents = problem;
    if (!data.description) fields.description = "Say what the amount is for.";
  }
  if (data.expiresAt != null && data.expiresInDays != null) {
    fields.expiresInDays = "Give expiresAt or expiresInDays, not both.";
  }
  if (data.instalments === undefined || data.instalments === null) {
    fields.instalments =
      "Give the instalments: {count, frequency, firstDate} for equal instalments, or a list of {dueDate, amountCents}.";
  }
  if (Object.keys(fields).length) throw invalid(fields);

  const db = await getDb();
  const business = await db
    .selectFrom("businesses")
    .select(["currency", "time_zone as timeZone"])
    .where("id", "=", businessId)
    .executeTakeFirst();
  if (!business) throw new RequestProblem("not-found", "No such business.");
  const money = (cents: number) => formatMoney(cents, { currency: business.currency });
  const today = todayIn(business.timeZone, at);
  const account = await findAccount(db, businessId, data.account);
  if (!account) throw invalid({ account: `No account "${clip(data.account)}" at this business.` });
  const contact = await findContact(db, businessId, data.contact);
  if (!contact || !(await mayActFor(db, businessId, contact.id, account.id))) {
    throw invalid({
      contact: contact
        ? `${contact.email} may not act for account ${account.number} (not one of its contacts, or disabled).`
        : `No contact "${clip(data.contact)}" at this business.`,
    });
  }

  const scheduleId = await db.transaction().execute(async (tx) => {
    const invoices = hasInvoices ? await lockInvoices(tx, businessId, account.id, data.invoices!, today) : [];
    const totalCents = hasInvoices
      ? invoices.reduce((sum, invoice) => sum + invoice.balanceCents, 0)
      : (data.amountCents as number);
    if (totalCents > MAX_MONEY_CENTS) {
      throw invalid({ invoices: "Together these invoices are too large for one schedule." });
    }
    const instalments = parseInstalments(data.instalments, totalCents, today, money);
    const firstDay = instalments[0]!.dueDate;
    // A proposal may be accepted until the end of its first instalment's day at the latest,
    // so no instalment is already late when it is accepted.
    const latest = startOfDayIn(business.timeZone, addDays(firstDay, 1));
    let expiresAt: Date;
    if (data.expiresAt != null || data.expiresInDays != null) {
      expiresAt =
        data.expiresAt != null ? new Date(data.expiresAt) : new Date(at.getTime() + data.expiresInDays! * DAY_MS);
      const field = data.expiresAt != null ? "expiresAt" : "expiresInDays";
      if (expiresAt.getTime() <= at.getTime()) throw invalid({ [field]: "The expiry must be in the future." });
      if (expiresAt.getTime() > at.getTime() + MAX_PROPOSAL_DAYS * DAY_MS) {
        throw invalid({ [field]: `The expiry must be within ${MAX_PROPOSAL_DAYS} days.` });
      }
      if (expiresAt.getTime() > latest.getTime()) {
        throw invalid({
          [field]: `The proposal must expire by the end of its first instalment's day (${firstDay}), so that no instalment is late when it is accepted.`,
        });
      }
    } else {
      expiresAt = new Date(Math.min(at.getTime() + DEFAULT_PROPOSAL_DAYS * DAY_MS, latest.getTime()));
    }

    const values = {
      business_id: businessId,
      account_id: account.id,
      description: data.description ?? "",
      currency: business.currency,
      total_cents: totalCents,
      contact_id: contact.id,
      email: contact.email,
      expires_at: expiresAt,
      created_by_api_key: options.apiKeyId ?? null,
      created_at: at,
    };
    const inserted = await insertWithReference(tx, "payment_schedules", "PS", values, "proposeSchedule");
    await tx
      .insertInto("schedule_instalments")
      .values(
        instalments.map((instalment, index) => ({
          business_id: businessId,
          schedule_id: inserted.id,
          seq: index + 1,
          due_date: instalment.dueDate,
          amount_cents: instalment.amountCents,
          next_attempt_on: instalment.dueDate,
        })),
      )
      .execute();
    if (invoices.length) {
      await tx
        .insertInto("payment_schedule_invoices")
        .values(
          invoices.map((invoice) => ({
            schedule_id: inserted.id,
            invoice_id: invoice.id,
            business_id: businessId,
            amount_cents: invoice.balanceCents,
          })),
        )
        .execute();
    }
    await options.beforeCommit?.(tx, inserted.id);
    return inserted.id;
  });
  const view = await getSchedule(businessId, scheduleId);
  if (!view) throw new Error("proposeSchedule: the new schedule is not readable");
  await audit({
    businessId,
    action: "schedule.proposed",
    details: { reference: view.reference, apiKeyId: options.apiKeyId ?? null, totalCents: view.totalCents },
  });
  return view;
}

/**
 * The invoices a proposal names, locked (in id order) so that two proposals of the same invoice
 * cannot both pass the "not in another schedule" check: each Open, Overdue, Promise or Broken
 * Promise with a balance, of this account, and in no other proposed, active or arrears schedule.
 */
async function lockInvoices(tx: Db, businessId: string, accountId: string, wanted: string[], today: string) {
  const ids = wanted.filter((value) => UUID.test(value)).map((value) => value.toLowerCase());
  const rows = await tx
    .selectFrom("invoices")
    .select(["id", "number", "balance_cents as balanceCents", effectiveStatus(today).as("status")])
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where((eb) => eb.or([eb("number", "in", wanted), ...(ids.length ? [eb("id", "in", ids)] : [])]))
    .orderBy("id")
    .forUpdate()
    .execute();
  const held = rows.length
    ? await tx
        .selectFrom("payment_schedule_invoices as psi")
        .innerJoin("payment_schedules as ps", "ps.id", "psi.schedule_id")
        .select(["psi.invoice_id as invoiceId", "ps.reference", "ps.status", "ps.expires_at as expiresAt"])
        .where("psi.business_id", "=", businessId)
        .where(
          "psi.invoice_id",
          "in",
          rows.map((r) => r.id),
        )
        .where("ps.status", "in", HOLDING_STATUSES)
        .execute()
    : [];
  const at = now();
  const fields: Record<string, string> = {};
  const chosen = new Map<string, { id: string; number: string; balanceCents: number }>();
  wanted.forEach((value, index) => {
    const row = rows.find((r) => r.number === value) ?? rows.find((r) => r.id === value.toLowerCase());
    // An expired proposal no longer holds its invoices (it can never be accepted).
    const holder = row
      ? held.find(
          (h) =>
            h.invoiceId === row.id && !(h.status === "proposed" && new Date(h.expiresAt).getTime() <= at.getTime()),
        )
      : undefined;
    if (!row) {
      fields[`invoices.${index}`] = `No invoice "${clip(value)}" on this account.`;
    } else if (!PAYABLE_INVOICE_STATUSES.includes(Number(row.status)) || Number(row.balanceCents) <= 0) {
      fields[`invoices.${index}`] =
        `Invoice ${row.number} has nothing to pay (it is closed, on hold, disputed or paid).`;
    } else if (holder) {
      fields[`invoices.${index}`] =
        `Invoice ${row.number} is already in payment schedule ${holder.reference} (${holder.status}): withdraw or cancel that one first.`;
    } else {
      chosen.set(row.id, { id: row.id, number: row.number, balanceCents: Number(row.balanceCents) });
    }
  });
  if (Object.keys(fields).length) throw invalid(fields);
  return [...chosen.values()];
}

// ---------------------------------------------------------------------------------------------
// Send, resend, withdraw, cancel

export type { Delivery } from "../links/link-lifecycle.server";

/**
 * Emails the proposal to its contact with a new link to `/payment-schedule/acceptance/<token>`,
 * revoking their earlier links to it. `send` takes a proposal never sent; `resend` one that was
 * (the old link says "replaced"). Only a proposal that can still be accepted is sent. The link
 * and counts are committed before the mail leaves; a mail failure is reported in `delivery`.
 */
export async function sendSchedule(
  businessId: string,
  idOrReference: string,
  options: { resend?: boolean; beforeCommit?: BeforeCommit; onLink?: (email: string, link: string) => void } = {},
): Promise<{ schedule: ScheduleView; delivery: Delivery }> {
  const found = await getSchedule(businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such payment schedule.");
  const db = await getDb();
  const { branding, support } = await linkSender(
    db,
    businessId,
    () => new RequestProblem("conflict", "This business has no host name, so no link to the schedule can be made."),
  );
  if (!(await mayActFor(db, businessId, found.contact.id, found.account.id))) {
    throw new RequestProblem(
      "conflict",
      `${found.contact.email} may no longer act for account ${found.account.number}: the proposal cannot be sent to them. Withdraw it and propose again to someone who may.`,
    );
  }
  const at = now();
  const token = await db.transaction().execute(async (tx) => {
    const row = await lockSchedule(tx, businessId, found.id);
    const state = scheduleView({ status: row.status, expiresAt: new Date(row.expiresAt) }, at);
    if (state !== "proposed") {
      throw new RequestProblem("conflict", `The schedule is ${state}: only a proposal can be sent.`);
    }
    if (options.resend && row.sentAt === null) {
      throw new RequestProblem("conflict", "The proposal has not been sent yet: send it first.");
    }
    if (!options.resend && row.sentAt !== null) {
      throw new RequestProblem("conflict", "The proposal has been sent already: resend it to send a new link.");
    }
    const token = await sendLinkAgain(
      tx,
      "payment_schedules",
      {
        businessId,
        purpose: "payment-schedule",
        subjectId: row.id,
        contactId: row.contactId,
        expiresAt: new Date(row.expiresAt),
      },
      at,
      { keepFirstSent: true },
    );
    await options.beforeCommit?.(tx, row.id);
    return token;
  });
  const schedule = (await getSchedule(businessId, found.id))!;
  await audit({
    businessId,
    action: options.resend ? "schedule.resent" : "schedule.sent",
    details: { reference: schedule.reference, to: schedule.contact.email },
  });
  const contact = await db
    .selectFrom("contacts")
    .select("first_name as firstName")
    .where("id", "=", schedule.contact.id)
    .executeTakeFirst();
  const url = publicLink(branding, `/payment-schedule/acceptance/${token}`);
  options.onLink?.(schedule.contact.email, url);
  const delivery = await deliverLinkEmail(
    "payment schedule",
    schedule.contact.email,
    { reference: schedule.reference, to: schedule.contact.email, resend: !!options.resend },
    () =>
      sendContactMail({
        branding,
        contact: { id: schedule.contact.id, email: schedule.contact.email },
        category: "schedules",
        replyTo: support.supportEmail,
        render: (preferences) =>
          renderScheduleProposalEmail({
            branding,
            support,
            recipientName: contact?.firstName ?? "",
            schedule,
            link: url,
            preferences,
          }),
      }),
  );
  return { schedule, delivery };
}

/**
 * Takes a proposal back before it is accepted: its links stop working. A withdrawn schedule
 * again is no change; an accepted one must be cancelled instead.
 */
export async function withdrawSchedule(
  businessId: string,
  idOrReference: string,
  options: { beforeCommit?: BeforeCommit } = {},
): Promise<ScheduleView> {
  const found = await getSchedule(businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such payment schedule.");
  const at = now();
  const changed = await endRecord(
    "payment_schedules",
    { businessId, purpose: "payment-schedule" },
    {
      lock: (tx) => lockSchedule(tx, businessId, found.id),
      check: (row) => {
        if (row.status !== "withdrawn" && row.status !== "proposed") {
          throw new RequestProblem(
            "conflict",
            row.status === "active" || row.status === "arrears"
              ? "The schedule has been accepted: cancel it instead."
              : `The schedule is ${row.status}: it can no longer be withdrawn.`,
          );
        }
        return row.status === "proposed";
      },
      change: (tx, row) => ({
        set: { status: "withdrawn", withdrawn_at: at },
        alsoChange: () =>
          tx
            .updateTable("schedule_instalments")
            .set({ status: "cancelled", next_attempt_on: null })
            .where("business_id", "=", businessId)
            .where("schedule_id", "=", row.id)
            .where("status", "=", "scheduled")
            .execute(),
      }),
      beforeCommit: options.beforeCommit,
    },
  );
  if (changed) await audit({ businessId, action: "schedule.withdrawn", details: { reference: found.reference } });
  return (await getSchedule(businessId, found.id))!;
}

/**
 * Ends an accepted schedule: nothing more is charged. Instalments waiting (scheduled, or failed
 * after their last try) are cancelled; one whose charge is in flight (processing) is left to
 * finish — money already moving is not stopped here. Its links stop working. Cancelling again is
 * no change; a proposal is withdrawn instead.
 */
export async function cancelSchedule(
  businessId: string,
  idOrReference: string,
  options: { beforeCommit?: BeforeCommit } = {},
): Promise<ScheduleView> {
  const found = await getSchedule(businessId, idOrReference);
  if (!found) throw new RequestProblem("not-found", "No such payment schedule.");
  const at = now();
  const changed = await endRecord(
    "payment_schedules",
    { businessId, purpose: "payment-schedule" },
    {
      lock: (tx) => lockSchedule(tx, businessId, found.id),
      check: (row) => {
        if (row.status === "proposed") {
          throw new RequestProblem("conflict", "The schedule has not been accepted: withdraw the proposal instead.");
        }
        if (row.status !== "active" && row.status !== "arrears" && row.status !== "cancelled") {
          throw new RequestProblem("conflict", `The schedule is ${row.status}: it can no longer be cancelled.`);
        }
        return row.status !== "cancelled";
      },
      change: (tx, row) => ({
        set: { status: "cancelled", cancelled_at: at },
        // Lock order: the schedule's row, then its instalments (decision 034).
        alsoChange: () =>
          tx
            .updateTable("schedule_instalments")
            .set({ status: "cancelled", next_attempt_on: null })
            .where("business_id", "=", businessId)
            .where("schedule_id", "=", row.id)
            .where("status", "in", ["scheduled", "failed"])
            .execute(),
      }),
      beforeCommit: options.beforeCommit,
    },
  );
  if (changed) await audit({ businessId, action: "schedule.cancelled", details: { reference: found.reference } });
  return (await getSchedule(businessId, found.id))!;
}

/**
 * A link to one schedule's progress page (`/customer/payment-schedule/<token>`) for a contact
 * who may act for its account — the link a declined instalment's email carries, so the contact
 * can pay it another way (decision 034). Purpose `payment-schedule`, like the proposal's link;
 * the contact's earlier live links to the schedule are revoked, so only the newest email works.
 * Returns null (and mints nothing) for an unknown schedule or a contact who may not act for its
 * account. `db` may be the caller's transaction.
 */
export async function createScheduleLink(
  db: Db,
  scheduleId: string,
  contactId: string,
): Promise<{ id: string; token: string; path: string; url: string | null; expiresAt: Date } | null> {
  if (!UUID.test(scheduleId) || !UUID.test(contactId)) return null;
  const schedule = await db
    .selectFrom("payment_schedules")
    .select(["id", "business_id as businessId", "account_id as accountId"])
    .where("id", "=", scheduleId)
    .executeTakeFirst();
  if (!schedule) return null;
  if (!(await mayActFor(db, schedule.businessId, contactId, schedule.accountId))) return null;
  const expiresAt = new Date(now().getTime() + SCHEDULE_LINK_DAYS * DAY_MS);
  const link = await reissueLink(db, {
    businessId: schedule.businessId,
    purpose: "payment-schedule",
    subjectId: schedule.id,
    contactId,
    expiresAt,
  });
  const branding = await findBusinessBranding(db, schedule.businessId);
  const path = progressPath(link.token);
  return { id: link.id, token: link.token, path, url: branding ? publicLink(branding, path) : null, expiresAt };
}
