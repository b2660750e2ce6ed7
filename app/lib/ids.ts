/**
 * Record ids: the portal's ids are UUIDs, checked at the edge before a lookup so that a malformed id is a
 * plain "not found" (or a 400 where the caller should know better) and never reaches the database as text
 * it cannot parse.
 */
const UUID_BODY = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** The pattern of a UUID's text, without anchors, for composing a larger pattern (`card:<uuid>`). */
export const UUID_SOURCE = UUID_BODY;

/** A UUID in either case, as people and other systems may write one. */
export const UUID = new RegExp(`^${UUID_BODY}$`, "i");

/** A UUID as PostgreSQL prints one (lower case): for URLs, where one record must have one address. */
export const CANONICAL_UUID = new RegExp(`^${UUID_BODY}$`);

export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
