import { sql } from "kysely";
import {
  CHANNELS,
  DEFAULT_PREFERENCES,
  HISTORY_SHOWN,
  optInNeedsSignIn,
  PREFERENCE_KEYS,
  PREFERENCE_TOPICS,
  splitPreferenceKey,
  TOPIC_CHANNELS,
  type Channel,
  type ChangeVia,
  type PreferenceKey,
  type PreferenceTopic,
} from "~/lib/communication";
import { now } from "../platform/clock.server";
import { getDb } from "../platform/database.server";
import type { Db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { UUID } from "~/lib/ids";

/**
 * A contact's communication preferences (issue 17; decision 039): read them (with the defaults
 * where the contact has not chosen), change them (each change kept as history: what, on or off,
 * how, by whom, when), and the one question the mail asks before a message that is the contact's
 * choice leaves: `emailWanted`.
 *
 * Every query names the business: a contact id of another business finds nothing.
 */
export type PreferenceChoice = {
  topic: PreferenceTopic;
  channel: Channel;
  enabled: boolean;
  /** False while it is the default (the contact never chose). */
  chosen: boolean;
  updatedAt: string | null;
};

export type PreferenceChange = {
  topic: PreferenceTopic;
  channel: Channel;
  enabled: boolean;
  via: ChangeVia;
  /** The contact themselves, or the business through its back office. */
  by: "contact" | "business";
  note: string | null;
  changedAt: string;
};

export type ContactPreferences = {
  contact: { id: string; email: string; firstName: string; name: string };
  choices: PreferenceChoice[];
  history: PreferenceChange[];
};

/** Who made a change: the contact (signed in, by a link, one click) or the business (its API key). */
export type ChangeAuthor =
  { via: "portal" | "link" | "one-click" } | { via: "api"; apiKeyId: string; note?: string | null };

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The contact of this business, by id; null for anyone else (another business's, unknown, malformed). */
async function contactOf(db: Db, businessId: string, contactId: string) {
  if (!UUID.test(contactId)) return null;
  const row = await db
    .selectFrom("contacts")
    .select(["id", "email", "first_name as firstName", "last_name as lastName"])
    .where("business_id", "=", businessId)
    .where("id", "=", contactId.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

function choicesFrom(
  rows: { topic: PreferenceTopic; channel: Channel; enabled: boolean; updatedAt: Date | string }[],
): PreferenceChoice[] {
  return PREFERENCE_KEYS.map((key) => {
    const { topic, channel } = splitPreferenceKey(key);
    const row = rows.find((r) => r.topic === topic && r.channel === channel);
    return {
      topic,
      channel,
      enabled: row ? row.enabled : DEFAULT_PREFERENCES[topic][channel] === true,
      chosen: Boolean(row),
      updatedAt: row ? iso(row.updatedAt) : null,
    };
  });
}

/** The contact's choices (defaults filled in) and their latest changes, newest first; null if no such contact. */
export async function readPreferences(
  businessId: string,
  contactId: string,
  options: { historyLimit?: number } = {},
): Promise<ContactPreferences | null> {
  const db = await getDb();
  const contact = await contactOf(db, businessId, contactId);
  if (!contact) return null;
  const [rows, history] = await Promise.all([
    db
      .selectFrom("communication_preferences")
      .select(["topic", "channel", "enabled", "updated_at as updatedAt"])
      .where("business_id", "=", businessId)
      .where("contact_id", "=", contact.id)
      .execute(),
    db
      .selectFrom("communication_preference_changes")
      .select(["topic", "channel", "enabled", "via", "note", "changed_at as changedAt"])
      .where("business_id", "=", businessId)
      .where("contact_id", "=", contact.id)
      .orderBy("changed_at", "desc")
      .orderBy("id", "desc")
      .limit(options.historyLimit ?? HISTORY_SHOWN)
      .execute(),
  ]);
  return {
    contact: {
      id: contact.id,
      email: contact.email,
      firstName: contact.firstName,
      name: `${contact.firstName} ${contact.lastName}`.trim(),
    },
    choices: choicesFrom(rows),
    history: history.map((change) => ({
      topic: change.topic,
      channel: change.channel,
      enabled: change.enabled,
      via: change.via,
      by: change.via === "api" ? "business" : "contact",
      note: change.note,
      changedAt: iso(change.changedAt)!,
    })),
  };
}

/**
 * Does the contact want this topic by email? The one check before any message that is the
 * contact's choice (statements, invoices, reminders, marketing) is sent (contact-mail.server.ts).
 */
export async function emailWanted(
  db: Db,
  businessId: string,
  contactId: string,
  topic: PreferenceTopic,
): Promise<boolean> {
  const row = await db
    .selectFrom("communication_preferences")
    .select("enabled")
    .where("business_id", "=", businessId)
    .where("contact_id", "=", contactId)
    .where("topic", "=", topic)
    .where("channel", "=", "email")
    .executeTakeFirst();
  return row ? row.enabled : DEFAULT_PREFERENCES[topic].email === true;
}

/** `emailWanted` for several contacts at once (a reminder's recipients): the ids that want it. */
export async function contactsWantingEmail(
  db: Db,
  businessId: string,
  contactIds: string[],
  topic: PreferenceTopic,
): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("communication_preferences")
    .select(["contact_id as contactId", "enabled"])
    .where("business_id", "=", businessId)
    .where("contact_id", "in", contactIds)
    .where("topic", "=", topic)
    .where("channel", "=", "email")
    .execute();
  const byDefault = DEFAULT_PREFERENCES[topic].email === true;
  return new Set(
    contactIds.filter((id) => {
      const row = rows.find((r) => r.contactId === id);
      return row ? row.enabled : byDefault;
    }),
  );
}

/**
 * Sets some of the contact's choices. Only what differs from the current choice (or the default)
 * is written, each as a history row: repeating a change, or a second one-click unsubscribe, is no
 * change and no history. The contact's row is locked first, so two changes at once are one after
 * the other. Returns the keys that changed; null when the business has no such contact. A change
 * that would turn on, by a signed link, a choice only a signed-in contact may turn on (news and
 * offers: `optInNeedsSignIn`) is refused whole: nothing is written, and `refused` names it. It is
 * checked here, under the lock, against what is stored now: a page loaded before the choice was
 * turned off elsewhere cannot turn it back on.
 */
export async function changePreferences(
  businessId: string,
  contactId: string,
  wanted: Partial<Record<PreferenceKey, boolean>>,
  author: ChangeAuthor,
  options: { beforeCommit?: (tx: Db) => Promise<void> } = {},
): Promise<{ changed: PreferenceKey[]; refused?: PreferenceKey[] } | null> {
  const keys = (Object.keys(wanted) as PreferenceKey[]).filter((key) => PREFERENCE_KEYS.includes(key));
  const db = await getDb();
  const at = now();
  const result = await db.transaction().execute(async (tx) => {
    if (!UUID.test(contactId)) return null;
    const contact = await tx
      .selectFrom("contacts")
      .select("id")
      .where("business_id", "=", businessId)
      .where("id", "=", contactId.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!contact) return null;
    const rows = await tx
      .selectFrom("communication_preferences")
      .select(["topic", "channel", "enabled", "updated_at as updatedAt"])
      .where("business_id", "=", businessId)
      .where("contact_id", "=", contact.id)
      .execute();
    const current = choicesFrom(rows);
    const changed = keys.filter((key) => {
      const { topic, channel } = splitPreferenceKey(key);
      return current.find((c) => c.topic === topic && c.channel === channel)!.enabled !== wanted[key];
    });
    const refused = changed.filter((key) => wanted[key] === true && optInNeedsSignIn(key, author.via));
    if (refused.length) return { changed: [], refused };
    for (const key of changed) {
      const { topic, channel } = splitPreferenceKey(key);
      const enabled = wanted[key] === true;
      await tx
        .insertInto("communication_preferences")
        .values({ business_id: businessId, contact_id: contact.id, topic, channel, enabled, updated_at: at })
        .onConflict((oc) =>
          oc.columns(["business_id", "contact_id", "topic", "channel"]).doUpdateSet({ enabled, updated_at: at }),
        )
        .execute();
      await tx
        .insertInto("communication_preference_changes")
        .values({
          business_id: businessId,
          contact_id: contact.id,
          topic,
          channel,
          enabled,
          via: author.via,
          changed_by_contact_id: author.via === "api" ? null : contact.id,
          api_key_id: author.via === "api" ? author.apiKeyId : null,
          note: author.via === "api" ? (author.note ?? null) : null,
          changed_at: at,
        })
        .execute();
    }
    await options.beforeCommit?.(tx);
    return { changed };
  });
  if (result?.changed.length) {
    logger.info("communication preferences changed", {
      contactId,
      via: author.via,
      changes: result.changed.map((key) => `${key}=${wanted[key] ? "on" : "off"}`),
    });
  }
  return result;
}

/** Preferences as the API and the statement run read them: `{ statements: { email, post }, … }`. */
export function preferenceMap(choices: PreferenceChoice[]) {
  const map = {} as Record<PreferenceTopic, Partial<Record<Channel, boolean>>>;
  for (const topic of PREFERENCE_TOPICS) {
    map[topic] = {};
    for (const channel of CHANNELS) {
      if (!TOPIC_CHANNELS[topic].includes(channel)) continue;
      map[topic][channel] = choices.find((c) => c.topic === topic && c.channel === channel)!.enabled;
    }
  }
  return map;
}

/** How many changes a contact has on record (tests, and the API's `historyTotal`). */
export async function countPreferenceChanges(db: Db, businessId: string, contactId: string): Promise<number> {
  const row = await db
    .selectFrom("communication_preference_changes")
    .select(sql<string>`count(*)`.as("n"))
    .where("business_id", "=", businessId)
    .where("contact_id", "=", contactId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
