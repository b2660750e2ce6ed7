import type { Kysely } from "kysely";
import { todayIn } from "../../app/lib/dates";
import { addDays } from "../../app/lib/instalments";
import { now } from "../../app/services/platform/clock.server";
import type { DB } from "../../app/services/platform/db-schema.server";
import { acceptSchedule } from "../../app/services/schedules/acceptance.server";
import { proposeSchedule } from "../../app/services/schedules/commands.server";
import { scheduleFixtures } from "./schedule-fixtures";

/**
 * Active payment schedules for the instalment runner's tests (issue 15; decision 035), made the
 * way the portal makes them: proposed through the schedules service on a new account of its own,
 * then accepted by its contact with a saved card (approving or declining at the sandbox gateway)
 * or a PayTo agreement. Days are counted from the portal's clock (`now()`), so a test that moves
 * the clock before making one gets a schedule starting on the moved day.
 */
export const AUTHORITY = "I authorise the business to charge each instalment on its day.";

export function instalmentFixtures(db: Kysely<DB>) {
  const fx = scheduleFixtures(db);

  async function timeZoneOf(businessId: string) {
    const row = await db
      .selectFrom("businesses")
      .select("time_zone")
      .where("id", "=", businessId)
      .executeTakeFirstOrThrow();
    return row.time_zone;
  }

  /**
   * An accepted schedule: `amounts` instalments, the first `firstIn` days from the business's
   * today and then every `every` days, paying new invoices of `invoiceCents` (their sum must be
   * the total) or a stated amount. `way`: an approving card (default), a card the gateway saves
   * but declines on every charge, or a PayTo agreement id of the account (`agreementFor` makes one).
   */
  async function activeSchedule(
    businessId: string,
    options: {
      amounts: number[];
      invoiceCents?: number[];
      firstIn?: number;
      every?: number;
      way?: "card" | "declining-card" | { agreementFor: (scope: Scope) => Promise<string> };
    },
  ) {
    const scope = await fx.account(businessId);
    const today = todayIn(await timeZoneOf(businessId), now());
    const first = addDays(today, options.firstIn ?? 0);
    const invoices = options.invoiceCents ? await fx.invoices(scope, options.invoiceCents) : [];
    const total = options.amounts.reduce((sum, cents) => sum + cents, 0);
    const schedule = await proposeSchedule(businessId, {
      account: scope.accountNumber,
      contact: scope.email,
      ...(options.invoiceCents
        ? { invoices: invoices.map((invoice) => invoice.id) }
        : { amountCents: total, description: "Instalment runner test" }),
      instalments: options.amounts.map((amountCents, index) => ({
        dueDate: addDays(first, index * (options.every ?? 14)),
        amountCents,
      })),
    });
    const way =
      options.way && typeof options.way === "object"
        ? ({ kind: "payto", agreementId: await options.way.agreementFor(scope) } as const)
        : ({
            kind: "card",
            cardId: await fx.card(scope, { outcome: options.way === "declining-card" ? "decline" : "approve" }),
          } as const);
    const accepted = await acceptSchedule(
      { businessId, contactId: scope.contactId, clientIp: "203.0.113.20" },
      { reference: schedule.reference, way, authorityAccepted: true, authorityText: AUTHORITY },
    );
    if (!accepted.ok) throw new Error(`the schedule was not accepted: ${accepted.reason}`);
    const instalments = await db
      .selectFrom("schedule_instalments")
      .select(["id", "seq", "due_date", "amount_cents"])
      .where("schedule_id", "=", schedule.id)
      .orderBy("seq")
      .execute();
    return { scope, schedule: accepted.schedule, way, invoices, instalments };
  }

  /** An instalment's row as the runner leaves it. */
  const instalment = (id: string) =>
    db.selectFrom("schedule_instalments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  /** A schedule's row. */
  const schedule = (id: string) =>
    db.selectFrom("payment_schedules").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  /** Every charge the sandbox gateway made with a card of this account's, and every payment of the account. */
  async function moneyOf(accountId: string) {
    const payments = await db
      .selectFrom("payments")
      .select(["id", "status", "amount_cents", "request_guid", "business_id", "schedule_instalment_id"])
      .where("account_id", "=", accountId)
      .orderBy("created_at")
      .execute();
    const keys = payments.map((p) => `${p.business_id}:${p.request_guid}`);
    const charges =
      keys.length === 0
        ? []
        : await db
            .selectFrom("sandbox_gateway_charges")
            .select(["id", "idempotency_key", "status", "amount_cents"])
            .where("idempotency_key", "in", keys)
            .execute();
    return { payments, charges };
  }

  /** The email jobs written for the outbox (kind and what about), oldest first. */
  async function emailJobs(filter: (data: Record<string, string>) => boolean = () => true) {
    const rows = await db
      .selectFrom("pgboss.job" as never)
      .select(["data" as never, "state" as never])
      .where("name" as never, "=", "instalment-email" as never)
      .orderBy("created_on" as never)
      .execute();
    return (rows as unknown as { data: Record<string, string>; state: string }[]).map((row) => row.data).filter(filter);
  }

  return { ...fx, timeZoneOf, activeSchedule, instalment, schedule, moneyOf, emailJobs };
}

type Scope = Awaited<ReturnType<ReturnType<typeof scheduleFixtures>["account"]>>;
