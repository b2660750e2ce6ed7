import { createHash } from "node:crypto";
import { sql, type Insertable } from "kysely";
import { getDb } from "../../platform/database.server";
import { now } from "../../platform/clock.server";
import { businessTodayOf } from "../../host/business-day.server";
import type { Db } from "../../platform/db.server";
import type { StatementLinesTable } from "../../platform/db-schema.server";
import { findHostBranding } from "../../host/host.server";
import { logger } from "../../platform/logger.server";
import { sendContactMail } from "../../communication/contact-mail.server";
import { renderPayIdReceipt, type PayIdReceiptFacts } from "./payid-receipt-email.server";
import { PAYABLE_STATUSES } from "../payment-records.server";
import { getPayToProvider } from "./index.server";
import type { IncomingPayment } from "./payto-provider.server";

/**
 * Receivable PayIDs (issue 13; decision 027): each account of an Australian business with
 * PayTo on gets its own PayID, `<account number>@<payIdDomain>`, that anyone can pay into
 * from any banking app. The provider tells us about money arriving there (`payid.received`);
 * it is applied to the account's oldest invoices, exactly once per provider transaction id.
 */

export type PayIdAccount = { businessId: string; hostname: string; accountId: string; accountNumber: string };

export type AccountPayId =
  | { status: "ready"; payId: string; name: string }
  /** "not_offered": PayTo is off for this business (or it is not Australian); "no_domain": no receivable PayIDs. */
  | { status: "off"; reason: "not_offered" | "no_domain" }
  /** The provider could not register it just now: the page says so and carries on. */
  | { status: "unavailable" };

/** The local part of the PayID: the account number, lower-case, only [a-z0-9-], at most 64 characters. */
export function payIdLocalPart(accountNumber: string, accountId: string): string {
  const local = accountNumber
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  // An account number made only of other characters still needs a PayID of its own.
  return local || `account-${accountId.slice(0, 8).toLowerCase()}`;
}

/**
 * The account's receivable PayID. One indexed read (the business's settings and the stored
 * PayID, by primary keys) on every page; the provider is asked only the first time, and what
 * it registered is stored, so later pages never wait for it.
 */
export async function getAccountPayId(actor: PayIdAccount): Promise<AccountPayId> {
  const db = await getDb();
  const row = await db
    .selectFrom("businesses as b")
    .leftJoin("payto_settings as s", "s.business_id", "b.id")
    .leftJoin("payto_payids as p", (join) =>
      join.onRef("p.business_id", "=", "b.id").on("p.account_id", "=", actor.accountId),
    )
    .select(["b.name", "b.country", "s.enabled", "s.payid_domain as domain", "p.payid"])
    .where("b.id", "=", actor.businessId)
    .executeTakeFirst();
  if (!row || row.country !== "AU" || !row.enabled) return { status: "off", reason: "not_offered" };
  // A PayID already registered keeps working even if the domain changes later: payers may have saved it.
  if (row.payid) return { status: "ready", payId: row.payid, name: row.name };
  if (!row.domain) return { status: "off", reason: "no_domain" };
  try {
    const payId = await registerAccountPayId(db, actor, row.domain, row.name);
    return payId ? { status: "ready", payId, name: row.name } : { status: "unavailable" };
  } catch (error) {
    logger.warn("payid registration failed", { businessId: actor.businessId, accountId: actor.accountId, error });
    return { status: "unavailable" };
  }
}

/**
 * The account's PayID as it stands, registering nothing: for a page that must write nothing (a brand
 * preview, decision 082). One not registered yet reads as "off", and the page shows no PayID.
 */
export async function peekAccountPayId(actor: PayIdAccount): Promise<AccountPayId> {
  const db = await getDb();
  const row = await db
    .selectFrom("businesses as b")
    .leftJoin("payto_settings as s", "s.business_id", "b.id")
    .leftJoin("payto_payids as p", (join) =>
      join.onRef("p.business_id", "=", "b.id").on("p.account_id", "=", actor.accountId),
    )
    .select(["b.name", "b.country", "s.enabled", "p.payid"])
    .where("b.id", "=", actor.businessId)
    .executeTakeFirst();
  if (!row || row.country !== "AU" || !row.enabled) return { status: "off", reason: "not_offered" };
  return row.payid ? { status: "ready", payId: row.payid, name: row.name } : { status: "off", reason: "no_domain" };
}

