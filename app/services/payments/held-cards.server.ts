import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { isUuid } from "~/lib/ids";
import type { CardBrand } from "~/lib/payment-method-types";
import { now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { isSecureRequest } from "../platform/request-context.server";
import { getCardGateway } from "./gateway/index.server";
import { GatewayTimeoutError, type GatewayContext, type GatewayRefusal } from "./gateway/card-gateway.server";
import type { NewCard } from "./payment-records.server";

/**
 * Held cards (decision 071): the confirm step's card. When a pay form's first submit would charge
 * another total than the payer was shown — a new card's brand sets a surcharge that a page without
 * JavaScript could not show, an amount was changed — nothing is charged and nothing is refused:
 * the card goes to the gateway now (the number and CVN go nowhere else), its token is held here
 * against the form's requestGuid, and the next page shows the exact total with one "Confirm and
 * pay" button. The confirm pays with the held token under the same requestGuid, so it pays at most
 * once however often it is tapped.
 *
 * A held card is good for `HELD_CARD_MINUTES`, for the account and contact that held it, from the
 * browser that held it (an httpOnly cookie whose hash is stored), and for its requestGuid only.
 */
export const HELD_CARD_MINUTES = 15;

export type HeldCard = {
  id: string;
  requestGuid: string;
  brand: CardBrand;
  firstDigit: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
  holderName: string;
  save: boolean;
  token: string;
};

type Holder = { businessId: string; accountId: string; contactId: string | null };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function holdCookie(request: Request) {
  const secure = isSecureRequest(request);
  return createCookie(secure ? "__Host-portal_hold" : "portal_hold", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    maxAge: HELD_CARD_MINUTES * 60,
  });
}

