import { randomBytes } from "node:crypto";
import { MAX_SAVED_PER_ACCOUNT, type CardBrand } from "~/lib/payment-method-types";
import { audit } from "../platform/audit.server";
import { now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import {
  GatewayTimeoutError,
  type GatewayContext,
  type GatewayRefusal,
  type GatewayResult,
  type TokenisedCard,
} from "../payments/gateway/card-gateway.server";
import { getCardGateway } from "../payments/gateway/index.server";
import { logger } from "../platform/logger.server";
import { UUID } from "~/lib/ids";

/**
 * Saved cards and bank accounts of an account (issue 5). Callers have already checked that
 * the signed-in contact may see the account; every query here also pins the business and
 * the account, so a card or bank-account id of another account is simply not found.
 *
 * Card numbers and CVNs pass through `saveCard`/`updateCard` to the gateway and nowhere
 * else: they are not stored, logged, audited or returned.
 */
export type SavedCard = {
  cardId: string;
  brand: CardBrand;
  firstDigit: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  holderName: string;
  isDefault: boolean;
  createdAt: Date;
};

export type SavedBankAccount = {
  bankAccountId: string;
  country: "AU" | "NZ";
  accountName: string;
  routing: string;
  accountNumber: string;
  description: string;
  createdAt: Date;
};

type Scope = { businessId: string; accountId: string };
type Actor = Scope & { contactId: string; clientIp: string };

// Defined in lib so that the pages can show it (a .server value is undefined in the browser).
export { MAX_SAVED_PER_ACCOUNT };

const cardColumns = [
  "id as cardId",
  "brand",
  "first_digit as firstDigit",
  "last4",
  "expiry_month as expiryMonth",
  "expiry_year as expiryYear",
  "holder_name as holderName",
  "is_default as isDefault",
  "created_at as createdAt",
] as const;

export async function listCards({ businessId, accountId }: Scope): Promise<SavedCard[]> {
  const db = await getDb();
  return db
    .selectFrom("cards")
    .select(cardColumns)
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("removed_at", "is", null)
    .orderBy("is_default", "desc")
    .orderBy("created_at")
    .orderBy("id")
    .limit(MAX_SAVED_PER_ACCOUNT)
    .execute();
}

/** The account's card with this id, or null (another account's card, a removed one, or garbage). */
export async function findCard({ businessId, accountId }: Scope, cardId: unknown): Promise<SavedCard | null> {
  if (typeof cardId !== "string" || !UUID.test(cardId)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("cards")
    .select(cardColumns)
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("id", "=", cardId)
    .where("removed_at", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

export type CardWriteResult = { ok: true; card: SavedCard } | { ok: false; refusal: GatewayRefusal | "limit" };

/** Serialises writes to one account's payment methods (default flags, limits). */
async function lockAccount(tx: Db, { businessId, accountId }: Scope) {
  await tx
    .selectFrom("accounts")
    .select("id")
    .where("business_id", "=", businessId)
    .where("id", "=", accountId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

async function countCards(tx: Db, { businessId, accountId }: Scope) {
  const row = await tx
    .selectFrom("cards")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("removed_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A gateway call whose failure (timeout, outage, a bug) is the "unavailable" refusal, not a 500. */
async function askGateway<T>(call: () => Promise<GatewayResult<T>>): Promise<GatewayResult<T>> {
  try {
    return await call();
  } catch (error) {
    // Nothing is stored when the gateway does not answer: a token it may have made is unused.
    if (!(error instanceof GatewayTimeoutError)) logger.error("card gateway failed", { error });
    return { ok: false, refusal: "unavailable" };
  }
}

/**
 * A token the gateway made for a card the portal then did not save (the account reached its
 * limit meanwhile, or the database write failed): removed from the gateway's vault, so no
 * token exists that the portal does not know about. A failure here is logged (never the
 * token itself) and does not hide the first problem.
 */
async function discardToken(token: string, reason: string) {
  try {
    await getCardGateway().removeToken(token);
  } catch (error) {
    logger.error("could not remove an unused card token from the gateway", {
      gateway: getCardGateway().name,
      reason,
      error,
    });
  }
}

/** Every change to an account's payment methods is audited: who, from where, which account. */
function auditChange(actor: Actor, action: string, details: Record<string, unknown>) {
  return audit({
    businessId: actor.businessId,
    contactId: actor.contactId,
    action,
    clientIp: actor.clientIp,
    details: { accountId: actor.accountId, ...details },
  });
}

export async function saveCard(
  actor: Actor,
  input: {
    cardNumber: string;
    cvn: string;
    expiryMonth: number;
    expiryYear: number;
    holderName: string;
    makeDefault: boolean;
    authorityReference: string;
  },
  context: GatewayContext,
): Promise<CardWriteResult> {
  const db = await getDb();
  if ((await countCards(db, actor)) >= MAX_SAVED_PER_ACCOUNT) return { ok: false, refusal: "limit" };
  // Last of all: the caller has checked access and every field, so what the gateway
  // tokenises is a card the portal will record, and a token is only ever left behind by a
  // failure below, which removes it again.
  const tokenised = await askGateway(() =>
    getCardGateway().tokenise({
      ...context,
      cardNumber: input.cardNumber,
      cvn: input.cvn,
      expiryMonth: input.expiryMonth,
      expiryYear: input.expiryYear,
      holderName: input.holderName,
    }),
  );
  if (!tokenised.ok) return tokenised;
  const { token, brand, last4 } = tokenised.value;
  let card;
  try {
    card = await insertCard(actor, input, tokenised.value);
  } catch (error) {
    await discardToken(token, "card not recorded");
    throw error;
  }
  if (!card) {
    await discardToken(token, "limit reached");
    return { ok: false, refusal: "limit" };
  }
  await auditChange(actor, "card.added", {
    cardId: card.cardId,
    brand,
    last4,
    authorityReference: input.authorityReference,
  });
  return { ok: true, card };
}

/**
 * Saves a card the gateway has already tokenised (a held card, confirmed and paid: decision 071),
 * as `saveCard` would have: not the default unless it is the first, audited. "limit" when the
 * account is full; the caller still owns the token then.
 */
export async function saveTokenisedCard(
  actor: Actor,
  input: { expiryMonth: number; expiryYear: number; holderName: string; authorityReference: string },
  tokenised: TokenisedCard,
): Promise<CardWriteResult> {
  const card = await insertCard(actor, { ...input, makeDefault: false }, tokenised);
  if (!card) return { ok: false, refusal: "limit" };
  await auditChange(actor, "card.added", {
    cardId: card.cardId,
    brand: tokenised.brand,
    last4: tokenised.last4,
    authorityReference: input.authorityReference,
  });
  return { ok: true, card };
}

/** The card row, in one transaction with the default flag; null when the account is full. */
async function insertCard(
  actor: Actor,
  input: {
    expiryMonth: number;
    expiryYear: number;
    holderName: string;
    makeDefault: boolean;
    authorityReference: string;
  },
  { token, brand, firstDigit, last4 }: TokenisedCard,
): Promise<SavedCard | null> {
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    await lockAccount(tx, actor);
    if ((await countCards(tx, actor)) >= MAX_SAVED_PER_ACCOUNT) return null;
    const hasDefault = await tx
      .selectFrom("cards")
      .select("id")
      .where("business_id", "=", actor.businessId)
      .where("account_id", "=", actor.accountId)
      .where("is_default", "=", true)
      .where("removed_at", "is", null)
      .executeTakeFirst();
    const makeDefault = input.makeDefault || !hasDefault;
    if (makeDefault && hasDefault) {
      await tx
        .updateTable("cards")
        .set({ is_default: false, updated_at: now() })
        .where("id", "=", hasDefault.id)
        .execute();
    }
    return tx
      .insertInto("cards")
      .values({
        business_id: actor.businessId,
        account_id: actor.accountId,
        gateway: getCardGateway().name,
        gateway_token: token,
        brand,
        first_digit: firstDigit,
        last4,
        expiry_month: input.expiryMonth,
        expiry_year: input.expiryYear,
        holder_name: input.holderName,
        is_default: makeDefault,
        authority_reference: input.authorityReference,
        consented_at: now(),
        consented_by: actor.contactId,
      })
      .returning(cardColumns)
      .executeTakeFirstOrThrow();
  });
}

export async function updateCard(
  actor: Actor,
  cardId: string,
  input: { expiryMonth: number; expiryYear: number; holderName: string; cvn?: string },
  context: GatewayContext,
): Promise<CardWriteResult | null> {
  const db = await getDb();
  const existing = await findCard(actor, cardId);
  if (!existing) return null;
  const tokenRow = await db
    .selectFrom("cards")
    .select("gateway_token")
    .where("id", "=", existing.cardId)
    .executeTakeFirstOrThrow();
  const result = await askGateway(() =>
    getCardGateway().updateToken({
      ...context,
      token: tokenRow.gateway_token,
      expiryMonth: input.expiryMonth,
      expiryYear: input.expiryYear,
      holderName: input.holderName,
      cvn: input.cvn,
    }),
  );
  if (!result.ok) return result;
  const card = await db
    .updateTable("cards")
    .set({
      expiry_month: input.expiryMonth,
      expiry_year: input.expiryYear,
      holder_name: input.holderName,
      updated_at: now(),
    })
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .where("id", "=", existing.cardId)
    .where("removed_at", "is", null)
    .returning(cardColumns)
    .executeTakeFirst();
  if (!card) return null;
  await auditChange(actor, "card.updated", { cardId: card.cardId });
  return { ok: true, card };
}

/** Makes a card the account's default. False when the card is not the account's. */
export async function setDefaultCard(actor: Actor, cardId: unknown): Promise<boolean> {
  const card = await findCard(actor, cardId);
  if (!card) return false;
  const db = await getDb();
  const changed = await db.transaction().execute(async (tx) => {
    await lockAccount(tx, actor);
    await tx
      .updateTable("cards")
      .set({ is_default: false, updated_at: now() })
      .where("business_id", "=", actor.businessId)
      .where("account_id", "=", actor.accountId)
      .where("is_default", "=", true)
      .where("id", "!=", card.cardId)
      .execute();
    const row = await tx
      .updateTable("cards")
      .set({ is_default: true, updated_at: now() })
      .where("business_id", "=", actor.businessId)
      .where("account_id", "=", actor.accountId)
      .where("id", "=", card.cardId)
      .where("removed_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    return Boolean(row);
  });
  if (changed) {
    await auditChange(actor, "card.default", { cardId: card.cardId });
  }
  return changed;
}

/**
 * Removes a card (kept as a removed row for the payments that used it). When it was the
 * default, the newest remaining card becomes the default. False when it is not the account's.
 */
export async function removeCard(actor: Actor, cardId: unknown): Promise<boolean> {
  const card = await findCard(actor, cardId);
  if (!card) return false;
  const db = await getDb();
  const removed = await db.transaction().execute(async (tx) => {
    await lockAccount(tx, actor);
    const row = await tx
      .updateTable("cards")
      .set({ removed_at: now(), is_default: false, updated_at: now() })
      .where("business_id", "=", actor.businessId)
      .where("account_id", "=", actor.accountId)
      .where("id", "=", card.cardId)
      .where("removed_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!row) return false;
    if (card.isDefault) {
      await tx
        .updateTable("cards")
        .set({ is_default: true, updated_at: now() })
        .where(
          "id",
          "=",
          tx
            .selectFrom("cards")
            .select("id")
            .where("business_id", "=", actor.businessId)
            .where("account_id", "=", actor.accountId)
            .where("removed_at", "is", null)
            .orderBy("created_at", "desc")
            .orderBy("id", "desc")
            .limit(1),
        )
        .execute();
    }
    return true;
  });
  if (removed) {
    await auditChange(actor, "card.removed", { cardId: card.cardId });
  }
  return removed;
}

/** The consent reference recorded when the customer ticks the box on our own form. */
export function newAuthorityReference() {
  return `WEB-${randomBytes(6).toString("hex").toUpperCase()}`;
}

const bankColumns = [
  "id as bankAccountId",
  "country",
  "account_name as accountName",
  "routing",
  "account_number as accountNumber",
  "description",
  "created_at as createdAt",
] as const;

export async function listBankAccounts({ businessId, accountId }: Scope): Promise<SavedBankAccount[]> {
  const db = await getDb();
  return db
    .selectFrom("bank_accounts")
    .select(bankColumns)
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("removed_at", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .limit(MAX_SAVED_PER_ACCOUNT)
    .execute();
}

export async function findBankAccount(
  { businessId, accountId }: Scope,
  bankAccountId: unknown,
): Promise<SavedBankAccount | null> {
  if (typeof bankAccountId !== "string" || !UUID.test(bankAccountId)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("bank_accounts")
    .select(bankColumns)
    .where("business_id", "=", businessId)
    .where("account_id", "=", accountId)
    .where("id", "=", bankAccountId)
    .where("removed_at", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

export async function saveBankAccount(
  actor: Actor,
  input: {
    country: "AU" | "NZ";
    accountName: string;
    routing: string;
    accountNumber: string;
    description: string;
    authorityReference: string;
  },
): Promise<{ ok: true; bankAccount: SavedBankAccount } | { ok: false; refusal: "limit" }> {
  const db = await getDb();
  const saved = await db.transaction().execute(async (tx) => {
    await lockAccount(tx, actor);
    const count = await tx
      .selectFrom("bank_accounts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("business_id", "=", actor.businessId)
      .where("account_id", "=", actor.accountId)
      .where("removed_at", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_SAVED_PER_ACCOUNT) return null;
    return tx
      .insertInto("bank_accounts")
      .values({
        business_id: actor.businessId,
        account_id: actor.accountId,
        country: input.country,
        account_name: input.accountName,
        routing: input.routing,
        account_number: input.accountNumber,
        description: input.description,
        authority_reference: input.authorityReference,
        consented_at: now(),
        consented_by: actor.contactId,
      })
      .returning(bankColumns)
      .executeTakeFirstOrThrow();
  });
  if (!saved) return { ok: false, refusal: "limit" };
  await auditChange(actor, "bank-account.added", {
    bankAccountId: saved.bankAccountId,
    authorityReference: input.authorityReference,
  });
  return { ok: true, bankAccount: saved };
}

export async function removeBankAccount(actor: Actor, bankAccountId: unknown): Promise<boolean> {
  const found = await findBankAccount(actor, bankAccountId);
  if (!found) return false;
  const db = await getDb();
  const row = await db
    .updateTable("bank_accounts")
    .set({ removed_at: now() })
    .where("business_id", "=", actor.businessId)
    .where("account_id", "=", actor.accountId)
    .where("id", "=", found.bankAccountId)
    .where("removed_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  if (!row) return false;
  await auditChange(actor, "bank-account.removed", { bankAccountId: found.bankAccountId });
  return true;
}

/** What the gateway is told about where a card came from (spec §3 gatewayOrigin, gatewayExtraData). */
export function gatewayContextFrom(
  request: Request,
  clientIp: string,
  origin: string,
  extraData: Record<string, string> = {},
): GatewayContext {
  const userAgent = (request.headers.get("user-agent") ?? "").slice(0, 200);
  return { origin, clientIp, extraData: { userAgent, ...extraData } };
}