async function registerAccountPayId(db: Db, actor: PayIdAccount, domain: string, name: string) {
  let local = payIdLocalPart(actor.accountNumber, actor.accountId);
  // Two account numbers may reduce to the same local part ("AB 1", "ab1"): the second gets
  // a suffix of its id, so one PayID never pays into two accounts.
  const taken = await db
    .selectFrom("payto_payids")
    .select(["business_id", "account_id"])
    .where("payid", "=", `${local}@${domain}`)
    .executeTakeFirst();
  if (taken && (taken.business_id !== actor.businessId || taken.account_id !== actor.accountId)) {
    local = `${local.slice(0, 55)}-${actor.accountId.slice(0, 8).toLowerCase()}`;
  }
  const registered = await getPayToProvider().registerPayId({
    payId: `${local}@${domain}`,
    merchant: actor.businessId,
    hostname: actor.hostname,
    reference: actor.accountId,
    name,
  });
  if (!registered.ok) {
    logger.warn("payid registration refused", { businessId: actor.businessId, refusal: registered.refusal });
    return null;
  }
  // Two pages may register at once: the provider answers both alike, and one row wins.
  await db
    .insertInto("payto_payids")
    .values({ business_id: actor.businessId, account_id: actor.accountId, payid: registered.value.payId.toLowerCase() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const stored = await db
    .selectFrom("payto_payids")
    .select("payid")
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .executeTakeFirst();
  return stored?.payid ?? null;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The payment's requestGuid: a UUID made from the transaction id, so a repeat can never make a second one. */
export function incomingRequestGuid(businessId: string, transactionId: string): string {
  const hex = sha256(`payid:${businessId}:${transactionId}`);
  // Shaped as a version-5-style UUID (name-based), which is what it is.
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `5${hex.slice(13, 16)}`,
    ((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16) + hex.slice(18, 20),
    hex.slice(20, 32),
  ].join("-");
}

const UNSETTLED = ["pending", "unknown", "submitted"] as const;
const PAGE = 200;

function validIncoming(incoming: IncomingPayment) {
  return (
    typeof incoming.transactionId === "string" &&
    incoming.transactionId.length >= 1 &&
    incoming.transactionId.length <= 100 &&
    typeof incoming.payId === "string" &&
    incoming.payId.length >= 3 &&
    incoming.payId.length <= 256 &&
    Number.isSafeInteger(incoming.amountCents) &&
    incoming.amountCents > 0
  );
}

/**
 * Applies money that arrived at an account's receivable PayID to its oldest invoices, once per
 * provider transaction id. "unknown": no account of `businessId` has that PayID.
 *
 * One transaction claims the transaction id (the primary key of payto_incoming_payments: a
 * concurrent duplicate waits on it and then finds it taken), records a succeeded `payid`
 * payment with its allocations, lowers the balances (Closed at zero) and writes the statement
 * lines. What other unsettled payments reserve is left alone; money beyond what is owing stays
 * on the account as an "Unapplied PayID payment" credit.
 */
export async function applyIncomingPayment(
  businessId: string,
  incoming: IncomingPayment,
): Promise<"applied" | "duplicate" | "unknown"> {
  if (!validIncoming(incoming)) {
    logger.warn("payid payment with malformed data refused", { businessId });
    return "unknown";
  }
  const payId = incoming.payId.toLowerCase();
  const db = await getDb();
  const owner = await db
    .selectFrom("payto_payids as p")
    .innerJoin("businesses as b", "b.id", "p.business_id")
    .select(["p.account_id as accountId", "b.currency"])
    .where("p.payid", "=", payId)
    .where("p.business_id", "=", businessId)
    .executeTakeFirst();
  if (!owner) return "unknown";

  const payerName = typeof incoming.payerName === "string" ? incoming.payerName.slice(0, 140) : "";
  const outcome = await db.transaction().execute(async (tx) => {
    const claimed = await tx
      .insertInto("payto_incoming_payments")
      .values({
        business_id: businessId,
        provider_transaction_id: incoming.transactionId,
        account_id: owner.accountId,
        payid: payId,
        amount_cents: incoming.amountCents,
        payer_name: payerName,
      })
      .onConflict((oc) => oc.columns(["business_id", "provider_transaction_id"]).doNothing())
      .returning("provider_transaction_id")
      .executeTakeFirst();
    if (!claimed) return "duplicate" as const;

    // The business's date, not the UTC one (decision 078).
    const day = await businessTodayOf(tx, businessId);
    const allocations = await allocateOldestFirst(tx, businessId, owner.accountId, incoming.amountCents);
    const applied = allocations.reduce((sum, a) => sum + a.amountCents, 0);
    const reference = `PAYID-${sha256(`${businessId}:${incoming.transactionId}`).slice(0, 12).toUpperCase()}`;
    const payment = await tx
      .insertInto("payments")
      .values({
        business_id: businessId,
        account_id: owner.accountId,
        request_guid: incomingRequestGuid(businessId, incoming.transactionId),
        request_hash: sha256(
          JSON.stringify({ payId, transactionId: incoming.transactionId, amount: incoming.amountCents }),
        ),
        reference,
        method: "payid",
        status: "succeeded",
        currency: owner.currency,
        amount_cents: incoming.amountCents,
        subtotal_cents: applied,
        note: payerName ? `From ${payerName}` : "",
        provider_payment_id: incoming.transactionId,
        completed_at: now(),
      })
      .returning(["id", "reference"])
      .executeTakeFirstOrThrow();
    if (allocations.length > 0) {
      await tx
        .insertInto("payment_allocations")
        .values(
          allocations.map((a) => ({
            payment_id: payment.id,
            invoice_id: a.invoiceId,
            business_id: businessId,
            amount_cents: a.amountCents,
            balance_before_cents: a.balanceCents,
          })),
        )
        .execute();
      for (const allocation of allocations) {
        await tx
          .updateTable("invoices")
          .set({
            balance_cents: sql`balance_cents - ${allocation.amountCents}`,
            status: sql`CASE WHEN balance_cents - ${allocation.amountCents} = 0 THEN 2 WHEN status IN (7, 8) THEN (CASE WHEN due_date < ${day}::date THEN 3 ELSE 1 END) ELSE status END`,
            promise_date: sql`CASE WHEN balance_cents - ${allocation.amountCents} = 0 THEN NULL ELSE promise_date END`,
          })
          .where("id", "=", allocation.invoiceId)
          .where("business_id", "=", businessId)
          .execute();
      }
    }
    const line = (
      type: StatementLinesTable["type"],
      description: string,
      credit: number,
    ): Insertable<StatementLinesTable> => ({
      business_id: businessId,
      account_id: owner.accountId,
      line_date: day,
      type,
      reference: payment.reference,
      description,
      debit_cents: 0,
      credit_cents: credit,
      invoice_id: null,
    });
    // The lines add up to the money received: what paid invoices, and what is left as credit.
    const lines: Insertable<StatementLinesTable>[] = [];
    if (applied > 0) lines.push(line("payment", `PayID payment to ${payId}`, applied));
    if (incoming.amountCents > applied) {
      lines.push(line("credit", "Unapplied PayID payment", incoming.amountCents - applied));
    }
    await tx.insertInto("statement_lines").values(lines).execute();
    await tx
      .updateTable("payto_incoming_payments")
      .set({ payment_id: payment.id })
      .where("business_id", "=", businessId)
      .where("provider_transaction_id", "=", incoming.transactionId)
      .execute();
    return { paymentId: payment.id };
  });
  logger.info("payid payment received", {
    businessId,
    transactionId: incoming.transactionId,
    amountCents: incoming.amountCents,
    result: outcome === "duplicate" ? outcome : "applied",
  });
  if (outcome === "duplicate") return "duplicate";
  await sendPayIdReceipt(businessId, outcome.paymentId);
  return "applied";
}

/**
 * The receipt for money received at a PayID, to the account's contacts (nobody on our side
 * made the payment, so there is no one "who paid" to write to). A mail failure is logged and
 * never undoes or repeats the payment: the statement shows everything the email says.
 */
export async function sendPayIdReceipt(businessId: string, paymentId: string) {
  try {
    const db = await getDb();
    const host = await db
      .selectFrom("hosts")
      .select("hostname")
      .where("business_id", "=", businessId)
      .orderBy("hostname")
      .executeTakeFirst();
    const branding = host ? await findHostBranding(db, host.hostname) : null;
    if (!branding) return;
    const payment = await db
      .selectFrom("payments as p")
      .innerJoin("payto_incoming_payments as i", (join) =>
        join.onRef("i.payment_id", "=", "p.id").onRef("i.business_id", "=", "p.business_id"),
      )
      .select(["p.account_id", "p.reference", "p.amount_cents", "p.subtotal_cents", "p.completed_at", "i.payid"])
      .where("p.business_id", "=", businessId)
      .where("p.id", "=", paymentId)
      .executeTakeFirst();
    if (!payment) return;
    const [invoices, contacts] = await Promise.all([
      db
        .selectFrom("payment_allocations as a")
        .innerJoin("invoices as v", "v.id", "a.invoice_id")
        .select(["v.number", "a.amount_cents"])
        .where("a.business_id", "=", businessId)
        .where("a.payment_id", "=", paymentId)
        .orderBy("v.due_date")
        .orderBy("v.number")
        .execute(),
      db
        .selectFrom("account_contacts as ac")
        .innerJoin("contacts as c", "c.id", "ac.contact_id")
        .select(["c.id", "c.email", "c.first_name"])
        .where("ac.business_id", "=", businessId)
        .where("ac.account_id", "=", payment.account_id)
        .where("c.verified_at", "is not", null)
        .where("c.disabled_at", "is", null)
        .orderBy("c.email")
        .limit(20)
        .execute(),
    ]);
    const facts: PayIdReceiptFacts = {
      reference: payment.reference,
      amountCents: payment.amount_cents,
      payid: payment.payid,
      completedAt: payment.completed_at ?? now(),
      invoices: invoices.map((invoice) => ({ number: invoice.number, amountCents: invoice.amount_cents })),
      creditCents: payment.amount_cents - payment.subtotal_cents,
    };
    for (const contact of contacts) {
      // A receipt: transactional, sent whatever the preferences, with a link to them (decision 039).
      await sendContactMail({
        branding,
        contact: { id: contact.id, email: contact.email },
        category: "receipts",
        key: `payid-receipt:${paymentId}:${contact.id}`,
        render: (preferences) => renderPayIdReceipt({ branding, firstName: contact.first_name, facts, preferences }),
      });
    }
  } catch (error) {
    logger.error("payid receipt email failed", { paymentId, error });
  }
}

type Allocation = { invoiceId: string; amountCents: number; balanceCents: number };

/**
 * The account's payable invoices, oldest first (due date, then number), each taking what is
 * available of it until the money runs out. Each page of invoices is locked in id order (as
 * the card payments lock theirs), then the reservations of other unsettled payments are read
 * again in a new statement, as `payableInvoices` does, now that the rows are ours.
 */
async function allocateOldestFirst(tx: Db, businessId: string, accountId: string, amountCents: number) {
  const allocations: Allocation[] = [];
  let left = amountCents;
  let after: { dueDate: string; number: string } | null = null;
  while (left > 0) {
    let query = tx
      .selectFrom("invoices")
      .select(["id", "number", "due_date as dueDate"])
      .where("business_id", "=", businessId)
      .where("account_id", "=", accountId)
      .where("status", "in", [...PAYABLE_STATUSES])
      .where("balance_cents", ">", 0);
    if (after) {
      const { dueDate, number } = after;
      query = query.where((eb) =>
        eb.or([eb("due_date", ">", dueDate), eb.and([eb("due_date", "=", dueDate), eb("number", ">", number)])]),
      );
    }
    const page = await query.orderBy("due_date").orderBy("number").limit(PAGE).execute();
    if (page.length === 0) break;
    const ids = page.map((row) => row.id);
    const locked = await tx
      .selectFrom("invoices")
      .select(["id", "balance_cents as balanceCents"])
      .where("business_id", "=", businessId)
      .where("id", "in", ids)
      .where("status", "in", [...PAYABLE_STATUSES])
      .where("balance_cents", ">", 0)
      .orderBy("id")
      .forUpdate()
      .execute();
    const reserved = await tx
      .selectFrom("payment_allocations as a")
      .innerJoin("payments as p", "p.id", "a.payment_id")
      .select(["a.invoice_id as invoiceId", (eb) => eb.fn.sum<number>("a.amount_cents").as("cents")])
      .where("a.business_id", "=", businessId)
      .where("a.invoice_id", "in", ids)
      .where("p.status", "in", [...UNSETTLED])
      .groupBy("a.invoice_id")
      .execute();
    const balances = new Map(locked.map((row) => [row.id, Number(row.balanceCents)]));
    const held = new Map(reserved.map((row) => [row.invoiceId, Number(row.cents)]));
    for (const invoice of page) {
      const balance = balances.get(invoice.id);
      if (balance === undefined) continue; // paid or put on hold meanwhile
      const available = balance - (held.get(invoice.id) ?? 0);
      if (available <= 0) continue;
      const take = Math.min(available, left);
      allocations.push({ invoiceId: invoice.id, amountCents: take, balanceCents: balance });
      left -= take;
      if (left === 0) break;
    }
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    after = { dueDate: String(last.dueDate), number: last.number };
  }
  return allocations;
}