async function readHolder(request: Request): Promise<string | null> {
  const value: unknown = await holdCookie(request)
    .parse(request.headers.get("cookie"))
    .catch(() => null);
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/**
 * Tokenises the new card at the gateway and holds the token for this form's requestGuid (a held
 * card already made for it is replaced, and its token removed). Returns the held card and the
 * Set-Cookie header that binds it to this browser, or the gateway's refusal (nothing held).
 */
export async function holdCard(
  request: Request,
  holder: Holder,
  requestGuid: string,
  card: NewCard,
  context: GatewayContext,
): Promise<{ ok: true; held: HeldCard; setCookie: string } | { ok: false; refusal: GatewayRefusal }> {
  if (!isUuid(requestGuid)) return { ok: false, refusal: "invalid_card" };
  let tokenised;
  try {
    tokenised = await getCardGateway().tokenise({
      ...context,
      cardNumber: card.cardNumber,
      cvn: card.cvn,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      holderName: card.holderName,
    });
  } catch (error) {
    if (!(error instanceof GatewayTimeoutError)) logger.error("card tokenise for a held card failed", { error });
    return { ok: false, refusal: "unavailable" };
  }
  if (!tokenised.ok) return { ok: false, refusal: tokenised.refusal };
  const value = (await readHolder(request)) ?? randomBytes(32).toString("base64url");
  const guid = requestGuid.toLowerCase();
  const db = await getDb();
  const id = randomUUID();
  const replaced = await db.transaction().execute(async (tx) => {
    const old = await tx
      .deleteFrom("held_cards")
      .where("business_id", "=", holder.businessId)
      .where("request_guid", "=", guid)
      .returning("gateway_token")
      .execute();
    await tx
      .insertInto("held_cards")
      .values({
        id,
        business_id: holder.businessId,
        account_id: holder.accountId,
        contact_id: holder.contactId,
        request_guid: guid,
        holder_hash: sha256(value),
        gateway_token: tokenised.value.token,
        brand: tokenised.value.brand,
        first_digit: tokenised.value.firstDigit,
        last4: tokenised.value.last4,
        expiry_month: card.expiryMonth,
        expiry_year: card.expiryYear,
        holder_name: card.holderName,
        save: card.save,
        expires_at: new Date(now().getTime() + HELD_CARD_MINUTES * 60_000),
      })
      .execute();
    return old.map((row) => row.gateway_token);
  });
  for (const token of replaced) await removeToken(token, "held card replaced");
  return {
    ok: true,
    setCookie: await holdCookie(request).serialize(value),
    held: {
      id,
      requestGuid: guid,
      brand: tokenised.value.brand,
      firstDigit: tokenised.value.firstDigit,
      last4: tokenised.value.last4,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      holderName: card.holderName,
      save: card.save,
      token: tokenised.value.token,
    },
  };
}

/**
 * The held card a confirm names, if it is still good: this id, this requestGuid, this account and
 * contact, unexpired, and held by this browser. Null otherwise (expired, another browser's, made
 * up): the page asks for the card again, and nothing is charged.
 */
export async function findHeldCard(
  request: Request,
  holder: Holder,
  heldCardId: string,
  requestGuid: string,
  db?: Db,
): Promise<HeldCard | null> {
  if (!isUuid(heldCardId) || !isUuid(requestGuid)) return null;
  const value = await readHolder(request);
  if (!value) return null;
  return heldCardByKey(holder, heldCardId, requestGuid, sha256(value), db);
}

/** The held card by its keys (the browser's cookie already hashed); see `findHeldCard`. */
export async function heldCardByKey(
  holder: Holder,
  heldCardId: string,
  requestGuid: string,
  holderHash: string,
  db?: Db,
): Promise<HeldCard | null> {
  if (!isUuid(heldCardId) || !isUuid(requestGuid)) return null;
  const conn = db ?? (await getDb());
  let query = conn
    .selectFrom("held_cards")
    .selectAll()
    .where("id", "=", heldCardId)
    .where("business_id", "=", holder.businessId)
    .where("account_id", "=", holder.accountId)
    .where("request_guid", "=", requestGuid.toLowerCase())
    .where("holder_hash", "=", holderHash)
    .where("expires_at", ">", now());
  query =
    holder.contactId === null
      ? query.where("contact_id", "is", null)
      : query.where("contact_id", "=", holder.contactId);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    requestGuid: row.request_guid,
    brand: row.brand as CardBrand,
    firstDigit: row.first_digit,
    last4: row.last4,
    expiryMonth: row.expiry_month,
    expiryYear: row.expiry_year,
    holderName: row.holder_name,
    save: row.save,
    token: row.gateway_token,
  };
}

/** The browser's hold binding, hashed (for a submission that checks the held card inside the payment). */
export async function holderHashOf(request: Request): Promise<string | null> {
  const value = await readHolder(request);
  return value ? sha256(value) : null;
}

/**
 * A held card is done with once its payment has an outcome: the row goes, and the token too unless
 * the card was saved with it (then the saved card owns the token).
 */
export async function releaseHeldCard(heldCardId: string, options: { keepToken: boolean }) {
  const db = await getDb();
  const rows = await db.deleteFrom("held_cards").where("id", "=", heldCardId).returning("gateway_token").execute();
  if (!options.keepToken) for (const row of rows) await removeToken(row.gateway_token, "held card used");
}

/** The expiry sweep's part: held cards past their time go, with their tokens. Returns how many. */
export async function sweepHeldCards(limit = 500, at: Date = now()): Promise<number> {
  const db = await getDb();
  const rows = await db
    .deleteFrom("held_cards")
    .where("id", "in", db.selectFrom("held_cards").select("id").where("expires_at", "<=", at).limit(limit))
    .returning("gateway_token")
    .execute();
  for (const row of rows) await removeToken(row.gateway_token, "held card expired");
  return rows.length;
}

async function removeToken(token: string, reason: string) {
  try {
    await getCardGateway().removeToken(token);
  } catch (error) {
    logger.error("could not remove a held card's token from the gateway", { reason, error });
  }
}
