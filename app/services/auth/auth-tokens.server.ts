import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../platform/db-schema.server";
import { getDb } from "../platform/database.server";
import { hashId } from "./session.server";

/**
 * Single-use tokens for password reset and email verification: 32 random bytes in the
 * link, only their SHA-256 in the database, short-lived, and spent on first use
 * (ASVS 2.5, 2.7).
 */
export type TokenPurpose = "password-reset" | "email-verify";

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  "password-reset": 30 * 60_000,
  "email-verify": 24 * 3_600_000,
};

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function isWellFormedToken(token: unknown): token is string {
  return typeof token === "string" && TOKEN_SHAPE.test(token);
}

/** Issues a token; earlier unused tokens of the same purpose stop working. */
export async function issueToken(businessId: string, contactId: string, purpose: TokenPurpose): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const db = await getDb();
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable("auth_tokens")
      // eslint-disable-next-line no-restricted-syntax -- a one-time token's lifetime is real time: the test clock must not expire or revive a credential (test-clock.server.ts)
      .set({ used_at: new Date() })
      .where("business_id", "=", businessId)
      .where("contact_id", "=", contactId)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .execute();
    await tx
      .insertInto("auth_tokens")
      .values({
        token_hash: hashId(token),
        business_id: businessId,
        contact_id: contactId,
        purpose,
        // eslint-disable-next-line no-restricted-syntax -- a one-time token's lifetime is real time: the test clock must not expire or revive a credential (test-clock.server.ts)
        expires_at: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
      })
      .execute();
  });
  return token;
}

/** The contact a live token belongs to, without spending it (for showing the form). */
export async function peekToken(businessId: string, token: string, purpose: TokenPurpose) {
  if (!isWellFormedToken(token)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("auth_tokens")
    .innerJoin("contacts", "contacts.id", "auth_tokens.contact_id")
    .select(["auth_tokens.contact_id as contactId", "contacts.email"])
    .where("auth_tokens.token_hash", "=", hashId(token))
    .where("auth_tokens.business_id", "=", businessId)
    .where("auth_tokens.purpose", "=", purpose)
    .where("auth_tokens.used_at", "is", null)
    // eslint-disable-next-line no-restricted-syntax -- a one-time token's lifetime is real time: the test clock must not expire or revive a credential (test-clock.server.ts)
    .where("auth_tokens.expires_at", ">", new Date())
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Spends a token inside the caller's transaction: exactly one caller gets the contact id,
 * even when two requests race with the same link.
 */
export async function spendToken(
  tx: Kysely<DB>,
  businessId: string,
  token: string,
  purpose: TokenPurpose,
): Promise<string | null> {
  if (!isWellFormedToken(token)) return null;
  const row = await tx
    .updateTable("auth_tokens")
    // eslint-disable-next-line no-restricted-syntax -- a one-time token's lifetime is real time: the test clock must not expire or revive a credential (test-clock.server.ts)
    .set({ used_at: new Date() })
    .where("token_hash", "=", hashId(token))
    .where("business_id", "=", businessId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    // eslint-disable-next-line no-restricted-syntax -- a one-time token's lifetime is real time: the test clock must not expire or revive a credential (test-clock.server.ts)
    .where("expires_at", ">", new Date())
    .returning("contact_id")
    .executeTakeFirst();
  return row?.contact_id ?? null;
}
