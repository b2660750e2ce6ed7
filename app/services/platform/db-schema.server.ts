/**
 * Kysely's view of the schema in db/migrations: the one module code imports the database's types from.
 *
 * The table types are generated from the migrated schema (db-schema.generated.server.ts, `npm run db:types`;
 * decision 063), never written by hand; a column's narrower type (a CHECKed set of values, a JSON shape) is
 * named in db-column-types.server.ts. db-schema.test.ts fails while the generated file is out of date.
 */
import type { SandboxPaytoAgreements, SandboxPaytoPayments, StatementLines } from "./db-schema.generated.server";

export type * from "./db-column-types.server";
export type * from "./db-schema.generated.server";

// The names the code knew the hand-kept tables by.
export type StatementLinesTable = StatementLines;
export type SandboxPayToAgreementsTable = SandboxPaytoAgreements;
export type SandboxPayToPaymentsTable = SandboxPaytoPayments;
