/**
 * The statement page's totals (line count, debits, credits for the chosen dates and type)
 * without reading every line: one row per account, day and line type, kept up to date by
 * statement-level triggers in the same transaction as the lines themselves. The page's
 * filters are whole days and one type, so any total is a sum over at most
 * (days in range × types) small rows, however many lines the account has. Measured by the
 * benchmark's growth run (docs/performance.md): with a million lines, summing the lines
 * took ≈150–200 ms per page; summing these rows takes a few.
 *
 * Transition tables keep bulk inserts cheap (one grouped upsert per statement, not one per
 * row). Deletes only subtract from rows that still exist: when an account or business is
 * deleted, its lines and these rows go in the same cascade, and re-creating a row for a
 * vanishing account would break the foreign key.
 */
export const name = "0005-statement-daily-totals";

export const up = /* sql */ `
CREATE TABLE statement_daily_totals (
  business_id   uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  account_id    uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  line_date     date NOT NULL,
  type          text NOT NULL,
  line_count    bigint NOT NULL DEFAULT 0,
  debit_cents   bigint NOT NULL DEFAULT 0,
  credit_cents  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (business_id, account_id, line_date, type)
);

CREATE FUNCTION statement_daily_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Sorted, so concurrent writers lock the rows in the same order.
  INSERT INTO statement_daily_totals AS t (business_id, account_id, line_date, type, line_count, debit_cents, credit_cents)
  SELECT business_id, account_id, line_date, type, count(*), sum(debit_cents), sum(credit_cents)
  FROM new_lines
  GROUP BY business_id, account_id, line_date, type
  ORDER BY business_id, account_id, line_date, type
  ON CONFLICT (business_id, account_id, line_date, type) DO UPDATE
    SET line_count = t.line_count + excluded.line_count,
        debit_cents = t.debit_cents + excluded.debit_cents,
        credit_cents = t.credit_cents + excluded.credit_cents;
  RETURN NULL;
END $$;

CREATE FUNCTION statement_daily_totals_subtract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE statement_daily_totals AS t
  SET line_count = t.line_count - gone.line_count,
      debit_cents = t.debit_cents - gone.debit_cents,
      credit_cents = t.credit_cents - gone.credit_cents
  FROM (
    SELECT business_id, account_id, line_date, type, count(*) AS line_count,
           sum(debit_cents) AS debit_cents, sum(credit_cents) AS credit_cents
    FROM old_lines
    GROUP BY business_id, account_id, line_date, type
  ) AS gone
  WHERE t.business_id = gone.business_id AND t.account_id = gone.account_id
    AND t.line_date = gone.line_date AND t.type = gone.type;
  RETURN NULL;
END $$;

CREATE TRIGGER statement_lines_totals_insert AFTER INSERT ON statement_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION statement_daily_totals_add();
CREATE TRIGGER statement_lines_totals_delete AFTER DELETE ON statement_lines
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION statement_daily_totals_subtract();
-- An update is a subtraction of the old lines and an addition of the new ones.
CREATE TRIGGER statement_lines_totals_update_old AFTER UPDATE ON statement_lines
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION statement_daily_totals_subtract();
CREATE TRIGGER statement_lines_totals_update_new AFTER UPDATE ON statement_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION statement_daily_totals_add();

INSERT INTO statement_daily_totals (business_id, account_id, line_date, type, line_count, debit_cents, credit_cents)
SELECT business_id, account_id, line_date, type, count(*), sum(debit_cents), sum(credit_cents)
FROM statement_lines
GROUP BY business_id, account_id, line_date, type;
`;
