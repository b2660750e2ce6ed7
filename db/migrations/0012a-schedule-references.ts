/**
 * Payment schedules' references to payments, cards and PayTo agreements (migration 0011) were
 * plain foreign keys (NO ACTION): deleting an account — which cascades to its payments, cards,
 * agreements and schedules alike — was refused as soon as one of its instalments had been paid
 * ("schedule_instalments_payment_id_fkey"), depending on the order the cascades ran in. These
 * columns only point at what a schedule or a try used; when that row goes with its account, the
 * pointer goes with it (SET NULL). Found by the demo seed's paid instalments (issue 15).
 */
export const name = "0012a-schedule-references";

export const up = /* sql */ `
ALTER TABLE schedule_instalments DROP CONSTRAINT schedule_instalments_payment_id_fkey;
ALTER TABLE schedule_instalments ADD CONSTRAINT schedule_instalments_payment_id_fkey
  FOREIGN KEY (payment_id) REFERENCES payments (id) ON DELETE SET NULL;
ALTER TABLE instalment_attempts DROP CONSTRAINT instalment_attempts_payment_id_fkey;
ALTER TABLE instalment_attempts ADD CONSTRAINT instalment_attempts_payment_id_fkey
  FOREIGN KEY (payment_id) REFERENCES payments (id) ON DELETE SET NULL;
ALTER TABLE payment_schedules DROP CONSTRAINT payment_schedules_card_id_fkey;
ALTER TABLE payment_schedules ADD CONSTRAINT payment_schedules_card_id_fkey
  FOREIGN KEY (card_id) REFERENCES cards (id) ON DELETE SET NULL;
ALTER TABLE payment_schedules DROP CONSTRAINT payment_schedules_payto_agreement_id_fkey;
ALTER TABLE payment_schedules ADD CONSTRAINT payment_schedules_payto_agreement_id_fkey
  FOREIGN KEY (payto_agreement_id) REFERENCES payto_agreements (id) ON DELETE SET NULL;
`;
