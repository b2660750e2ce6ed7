/**
 * The way to pay an instalment try was claimed with (issue 15 review; decision 035): a saved
 * card or a PayTo agreement, written with the attempt before any money moves. A try finished
 * after a crash is charged the way it was claimed, never the schedule's way to pay of the
 * moment (the contact may have changed it in between): the engine's request hash covers the
 * method, so charging another way under the same key would be a different payment.
 * `way` says which it was; a card or agreement removed since leaves its id null and the try
 * fails as "method" rather than charging anything else. A contact's new card is never resumed
 * (its number is long gone). Attempts written before this migration have no `way` and finish
 * the schedule's way, as before.
 */
export const name = "0013-attempt-way-to-pay";

export const up = /* sql */ `
ALTER TABLE instalment_attempts
  ADD COLUMN way text CHECK (way IN ('saved-card', 'payto', 'new-card')),
  ADD COLUMN card_id uuid REFERENCES cards (id) ON DELETE SET NULL,
  ADD COLUMN payto_agreement_id uuid REFERENCES payto_agreements (id) ON DELETE SET NULL,
  ADD CONSTRAINT instalment_attempts_one_way CHECK (card_id IS NULL OR payto_agreement_id IS NULL);
`;
