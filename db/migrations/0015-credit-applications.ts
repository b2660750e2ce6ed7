/**
 * Trade-credit applications from the public `/credit` form (issue 17; decision 038).
 *
 * - credit_applications: one application to one business. While the applicant is still typing it
 *   is a draft, found by the hash of a random key in the applicant's cookie (no account, no
 *   session); each step's validated answers are kept in `answers`. Submitting gives it a reference,
 *   records the terms accepted (version, hash of the text, the name typed, when, from where) and
 *   freezes it: a trigger refuses any later change of the answers, the terms or the reference; only
 *   the business's decision (accepted or declined) may follow.
 * - credit_application_documents: supporting documents, checked by content and kept behind the
 *   document storage port (the filesystem by default): here only their facts and storage key.
 * - credit_trade_references: each referee named by the applicant, written at submission with the
 *   link emailed to them (a selector and the SHA-256 of a verifier, as link_tokens keeps them; a
 *   referee is not a contact, so the link lives here). They answer once; the answer never changes.
 */
export const name = "0015-credit-applications";

export const up = /* sql */ `
CREATE TABLE credit_applications (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id             uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  status                  text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'submitted', 'accepted', 'declined')),
  -- The applicant's browser: SHA-256 (hex) of the random key in its cookie. Null once submitted.
  draft_key_hash          text UNIQUE CHECK (draft_key_hash ~ '^[0-9a-f]{64}$'),
  country                 text NOT NULL CHECK (country IN ('AU', 'NZ')),
  -- Each step's answers as validated (app/lib schemas), keyed by step.
  answers                 jsonb NOT NULL DEFAULT '{}'::jsonb,
  reference               text CHECK (reference ~ '^CA-[0-9A-Z]{6,10}$'),
  -- Copied from the answers at submission, for the back office's lists.
  legal_name              text CHECK (length(legal_name) BETWEEN 1 AND 200),
  applicant_email         text CHECK (length(applicant_email) BETWEEN 3 AND 254),
  requested_limit_cents   bigint CHECK (requested_limit_cents > 0),
  -- The terms as accepted (agreements rules, decision 036): which version, its text's hash, the
  -- name typed, when and from where.
  terms_version_id        uuid REFERENCES agreement_versions (id),
  terms_sha256            text CHECK (terms_sha256 ~ '^[0-9a-f]{64}$'),
  terms_name_typed        text CHECK (length(terms_name_typed) BETWEEN 1 AND 200),
  terms_accepted_at       timestamptz,
  client_ip               text,
  user_agent              text CHECK (length(user_agent) <= 512),
  submitted_at            timestamptz,
  -- The business's decision.
  decided_at              timestamptz,
  decision_reason         text CHECK (length(decision_reason) <= 2000),
  approved_limit_cents    bigint CHECK (approved_limit_cents > 0),
  decided_by              text CHECK (length(decided_by) <= 200),
  -- A draft is forgotten after this (a submitted application keeps it as history).
  expires_at              timestamptz NOT NULL,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, id),
  UNIQUE (business_id, reference),
  CHECK ((status = 'draft') = (submitted_at IS NULL)),
  CHECK (status = 'draft' OR (reference IS NOT NULL AND terms_sha256 IS NOT NULL AND draft_key_hash IS NULL)),
  CHECK ((status IN ('accepted', 'declined')) = (decided_at IS NOT NULL))
);
CREATE INDEX credit_applications_business_idx ON credit_applications (business_id, status, submitted_at DESC, id);
CREATE INDEX credit_applications_drafts_idx ON credit_applications (expires_at) WHERE status = 'draft';

-- Submitted answers, terms and reference never change; a decision is made once.
CREATE FUNCTION keep_credit_application() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'draft' THEN
      RAISE EXCEPTION 'a submitted credit application is never deleted' USING ERRCODE = 'check_violation';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status <> 'draft' AND (
       NEW.answers IS DISTINCT FROM OLD.answers OR NEW.reference IS DISTINCT FROM OLD.reference
    OR NEW.terms_version_id IS DISTINCT FROM OLD.terms_version_id OR NEW.terms_sha256 IS DISTINCT FROM OLD.terms_sha256
    OR NEW.terms_name_typed IS DISTINCT FROM OLD.terms_name_typed OR NEW.submitted_at IS DISTINCT FROM OLD.submitted_at
    OR NEW.business_id IS DISTINCT FROM OLD.business_id OR NEW.country IS DISTINCT FROM OLD.country) THEN
    RAISE EXCEPTION 'a submitted credit application never changes' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status IN ('accepted', 'declined') AND (NEW.status IS DISTINCT FROM OLD.status
    OR NEW.decided_at IS DISTINCT FROM OLD.decided_at OR NEW.approved_limit_cents IS DISTINCT FROM OLD.approved_limit_cents
    OR NEW.decision_reason IS DISTINCT FROM OLD.decision_reason) THEN
    RAISE EXCEPTION 'a credit decision is made once' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status = 'submitted' AND NEW.status = 'draft' THEN
    RAISE EXCEPTION 'a submitted credit application does not go back to draft' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER credit_applications_kept BEFORE UPDATE OR DELETE ON credit_applications
  FOR EACH ROW EXECUTE FUNCTION keep_credit_application();

CREATE TABLE credit_application_documents (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id     uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  application_id  uuid NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('financial-statements', 'identification', 'trust-deed', 'other')),
  -- The name the applicant's file had, for display only (never a path).
  file_name       text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 200),
  content_type    text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
  byte_size       integer NOT NULL CHECK (byte_size BETWEEN 1 AND 10485760),
  sha256          text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  -- Where the storage port keeps the bytes: random, never derived from the file name.
  storage_key     text NOT NULL UNIQUE CHECK (storage_key ~ '^[0-9a-z/_-]{16,200}$'),
  created_at      timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (business_id, application_id) REFERENCES credit_applications (business_id, id) ON DELETE CASCADE
);
CREATE INDEX credit_application_documents_idx ON credit_application_documents (business_id, application_id, created_at);

CREATE TABLE credit_trade_references (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  business_id         uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  application_id      uuid NOT NULL,
  position            smallint NOT NULL CHECK (position BETWEEN 1 AND 5),
  referee_business    text NOT NULL CHECK (length(referee_business) BETWEEN 1 AND 200),
  contact_name        text NOT NULL CHECK (length(contact_name) BETWEEN 1 AND 200),
  email               text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  phone               text CHECK (length(phone) <= 40),
  -- The referee's link (the link_tokens scheme, decision 031): selector + SHA-256 of the verifier.
  selector            text NOT NULL UNIQUE CHECK (selector ~ '^[0-9A-Za-z_-]{16}$'),
  verifier_hash       text NOT NULL CHECK (verifier_hash ~ '^[0-9a-f]{64}$'),
  link_expires_at     timestamptz NOT NULL,
  first_opened_at     timestamptz,
  open_count          integer NOT NULL DEFAULT 0,
  -- The answer, once.
  answered_at         timestamptz,
  answer              jsonb,
  answered_by_name    text CHECK (length(answered_by_name) BETWEEN 1 AND 200),
  answer_ip           text,
  answer_user_agent   text CHECK (length(answer_user_agent) <= 512),
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (application_id, position),
  FOREIGN KEY (business_id, application_id) REFERENCES credit_applications (business_id, id) ON DELETE CASCADE,
  CHECK ((answered_at IS NULL) = (answer IS NULL))
);
CREATE INDEX credit_trade_references_idx ON credit_trade_references (business_id, application_id, position);

CREATE FUNCTION keep_trade_reference_answer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.answered_at IS NOT NULL AND (NEW.answer IS DISTINCT FROM OLD.answer OR NEW.answered_at IS DISTINCT FROM OLD.answered_at
    OR NEW.answered_by_name IS DISTINCT FROM OLD.answered_by_name) THEN
    RAISE EXCEPTION 'a trade reference is answered once' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER credit_trade_references_answered_once BEFORE UPDATE ON credit_trade_references
  FOR EACH ROW EXECUTE FUNCTION keep_trade_reference_answer();
`;
