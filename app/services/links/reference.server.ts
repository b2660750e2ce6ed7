import { randomBytes } from "node:crypto";
import type { Insertable } from "kysely";
import type { Db } from "../platform/db.server";
import type { DB } from "../platform/db-schema.server";

/**
 * The human reference of an emailed-link record (PR-…, PS-…, AG-…, RR-…): a prefix and eight
 * characters of 0-9 and A-Z, unique within the business. A reference another record of the business
 * already has is simply drawn again (36^8 ≈ 2.8 × 10^12 references: a clash is rare, a second one
 * rarer still), up to five times.
 */
const REFERENCE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const REFERENCE_LENGTH = 8;
const MAX_DRAWS = 5;

/** The tables whose rows carry a reference unique per business (`business_id`, `reference`). */
export type ReferencedTable = "payment_requests" | "payment_schedules" | "agreement_offers" | "response_requests";

/** A new reference, such as `PR-7K2M9QXA`. */
export function drawReference(prefix: string): string {
  const bytes = randomBytes(16);
  let out = "";
  for (const byte of bytes) {
    // 252 = 7 × 36: bytes above it would favour the first characters, so they are skipped.
    if (byte < 252) out += REFERENCE_ALPHABET[byte % 36];
    if (out.length === REFERENCE_LENGTH) return `${prefix}-${out}`;
  }
  return drawReference(prefix);
}

/**
 * Inserts one row with a newly drawn reference and returns its id; `what` names the caller in the
 * error thrown when every draw clashed.
 */
export async function insertWithReference<T extends ReferencedTable>(
  db: Db,
  table: T,
  prefix: string,
  values: Omit<Insertable<DB[T]>, "reference">,
  what: string,
): Promise<{ id: string }> {
  let inserted: { id: string } | undefined;
  for (let attempt = 0; attempt < MAX_DRAWS && !inserted; attempt++) {
    // Kysely cannot follow a table chosen by a type parameter; `values` is checked against it above.
    inserted = await db
      .insertInto(table)
      .values({ ...values, reference: drawReference(prefix) } as never)
      .onConflict((oc) => oc.columns(["business_id", "reference"]).doNothing())
      .returning("id")
      .executeTakeFirst();
  }
  if (!inserted) throw new Error(`${what}: could not draw an unused reference`);
  return inserted;
}
