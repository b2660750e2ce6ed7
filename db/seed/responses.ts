import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";
import { now as clockNow } from "../../app/services/platform/clock.server";
import { todayIn } from "../../app/lib/dates";

/**
 * The demo response requests (issue 17; decision 040), for acme only, all to Olivia for
 * ACME-1000: one open request of each kind — confirm the delivery address (RR-DEMO0001),
 * acknowledge last month's statement (RR-DEMO0002), and a credit proposed on the disputed invoice
 * ACME-1000-INV-017 (RR-DEMO0003) — and the statement of the month before, already acknowledged
 * (RR-DEMO0004), whose link opens its complete page. Every link is fixed (demo only) so the README
 * can link to them; stored like every link, as a selector and the SHA-256 of the verifier.
 */
export const DEMO_RESPONSE_TOKENS = {
  "delivery-address": "DemoAcmeRespAddrDEMO-ONLY-confirm-your-delivery-address-now",
  statement: "DemoAcmeRespStmtDEMO-ONLY-acknowledge-the-statement-locally",
  dispute: "DemoAcmeRespDispDEMO-ONLY-respond-to-a-dispute-proposal-now",
} as const;
export const DEMO_ANSWERED_RESPONSE_TOKEN = "DemoAcmeRespDoneDEMO-ONLY-see-what-the-answer-recorded-here";
export const DEMO_RESPONSE_REFERENCES = {
  "delivery-address": "RR-DEMO0001",
  statement: "RR-DEMO0002",
  dispute: "RR-DEMO0003",
  answered: "RR-DEMO0004",
} as const;

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const DAY_MS = 86_400_000;

/** The last day of the month before the one `day` (YYYY-MM-DD) is in, and that month's first. */
function monthBefore(day: string): { start: string; end: string } {
  const [year, month] = day.split("-").map(Number) as [number, number];
  const end = new Date(Date.UTC(year, month - 1, 0));
  const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
  // date-rule: calendar dates held as UTC midnight, never an instant's date (decision 078)
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

export async function seedDemoResponses(
  tx: Kysely<DB>,
  businessId: string,
  hostname: string,
  accountIds: Map<string, string>,
  contactIds: Map<string, string>,
) {
  if (hostname !== "acme.localhost") return;
  const now = clockNow().getTime();
  const olivia = contactIds.get("olivia@coastal.example")!;
  const account = accountIds.get("ACME-1000")!;
  const lastMonth = monthBefore(todayIn("Australia/Sydney", new Date(now)));
  const monthBeforeThat = monthBefore(lastMonth.start);
  // A statement's closing balance is what the account's statement lines add up to by its date.
  const balanceBy = async (day: string) =>
    Number(
      (
        await sql<{ balance: string | number | null }>`
          SELECT coalesce(sum(debit_cents - credit_cents), 0) AS balance FROM statement_lines
          WHERE business_id = ${businessId} AND account_id = ${account} AND line_date <= ${day}::date`.execute(tx)
      ).rows[0]?.balance ?? 0,
    );
  const invoice = await tx
    .selectFrom("invoices")
    .select(["id", "number", "issue_date", "due_date", "amount_cents", "dispute_reason"])
    .where("business_id", "=", businessId)
    .where("number", "=", "ACME-1000-INV-017")
    .executeTakeFirstOrThrow();
  const amount = Number(invoice.amount_cents);

  const requests = [
    {
      reference: DEMO_RESPONSE_REFERENCES["delivery-address"],
      token: DEMO_RESPONSE_TOKENS["delivery-address"],
      kind: "delivery-address" as const,
      invoiceId: null,
      daysAgo: 1,
      message: "We are updating our delivery runs. Please check where we should deliver your orders.",
      details: {
        address: { line1: "12 Wharf St", line2: "", locality: "Sydney", state: "NSW", postcode: "2000", country: "AU" },
      },
    },
    {
      reference: DEMO_RESPONSE_REFERENCES.statement,
      token: DEMO_RESPONSE_TOKENS.statement,
      kind: "statement" as const,
      invoiceId: null,
      daysAgo: 2,
      message: "",
      details: {
        statement: {
          periodStart: lastMonth.start,
          periodEnd: lastMonth.end,
          closingBalanceCents: await balanceBy(lastMonth.end),
        },
      },
    },
    {
      reference: DEMO_RESPONSE_REFERENCES.dispute,
      token: DEMO_RESPONSE_TOKENS.dispute,
      kind: "dispute" as const,
      invoiceId: invoice.id,
      daysAgo: 1,
      message: "Thank you for the photos of the damaged goods.",
      details: {
        dispute: {
          invoice: {
            number: invoice.number,
            issueDate: String(invoice.issue_date),
            dueDate: String(invoice.due_date),
            amountCents: amount,
            disputeReason: invoice.dispute_reason,
          },
          resolution: {
            type: "credit",
            // A quarter of the invoice, in whole dollars: the damaged part of the delivery.
            amountCents: Math.max(100, Math.round(amount / 400) * 100),
            note: "We will credit the damaged items; the rest of the delivery arrived as ordered.",
          },
        },
      },
    },
    {
      reference: DEMO_RESPONSE_REFERENCES.answered,
      token: DEMO_ANSWERED_RESPONSE_TOKEN,
      kind: "statement" as const,
      invoiceId: null,
      daysAgo: 30,
      message: "",
      details: {
        statement: {
          periodStart: monthBeforeThat.start,
          periodEnd: monthBeforeThat.end,
          closingBalanceCents: await balanceBy(monthBeforeThat.end),
        },
      },
    },
  ];

  for (const request of requests) {
    const createdAt = new Date(now - request.daysAgo * DAY_MS);
    // Sixty days from seeding: the README's links keep working long after `npm start`.
    const expiresAt = new Date(now + 60 * DAY_MS);
    const answered = request.reference === DEMO_RESPONSE_REFERENCES.answered;
    const answeredAt = new Date(createdAt.getTime() + 2 * DAY_MS);
    const row = await tx
      .insertInto("response_requests")
      .values({
        business_id: businessId,
        account_id: account,
        contact_id: olivia,
        reference: request.reference,
        kind: request.kind,
        details: JSON.stringify(request.details),
        invoice_id: request.invoiceId,
        message: request.message,
        email: "olivia@coastal.example",
        status: answered ? "answered" : "open",
        expires_at: expiresAt,
        sent_at: createdAt,
        send_count: 1,
        answered_at: answered ? answeredAt : null,
        created_at: createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const link = await tx
      .insertInto("link_tokens")
      .values({
        business_id: businessId,
        purpose: "response",
        subject_id: row.id,
        contact_id: olivia,
        selector: request.token.slice(0, 16),
        verifier_hash: sha256Hex(request.token.slice(16)),
        created_at: createdAt,
        expires_at: expiresAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (answered) {
      await tx
        .insertInto("response_answers")
        .values({
          business_id: businessId,
          request_id: row.id,
          account_id: account,
          contact_id: olivia,
          link_token_id: link.id,
          choice: "acknowledged",
          details: JSON.stringify({}),
          typed_name: "Olivia Nguyen",
          // An address from the documentation range (RFC 5737): demo data, no one's real address.
          ip_address: "203.0.113.10",
          user_agent: "Mozilla/5.0 (demo seed)",
          answered_at: answeredAt,
        })
        .execute();
    }
  }
}
