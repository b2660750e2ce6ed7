import { z } from "zod";
import { PREFERENCE_TOPICS, TOPIC_CHANNELS, type PreferenceKey } from "~/lib/communication";
import type { CommitHook } from "../backoffice/api.server";
import { getDb } from "../platform/database.server";
import { findContact } from "../requests/lookups.server";
import { UUID } from "~/lib/ids";
import { invalid, RequestProblem } from "../platform/problems.server";
import {
  changePreferences,
  preferenceMap,
  readPreferences,
  type ContactPreferences,
  type PreferenceChoice,
} from "./preferences.server";

/**
 * A contact's communication preferences for the back office (issue 17; decision 039): read them
 * (`GET /api/back-office/contacts/<contact>/communication`, communication:read) so that a
 * business's own statement run sends by email, by post, both or neither as the contact chose; and
 * record a choice the contact made to the business directly, by phone or on paper (`POST`, the same
 * path, communication:write), with a note of how — kept in the history as made by the business.
 */
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const notFound = () => new RequestProblem("not-found", "No such contact.");

export type ContactCommunicationView = {
  contact: { id: string; email: string; name: string };
  /** `{ statements: { email, post }, invoices: { email, post }, reminders: { email }, marketing: { email } }`. */
  preferences: ReturnType<typeof preferenceMap>;
  /** Each choice, and whether the contact (or the business for them) made it or it is the default. */
  choices: PreferenceChoice[];
  /** Receipts and the other transactional messages: always sent by email, not a choice. */
  alwaysSent: string[];
  /** The latest changes, newest first. */
  history: ContactPreferences["history"];
};

export const ALWAYS_SENT = ["receipts", "payment-requests", "schedules", "agreements", "responses", "account"];

function viewOf(preferences: ContactPreferences): ContactCommunicationView {
  return {
    contact: { id: preferences.contact.id, email: preferences.contact.email, name: preferences.contact.name },
    preferences: preferenceMap(preferences.choices),
    choices: preferences.choices,
    alwaysSent: ALWAYS_SENT,
    history: preferences.history,
  };
}

async function contactIdOf(businessId: string, contact: unknown): Promise<string> {
  if (typeof contact !== "string" || (!UUID.test(contact) && !EMAIL.test(contact))) throw notFound();
  const row = await findContact(await getDb(), businessId, contact);
  if (!row) throw notFound();
  return row.id;
}

export async function getContactCommunication(businessId: string, contact: unknown): Promise<ContactCommunicationView> {
  const preferences = await readPreferences(businessId, await contactIdOf(businessId, contact));
  if (!preferences) throw notFound();
  return viewOf(preferences);
}

/** Per topic, only the channels it is offered by, each true or false. */
const TopicSchema = (topic: (typeof PREFERENCE_TOPICS)[number]) =>
  z
    .object(
      Object.fromEntries(
        TOPIC_CHANNELS[topic].map((channel) => [
          channel,
          z.boolean({ invalid_type_error: "Give true or false." }).optional(),
        ]),
      ),
      { invalid_type_error: `Give the ${topic} channels as an object, e.g. {"email": true}.` },
    )
    .strict();

const RecordSchema = z
  .object({
    preferences: z
      .object(Object.fromEntries(PREFERENCE_TOPICS.map((topic) => [topic, TopicSchema(topic).optional()])), {
        required_error: 'Give the choices, e.g. {"statements": {"post": true}}.',
        invalid_type_error: 'Give the choices as an object, e.g. {"statements": {"post": true}}.',
      })
      .strict(),
    note: z
      .string({
        required_error: 'Say how the contact told you, e.g. "asked by phone on 30 November".',
        invalid_type_error: "Give the note as text.",
      })
      .trim()
      .min(1, 'Say how the contact told you, e.g. "asked by phone on 30 November".')
      .max(500, "At most 500 characters."),
  })
  .strict();

/** A message per field, named by its whole path (`preferences.receipts`); "receipts" is not a choice. */
function fieldsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const name of issue.keys) {
        const path = [...issue.path, name].join(".").slice(0, 80);
        fields[path] ??=
          issue.path.length === 1 && issue.path[0] === "preferences"
            ? `"${name.slice(0, 40)}" is not a choice: use ${PREFERENCE_TOPICS.join(", ")} (receipts are always sent).`
            : issue.path.length === 2
              ? `Not a channel of ${String(issue.path[1])}: use ${TOPIC_CHANNELS[issue.path[1] as (typeof PREFERENCE_TOPICS)[number]]?.join(" or ") ?? "email"}.`
              : "This field is not part of the call.";
      }
      continue;
    }
    fields[issue.path.length ? issue.path.join(".") : "body"] ??= issue.message;
  }
  return fields;
}

/**
 * Records choices a contact made to the business. Receipts are not a choice (the schema has no
 * such topic); a choice already so is no change and no history (`changed` lists what changed).
 */
export async function recordContactCommunication(
  businessId: string,
  contact: unknown,
  body: unknown,
  options: { apiKeyId: string; beforeCommit?: CommitHook },
): Promise<ContactCommunicationView & { changed: PreferenceKey[] }> {
  const parsed = RecordSchema.safeParse(body);
  if (!parsed.success) throw invalid(fieldsOf(parsed.error));
  const wanted: Partial<Record<PreferenceKey, boolean>> = {};
  for (const [topic, channels] of Object.entries(parsed.data.preferences)) {
    for (const [channel, enabled] of Object.entries(channels ?? {})) {
      if (typeof enabled === "boolean") wanted[`${topic}.${channel}` as PreferenceKey] = enabled;
    }
  }
  if (Object.keys(wanted).length === 0) {
    throw invalid({ preferences: 'Give at least one choice, e.g. {"statements": {"post": true}}.' });
  }
  const contactId = await contactIdOf(businessId, contact);
  const result = await changePreferences(
    businessId,
    contactId,
    wanted,
    { via: "api", apiKeyId: options.apiKeyId, note: parsed.data.note },
    { beforeCommit: (tx) => options.beforeCommit?.(tx, contactId) ?? Promise.resolve() },
  );
  if (!result) throw notFound();
  const preferences = await readPreferences(businessId, contactId);
  if (!preferences) throw notFound();
  return { ...viewOf(preferences), changed: result.changed };
}
