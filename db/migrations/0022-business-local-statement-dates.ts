/**
 * Statement lines of payments carry the business's date (issue 32; decision 078). Until then a
 * settlement and an incoming PayID payment wrote the UTC date, which for ten or eleven hours of
 * every Australian and New Zealand day is the day before. Each line of a succeeded payment (same
 * business, account and reference) that carries the UTC date of the payment's completion, where
 * that differs from the business's own date of it, gets the business's date. A line whose date is
 * anything else was not written that way (the business's own books, a demo ledger) and is left
 * alone. Running it twice changes nothing; the daily totals follow by their update triggers.
 */
export const name = "0022-business-local-statement-dates";

export const up = /* sql */ `
UPDATE statement_lines AS sl
SET line_date = (p.completed_at AT TIME ZONE b.time_zone)::date
FROM payments AS p
JOIN businesses AS b ON b.id = p.business_id
WHERE sl.business_id = p.business_id
  AND sl.account_id = p.account_id
  AND sl.reference = p.reference
  AND p.status = 'succeeded'
  AND p.completed_at IS NOT NULL
  AND sl.line_date = (p.completed_at AT TIME ZONE 'UTC')::date
  AND sl.line_date <> (p.completed_at AT TIME ZONE b.time_zone)::date;
`;
