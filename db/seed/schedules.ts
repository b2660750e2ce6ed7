import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Insertable, Kysely } from "kysely";
import type { DB, StatementLinesTable } from "../../app/services/platform/db-schema.server";
import { now as clockNow } from "../../app/services/platform/clock.server";
import { cardName } from "../../app/lib/card";
import { startOfDayIn, todayIn } from "../../app/lib/dates";
import { formatDate, formatMoney } from "../../app/lib/format";
import { translator } from "../../app/lib/i18n/catalog";
import { addDays, addMonths, instalmentDays, splitEqually } from "../../app/lib/instalments";
import { percentOf } from "../../app/lib/payment-calc";
import { scheduleAuthority } from "../../app/lib/schedule-pages";

/**
 * DEMO ONLY: the link of acme's seeded proposal (PS-DEMO0000), so a developer can open it right
 * after `npm start`: http://acme.localhost:3000/payment-schedule/acceptance/<this>. Stored like
 * every link, as a selector and the SHA-256 of the verifier.
 */
export const DEMO_SCHEDULE_TOKEN = "DemoAcmeSchedule0DEMO-ONLY-review-this-payment-schedule-xyz";
export const DEMO_SCHEDULE_REFERENCE = "PS-DEMO0000";

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");
const DAY_MS = 86_400_000;

/**
 * acme's payment schedules (issue 15; decision 034), one of each kind a contact meets:
 *
 * - PS-DEMO0000, proposed to olivia on Coastal Builders Group: $3,000.00 in six fortnightly
 *   instalments from a week today, with the README's fixed link.
 * - PS-DEMO0001, active on Coastal Builders – Wollongong (olivia sees it as a branch of her
 *   account), accepted with a Visa saved for it: six monthly instalments of $300.00, the first two
 *   paid (real payments: a card payment each, its surcharge, a succeeded try, and the credit lines
 *   on the statement), the third due in five days.
 * - PS-DEMO0002, in arrears on the same account, with a Mastercard whose bank now refuses
 *   (insufficient funds): the first instalment paid, the second declined on its day and at both
 *   retries, the rest upcoming.
 *
 * The paid ones are on Wollongong, which no other demo data pays into, so the other accounts'
 * payments and statements stay as the demo ledger makes them.
 *
 * The instalments' money is credit on the account (no invoices: a schedule of a stated amount),
 * as the runner records it; nothing else on the ledger moves. Called once from demo.ts.
 */
