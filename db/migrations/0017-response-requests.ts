/**
 * Response requests (issue 17; decision 040): a business asks one contact of one of its accounts a
 * question by emailed link — confirm a delivery address, acknowledge a statement, respond to the
 * business's proposal on a disputed invoice — and the contact answers once at `/response/<token>`.
 *
 * - response_requests: the question as the business asked it (its kind, the kind's facts as
 *   validated, an optional message, the invoice of a dispute), who it is for, its expiry and its
 *   state. What was asked never changes once made (a trigger): the answer must stay an answer to
 *   exactly that question. Only the state moves — open → answered or withdrawn, once.
 * - response_answers: the contact's answer, one per request (a unique key: two submissions at
 *   once record one answer), with who, the link it came through, when, from which address and
 *   browser, the name typed where the kind asks for one. Never changed, never deleted (the
 *   trigger of agreement decisions).
 */
export const name = "0017-response-requests";

export const up = /* sql */ `
CREATE TABLE response_requests (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id         uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id          uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  contact_id          uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  reference           text NOT NULL CHECK (reference ~ '^RR-[0-9A-Z]{6,12}$'),
  kind                text NOT NULL CHECK (kind IN ('delivery-address', 'statement', 'dispute')),
  -- The kind's facts as the business stated them (validated by the service's schema per kind).
  details             jsonb NOT NULL CHECK (jsonb_typeof(details) = 'object'),
  -- A dispute's invoice (of the same account: checked when the request is made).
  invoice_id          uuid REFERENCES invoices (id) ON DELETE CASCADE,
  message             text NOT NULL DEFAULT '' CHECK (length(message) <= 1000),
  email               text NOT NULL CHECK (length(email) <= 254),
  status              text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'withdrawn')),
  expires_at          timestamptz NOT NULL,
  sent_at             timestamptz,
  send_count          integer NOT NULL DEFAULT 0,
  answered_at         timestamptz,
  withdrawn_at        timestamptz,
  created_by_api_key  uuid REFERENCES api_keys (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, reference),
  CHECK ((kind = 'dispute') = (invoice_id IS NOT NULL)),
  CHECK ((status = 'answered') = (answered_at IS NOT NULL)),
  CHECK ((status = 'withdrawn') = (withdrawn_at IS NOT NULL))
);
CREATE INDEX response_requests_business_idx ON response_requests (business_id, created_at DESC, id DESC);
CREATE INDEX response_requests_account_idx ON response_requests (business_id, account_id, created_at DESC, id DESC);
CREATE INDEX response_requests_contact_idx ON response_requests (business_id, contact_id, created_at DESC);
CREATE INDEX response_requests_invoice_idx ON response_requests (invoice_id) WHERE invoice_id IS NOT NULL;

-- What was asked never changes; an answered or withdrawn request stays so.
CREATE FUNCTION keep_response_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.business_id IS DISTINCT FROM OLD.business_id OR NEW.account_id IS DISTINCT FROM OLD.account_id
    OR NEW.contact_id IS DISTINCT FROM OLD.contact_id OR NEW.reference IS DISTINCT FROM OLD.reference
    OR NEW.kind IS DISTINCT FROM OLD.kind OR NEW.details IS DISTINCT FROM OLD.details
    OR NEW.invoice_id IS DISTINCT FROM OLD.invoice_id OR NEW.message IS DISTINCT FROM OLD.message
    OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
    RAISE EXCEPTION 'what a response request asks never changes' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status <> 'open' AND (NEW.status IS DISTINCT FROM OLD.status
    OR NEW.answered_at IS DISTINCT FROM OLD.answered_at OR NEW.withdrawn_at IS DISTINCT FROM OLD.withdrawn_at) THEN
    RAISE EXCEPTION 'a response request is answered or withdrawn once' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER response_requests_kept BEFORE UPDATE ON response_requests
  FOR EACH ROW EXECUTE FUNCTION keep_response_request();

CREATE TABLE response_answers (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id     uuid NOT NULL REFERENCES businesses (id),
  -- One answer per request: a second submission (or two at once) is refused by this key.
  request_id      uuid NOT NULL UNIQUE REFERENCES response_requests (id),
  account_id      uuid NOT NULL REFERENCES accounts (id),
  contact_id      uuid NOT NULL REFERENCES contacts (id),
  -- The emailed link the answer came through.
  link_token_id   uuid REFERENCES link_tokens (id),
  -- The choice, one of the kind's: confirmed / corrected, acknowledged / disputed, accepted / rejected.
  choice          text NOT NULL CHECK (choice IN ('confirmed', 'corrected', 'acknowledged', 'disputed', 'accepted', 'rejected')),
  -- What came with the choice: a corrected address, a note, a reason.
  details         jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(details) = 'object'),
  typed_name      text CHECK (length(typed_name) BETWEEN 1 AND 200),
  ip_address      text NOT NULL CHECK (length(ip_address) <= 64),
  user_agent      text NOT NULL DEFAULT '' CHECK (length(user_agent) <= 500),
  answered_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX response_answers_account_idx ON response_answers (business_id, account_id, answered_at DESC);

CREATE TRIGGER response_answers_never_change BEFORE UPDATE OR DELETE ON response_answers
  FOR EACH ROW EXECUTE FUNCTION refuse_change_of_record();
`;
