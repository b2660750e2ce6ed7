/**
 * Communication preferences (issue 17; decision 039).
 *
 * - communication_preferences: a contact's choice for one topic by one channel, only once they
 *   have made one (no row: the default of app/lib/communication.ts). Receipts and the other
 *   transactional messages are not a choice and have no row.
 * - communication_preference_changes: every change as it was made — which choice, on or off, how
 *   (`portal` signed in, `link` from an email's preferences link, `one-click` RFC 8058
 *   unsubscribe, `api` the business's back office), by whom (the contact, or the API key) and
 *   when. A consent record (Spam Act 2003 s 16: the sender must be able to show consent), so it is
 *   never changed or deleted; a contact with history is disabled, never deleted, as with
 *   agreement decisions.
 * - payment_request_recipients gains how often and when each recipient was last reminded (the
 *   reminder email of `POST …/payment-requests/<id>/remind`).
 */
export const name = "0016-communication-preferences";

export const up = /* sql */ `
CREATE TABLE communication_preferences (
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  contact_id   uuid NOT NULL REFERENCES contacts (id),
  topic        text NOT NULL,
  channel      text NOT NULL,
  enabled      boolean NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, contact_id, topic, channel),
  -- The topics and the channels each is offered by (TOPIC_CHANNELS).
  CHECK ((topic, channel) IN (('statements', 'email'), ('statements', 'post'), ('invoices', 'email'),
                              ('invoices', 'post'), ('reminders', 'email'), ('marketing', 'email')))
);

CREATE TABLE communication_preference_changes (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id            uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  contact_id             uuid NOT NULL REFERENCES contacts (id),
  topic                  text NOT NULL,
  channel                text NOT NULL,
  -- The choice after the change (the one before is the previous row, or the default).
  enabled                boolean NOT NULL,
  via                    text NOT NULL CHECK (via IN ('portal', 'link', 'one-click', 'api')),
  -- Who: the contact themselves (portal, link, one-click), or the business's API key (api).
  changed_by_contact_id  uuid REFERENCES contacts (id),
  api_key_id             uuid REFERENCES api_keys (id),
  -- Why, in the business's words (api only: "asked by phone", "signed form 2026-11-30").
  note                   text CHECK (length(note) BETWEEN 1 AND 500),
  changed_at             timestamptz NOT NULL DEFAULT now(),
  CHECK ((topic, channel) IN (('statements', 'email'), ('statements', 'post'), ('invoices', 'email'),
                              ('invoices', 'post'), ('reminders', 'email'), ('marketing', 'email'))),
  CHECK ((via = 'api') = (api_key_id IS NOT NULL)),
  CHECK ((via = 'api') = (changed_by_contact_id IS NULL)),
  CHECK (via = 'api' OR note IS NULL)
);
CREATE INDEX communication_preference_changes_contact_idx
  ON communication_preference_changes (business_id, contact_id, changed_at DESC, id DESC);
CREATE TRIGGER communication_preference_changes_never_change BEFORE UPDATE OR DELETE ON communication_preference_changes
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_record();

ALTER TABLE payment_request_recipients
  ADD COLUMN remind_count integer NOT NULL DEFAULT 0 CHECK (remind_count >= 0),
  ADD COLUMN last_reminded_at timestamptz;
`;
