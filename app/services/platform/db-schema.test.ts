import fs from "node:fs";
import { DatabaseMetadata, type ColumnMetadataOptions } from "kysely-codegen";
import { beforeAll, describe, expect, it } from "vitest";
import { DB_TYPES_FILE, diffDbTypes, introspectMigratedSchema, renderDbTypes } from "../../../scripts/db-types";

/**
 * The database's types are generated from the migrated schema (decision 063): every migration runs on a new
 * embedded database, the types are generated in-process as `npm run db:types` generates them, and any
 * difference from the checked-in file fails with the diff. A migration without its regenerated types fails here.
 */
describe("the database's types", () => {
  let metadata: DatabaseMetadata;
  let checkedIn: string;

  beforeAll(async () => {
    metadata = await introspectMigratedSchema();
    checkedIn = fs.readFileSync(DB_TYPES_FILE, "utf8");
  });

  /** A copy of the migrated schema with some tables' columns changed. */
  function changed(
    changes: Record<string, (columns: ColumnMetadataOptions[]) => ColumnMetadataOptions[]>,
  ): DatabaseMetadata {
    return new DatabaseMetadata({
      enums: metadata.enums,
      tables: metadata.tables.map((table) => {
        const columns = table.columns.map((column) => ({ ...column }));
        return { ...table, columns: changes[table.name]?.(columns) ?? columns };
      }),
    });
  }

  /** One column changed by `change`. */
  const column =
    (name: string, change: (column: ColumnMetadataOptions) => ColumnMetadataOptions) =>
    (columns: ColumnMetadataOptions[]) =>
      columns.map((candidate) => (candidate.name === name ? change(candidate) : candidate));

  it("are what the migrations generate (else: npm run db:types)", async () => {
    const difference = diffDbTypes(checkedIn, await renderDbTypes(metadata));
    if (difference) {
      expect.fail(
        `db-schema.generated.server.ts is not what the migrations generate: run npm run db:types\n${difference}`,
      );
    }
  });

  it("would fail on a column added, removed, renamed, made nullable or losing its default", async () => {
    const schema = changed({
      payments: (columns) => [...columns, { name: "tip_cents", dataType: "int8" }],
      invoices: (columns) =>
        column("due_date", (due) => ({ ...due, isNullable: true }))(columns).filter((c) => c.name !== "dispute_reason"),
      contacts: column("position", (position) => ({ ...position, name: "job_title" })),
      // A column with a narrower type (db-column-types.server.ts) still takes null and defaults from the schema.
      payment_requests: column("status", (status) => ({ ...status, hasDefaultValue: false })),
    });
    const difference = diffDbTypes(checkedIn, await renderDbTypes(schema))?.split("\n");
    expect(difference).toEqual(
      expect.arrayContaining([
        "+  tip_cents: number;",
        "-  dispute_reason: string | null;",
        "-  due_date: DateOnly;",
        "+  due_date: DateOnly | null;",
        "-  position: Generated<string>;",
        "+  job_title: Generated<string>;",
        "-  status: Generated<PaymentRequestStoredStatus>;",
        "+  status: PaymentRequestStoredStatus;",
      ]),
    );
  });

  it("refuse a column type for a column the schema does not have", async () => {
    await expect(renderDbTypes(metadata, { "payments.no_such_column": "PaymentStatus" })).rejects.toThrow(
      /names columns the migrated schema does not have: payments\.no_such_column/,
    );
  });
});
