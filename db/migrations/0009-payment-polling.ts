/**
 * The PayTo poller's turn (decision 029 "The reconciler and the PayTo poller"): when each
 * unsettled payment was last asked about, so every run takes those never or longest not asked
 * first. Oldest-first alone would ask about the same hundred long-lived submitted payments on
 * every run and never reach the rest.
 */
export const name = "0009-payment-polling";

export const up = /* sql */ `
ALTER TABLE payments ADD COLUMN last_checked_at timestamptz;
CREATE INDEX payments_poll_idx ON payments (method, last_checked_at NULLS FIRST, created_at)
  WHERE status IN ('pending', 'unknown', 'submitted');
`;
