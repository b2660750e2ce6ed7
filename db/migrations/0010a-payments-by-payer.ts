/**
 * A customer-style contact's home (issue 14, decision 033) lists the receipts of the payments
 * they made themselves, newest first, a few at a time. Without this index that list would read
 * every payment of the business; with it, the page is an index range scan of one payer's rows.
 */
export const name = "0010a-payments-by-payer";

export const up = /* sql */ `
CREATE INDEX payments_payer_idx ON payments (business_id, created_by, created_at DESC, id DESC);
`;
