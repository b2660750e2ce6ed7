/**
 * The sandboxes' fault switch (issue 18; decision 046): one row per sandboxed port — the card
 * gateway and the PayTo provider — saying whether it answers normally, slowly (after `delay_ms`)
 * or not at all. It lives in the database so that every portal process on one PostgreSQL sees the
 * same switch within a second (each reads it with a short cache), and nothing reachable over
 * HTTP can change it: only `npm run portal -- sandbox faults`, with the database's credentials. A real
 * adapter never reads it.
 */
export const name = "0020-sandbox-faults";

export const up = /* sql */ `
CREATE TABLE sandbox_faults (
  port        text PRIMARY KEY CHECK (port IN ('gateway', 'payto')),
  mode        text NOT NULL CHECK (mode IN ('normal', 'slow', 'down')),
  delay_ms    integer NOT NULL DEFAULT 0 CHECK (delay_ms BETWEEN 0 AND 120000),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((mode = 'slow') = (delay_ms > 0))
);
`;
