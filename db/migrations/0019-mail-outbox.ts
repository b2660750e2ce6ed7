/**
 * The mail outbox (issue 18; decision 044): every email the portal sends is first a row here,
 * written in the same transaction as the change that causes it, and delivered after commit —
 * at once by the process that made the change, else by the `mail` queue's job (written in the
 * same transaction, due a little later) — so a committed cause is never without its mail and a
 * rolled-back one never has any.
 *
 * - key: one per cause (`receipt:<paymentId>`, …): writing the same key twice makes one message.
 * - payload: the message sealed with AES-256-GCM (the key is derived from the app's secret, never
 *   stored), because emails carry link secrets the database otherwise keeps only hashed; or, for a
 *   receipt, what to render it from. Cleared once the message is sent.
 * - status: pending → sending (claimed, with a claim token and the time) → sent. A claim older than
 *   the send timeout belongs to a sender that died, and may be taken again.
 * - message_id: the RFC 5322 Message-ID, derived from the key, so a resend is recognisable.
 */
export const name = "0019-mail-outbox";

const queue = (queueName: string, options: Record<string, unknown>) =>
  `SELECT pgboss.create_queue('${queueName}', '${JSON.stringify(options)}'::json);`;

export const up = /* sql */ `
CREATE TABLE mail_outbox (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key           text NOT NULL UNIQUE CHECK (length(key) BETWEEN 1 AND 300),
  business_id   uuid REFERENCES businesses (id) ON DELETE CASCADE,
  category      text NOT NULL CHECK (length(category) <= 40),
  -- Null until a render-at-send message (a receipt) has been rendered.
  recipient     text CHECK (length(recipient) <= 254),
  message_id    text NOT NULL,
  payload       text,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'dropped')),
  attempts      integer NOT NULL DEFAULT 0,
  claim_token   uuid,
  claimed_at    timestamptz,
  last_error    text CHECK (length(last_error) <= 500),
  created_at    timestamptz NOT NULL DEFAULT now(),
  sent_at       timestamptz,
  CHECK ((status = 'sent' OR status = 'dropped') = (payload IS NULL)),
  CHECK ((status = 'sending') = (claim_token IS NOT NULL AND claimed_at IS NOT NULL))
);
CREATE INDEX mail_outbox_unsent ON mail_outbox (created_at) WHERE status IN ('pending', 'sending');
${queue("mail", { policy: "standard", retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 })}
`;