export async function seedPaymentSchedules(
  tx: Kysely<DB>,
  businessId: string,
  demo: { name: string; currency: string; timeZone: string; fees?: { surcharge: Record<string, { bps: number }> } },
  accountIds: Map<string, string>,
  contactIds: Map<string, string>,
) {
  const { currency, timeZone } = demo;
  const input = { businessName: demo.name, accountIds, contactIds };
  const surcharge = demo.fees?.surcharge ?? {};
  const bpsOf = (brand: string) => surcharge[brand]?.bps ?? surcharge.default?.bps ?? 0;
  const now = clockNow();
  const today = todayIn(timeZone, now);
  const olivia = input.contactIds.get("olivia@coastal.example")!;
  const coastal = input.accountIds.get("ACME-1000")!;
  const wollongong = input.accountIds.get("ACME-1002")!;
  const t = translator("en-AU");
  const money = (cents: number) => formatMoney(cents, { currency });
  const day = (value: string) => formatDate(value, { timeZone });
  const at = (iso: string, hour = 9) => new Date(`${iso}T${String(hour).padStart(2, "0")}:00:00+10:00`);

  // Wollongong's two cards, saved for its schedules: a Visa whose bank pays, and a Mastercard whose
  // bank now refuses every charge.
  const thisYear = now.getUTCFullYear();
  const saveCard = async (brand: "visa" | "mastercard", last4: string, outcome: string, isDefault: boolean) => {
    const token = `tok_sbx_demo_${randomBytes(12).toString("hex")}`;
    await tx
      .insertInto("sandbox_gateway_tokens")
      .values({ token, brand, last4, expiry_month: 11, expiry_year: thisYear + 2, outcome })
      .execute();
    return tx
      .insertInto("cards")
      .values({
        business_id: businessId,
        account_id: wollongong,
        gateway: "sandbox",
        gateway_token: token,
        brand,
        first_digit: brand === "visa" ? "4" : "5",
        last4,
        expiry_month: 11,
        expiry_year: thisYear + 2,
        holder_name: "Coastal Builders Wollongong",
        is_default: isDefault,
        authority_reference: "DEMO-SEED",
        consented_at: now,
        consented_by: olivia,
      })
      .returning(["id", "brand", "last4"])
      .executeTakeFirstOrThrow();
  };
  const visa = await saveCard("visa", "4242", "approve", true);
  const mastercard = await saveCard("mastercard", "5100", "insufficient_funds", false);

  type Plan = {
    reference: string;
    accountId: string;
    description: string;
    days: string[];
    amounts: number[];
    status: "proposed" | "active" | "arrears";
    createdAt: Date;
    expiresAt: Date;
    card?: { id: string; brand: string; last4: string };
    /** How many instalments were paid; the one after them declined at every try (arrears). */
    paid?: number;
    token?: string;
  };
  const fortnightly = instalmentDays(addDays(today, 7), 6, "fortnightly");
  const monthlyStart = addDays(addMonths(today, -2), 5);
  const arrearsStart = addDays(addMonths(today, -1), -12);
  const plans: Plan[] = [
    {
      reference: DEMO_SCHEDULE_REFERENCE,
      accountId: coastal,
      description: "Newcastle site fit-out, in six fortnightly payments",
      days: fortnightly,
      amounts: splitEqually(3_000_00, 6),
      status: "proposed",
      createdAt: new Date(now.getTime() - 0.1 * DAY_MS),
      // Until the end of the first instalment's day in the business's time zone (the service's own rule).
      expiresAt: startOfDayIn(timeZone, addDays(fortnightly[0]!, 1)),
      token: DEMO_SCHEDULE_TOKEN,
    },
    {
      reference: "PS-DEMO0001",
      accountId: wollongong,
      description: "Bathroom range order, over six months",
      days: instalmentDays(monthlyStart, 6, "monthly"),
      amounts: splitEqually(1_800_00, 6),
      status: "active",
      createdAt: at(addDays(monthlyStart, -10)),
      expiresAt: at(addDays(monthlyStart, -3)),
      card: visa,
      paid: 2,
    },
    {
      reference: "PS-DEMO0002",
      accountId: wollongong,
      description: "Wollongong site account, in five monthly payments",
      days: instalmentDays(arrearsStart, 5, "monthly"),
      amounts: splitEqually(2_500_00, 5),
      status: "arrears",
      createdAt: at(addDays(arrearsStart, -9)),
      expiresAt: at(addDays(arrearsStart, -2)),
      card: mastercard,
      paid: 1,
    },
  ];

  for (const plan of plans) {
    const total = plan.amounts.reduce((sum, cents) => sum + cents, 0);
    const paidCount = plan.paid ?? 0;
    const paidCents = plan.amounts.slice(0, paidCount).reduce((sum, cents) => sum + cents, 0);
    const accepted = plan.status !== "proposed";
    const acceptedAt = new Date(plan.createdAt.getTime() + 2 * DAY_MS);
    const failedOn = plan.status === "arrears" ? plan.days[paidCount]! : null;
    const schedule = await tx
      .insertInto("payment_schedules")
      .values({
        business_id: businessId,
        account_id: plan.accountId,
        reference: plan.reference,
        description: plan.description,
        currency,
        total_cents: total,
        paid_cents: paidCents,
        status: plan.status,
        contact_id: olivia,
        email: "olivia@coastal.example",
        expires_at: plan.expiresAt,
        card_id: plan.card?.id ?? null,
        accepted_at: accepted ? acceptedAt : null,
        accepted_by: accepted ? olivia : null,
        accepted_ip: accepted ? "203.0.113.24" : null,
        authority_text: accepted
          ? scheduleAuthority(t, {
              business: input.businessName,
              reference: plan.reference,
              count: plan.days.length,
              total: money(total),
              first: day(plan.days[0]!),
              last: day(plan.days[plan.days.length - 1]!),
            })
          : null,
        sent_at: plan.createdAt,
        send_count: 1,
        // After the last retry of the declined instalment (3 and 7 days after its day).
        arrears_at: failedOn ? at(addDays(failedOn, 10), 7) : null,
        created_at: plan.createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    for (const [index, dueDate] of plan.days.entries()) {
      const amount = plan.amounts[index]!;
      const isPaid = index < paidCount;
      const isFailed = failedOn !== null && index === paidCount;
      const instalment = await tx
        .insertInto("schedule_instalments")
        .values({
          business_id: businessId,
          schedule_id: schedule.id,
          seq: index + 1,
          due_date: dueDate,
          amount_cents: amount,
          status: isPaid ? "paid" : isFailed ? "failed" : "scheduled",
          next_attempt_on: isPaid || isFailed ? null : dueDate,
          attempts: isPaid ? 1 : isFailed ? 3 : 0,
          last_failure: isFailed ? "insufficient_funds" : null,
          paid_at: isPaid ? at(dueDate, 7) : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (!plan.card) continue;
      const card = plan.card;
      const tries = isPaid ? [dueDate] : isFailed ? [dueDate, addDays(dueDate, 3), addDays(dueDate, 10)] : [];
      for (const [attempt, tryDay] of tries.entries()) {
        const fee = percentOf(amount, bpsOf(card.brand));
        const succeeded = isPaid;
        const requestGuid = randomUUID();
        const payment = await tx
          .insertInto("payments")
          .values({
            business_id: businessId,
            account_id: plan.accountId,
            request_guid: requestGuid,
            request_hash: sha256Hex(`demo-schedule:${requestGuid}`),
            reference: `PAY-${randomBytes(5).toString("hex").toUpperCase()}`,
            method: "card",
            card_id: card.id,
            status: succeeded ? "succeeded" : "failed",
            currency,
            amount_cents: amount + fee,
            subtotal_cents: amount,
            merchant_fee_cents: fee,
            card_brand: card.brand,
            card_last4: card.last4,
            gateway_charge_id: succeeded ? `ch_demo_${randomBytes(9).toString("base64url")}` : null,
            failure_code: succeeded ? null : "insufficient_funds",
            created_by: olivia,
            created_at: at(tryDay, 7),
            completed_at: at(tryDay, 7),
            purpose: "instalment",
            schedule_instalment_id: instalment.id,
          })
          .returning(["id", "reference"])
          .executeTakeFirstOrThrow();
        await tx
          .insertInto("instalment_attempts")
          .values({
            business_id: businessId,
            instalment_id: instalment.id,
            attempt_no: attempt + 1,
            trigger: "runner",
            request_guid: requestGuid,
            outcome: succeeded ? "succeeded" : "declined",
            failure_code: succeeded ? null : "insufficient_funds",
            payment_id: payment.id,
            started_at: at(tryDay, 7),
            finished_at: at(tryDay, 7),
          })
          .execute();
        if (!succeeded) continue;
        await tx
          .updateTable("schedule_instalments")
          .set({ payment_id: payment.id })
          .where("id", "=", instalment.id)
          .execute();
        // The money is credit on the account; the surcharge its own line (as the engine writes a credit payment).
        const line = (type: "payment" | "fee", description: string, debit: number, credit: number) =>
          ({
            business_id: businessId,
            account_id: plan.accountId,
            line_date: tryDay,
            type,
            reference: payment.reference,
            description,
            debit_cents: debit,
            credit_cents: credit,
            invoice_id: null,
          }) satisfies Insertable<StatementLinesTable>;
        await tx
          .insertInto("statement_lines")
          .values([
            line(
              "payment",
              `Instalment ${index + 1} of ${plan.reference} (card ${cardName(card.brand, card.last4)})`,
              0,
              amount + fee,
            ),
            ...(fee > 0 ? [line("fee", "Card surcharge", fee, 0)] : []),
          ])
          .execute();
      }
    }
    if (!plan.token) continue;
    await tx
      .insertInto("link_tokens")
      .values({
        business_id: businessId,
        purpose: "payment-schedule",
        subject_id: schedule.id,
        contact_id: olivia,
        selector: plan.token.slice(0, 16),
        verifier_hash: sha256Hex(plan.token.slice(16)),
        created_at: plan.createdAt,
        expires_at: plan.expiresAt,
      })
      .execute();
  }
}
