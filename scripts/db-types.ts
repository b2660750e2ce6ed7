/**
 * `npm run db:types` (decision 063): the database's TypeScript types, generated from the schema the migrations
 * build. Every migration runs on a brand-new embedded database, kysely-codegen reads its `public` schema, and
 * app/services/platform/db-schema.generated.server.ts is written, with the column types the schema cannot say
 * (CHECKed values, JSON shapes) taken from db-column-types.server.ts.
 *
 *   npm run db:types               writes the file
 *   npm run db:types -- --check    writes nothing; exit code 1 and the difference when the file is out of date
 *
 * app/services/platform/db-schema.test.ts runs the same generator and fails on any difference, so a migration
 * without its regenerated types fails the tests.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { DiffChecker, PostgresDialect, serializeFromMetadata, type DatabaseMetadata } from "kysely-codegen";
import * as prettier from "prettier";
import { COLUMN_TYPES } from "../app/services/platform/db-column-types.server";
import { PGLITE_PARSERS, pgliteHandle } from "../app/services/platform/db.server";
import { migrate } from "../app/services/platform/migrate.server";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PLATFORM = path.join(ROOT, "app/services/platform");

/** The generated file, checked in. */
export const DB_TYPES_FILE = path.join(PLATFORM, "db-schema.generated.server.ts");
const COLUMN_TYPES_FILE = path.join(PLATFORM, "db-column-types.server.ts");
const COLUMN_TYPES_MODULE = "./db-column-types.server";

const HEADER = `/**
 * GENERATED from the migrated schema by \`npm run db:types\` (scripts/db-types.ts; decision 063). Do not edit:
 * change the schema with a migration, or a column's TypeScript type in db-column-types.server.ts, then run
 * \`npm run db:types\`. db-schema.test.ts fails while this file differs from what the migrations generate.
 * Code imports the database's types from db-schema.server.ts.
 */

`;

/**
 * How the portal reads PostgreSQL's types (db.server.ts's parsers): bigint as a number (integer cents), a date
 * as its "YYYY-MM-DD" text; a JSON column as text written and a value read (unless COLUMN_TYPES says which).
 */
const TYPE_MAPPING: Record<string, string> = {
  int8: "number",
  date: "DateOnly",
  json: "JsonText<unknown>",
  jsonb: "JsonText<unknown>",
};

/** Runs every migration on a new in-memory PGlite and reads its `public` schema, tables and columns by name. */
export async function introspectMigratedSchema(): Promise<DatabaseMetadata> {
  const handle = pgliteHandle(await PGlite.create({ parsers: PGLITE_PARSERS }));
  try {
    await migrate(handle);
    const dialect = new PostgresDialect();
    // The pgboss schema (the job queue's own tables, migration 0012) is pg-boss's business, not Kysely's.
    const metadata = await dialect.introspector.introspect({ db: handle.db as never, includePattern: "public.*" });
    metadata.tables.sort((a, b) => compare(a.name, b.name));
    for (const table of metadata.tables) table.columns.sort((a, b) => compare(a.name, b.name));
    return metadata;
  } finally {
    await handle.close();
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The type names db-column-types.server.ts exports (`export type Name` and `export type { A, B } from`). */
function columnTypeNames(): string[] {
  const source = fs.readFileSync(COLUMN_TYPES_FILE, "utf8");
  const names = [...source.matchAll(/^export type (\w+)/gm)].map((match) => match[1]!);
  for (const match of source.matchAll(/^export type \{([^}]*)\}/gm)) {
    names.push(...match[1]!.split(",").map((name) => name.trim()));
  }
  return names.filter(Boolean);
}

/**
 * COLUMN_TYPES as kysely-codegen overrides. kysely-codegen puts an override in place of the whole column
 * type, so nullability and `Generated<>` are added here from the schema, as it does for the others.
 */
function columnOverrides(metadata: DatabaseMetadata, columnTypes: Readonly<Record<string, string>>) {
  const overrides: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [key, baseType] of Object.entries(columnTypes)) {
    const [tableName, columnName] = key.split(".");
    const column = metadata.tables
      .find((table) => table.name === tableName)
      ?.columns.find((candidate) => candidate.name === columnName);
    if (!column) {
      unknown.push(key);
      continue;
    }
    const type = column.isNullable ? `${baseType} | null` : baseType;
    overrides[key] = column.hasDefaultValue || column.isAutoIncrementing ? `Generated<${type}>` : type;
  }
  if (unknown.length > 0) {
    throw new Error(`db-column-types.server.ts names columns the migrated schema does not have: ${unknown.join(", ")}`);
  }
  return overrides;
}

/** The generated file's text for `metadata`, formatted as Prettier formats the repository. */
export async function renderDbTypes(
  metadata: DatabaseMetadata,
  columnTypes: Readonly<Record<string, string>> = COLUMN_TYPES,
): Promise<string> {
  const body = serializeFromMetadata({
    metadata,
    dialect: new PostgresDialect(),
    overrides: { columns: columnOverrides(metadata, columnTypes) },
    typeMapping: TYPE_MAPPING,
    customImports: Object.fromEntries(columnTypeNames().map((name) => [name, COLUMN_TYPES_MODULE])),
    skipAutogeneratedFileComment: true,
    typeOnlyImports: true,
  });
  const options = (await prettier.resolveConfig(DB_TYPES_FILE)) ?? {};
  return prettier.format(HEADER + body, { ...options, filepath: DB_TYPES_FILE });
}

/** The generated file as the current migrations make it. */
export async function generateDbTypes(): Promise<string> {
  return renderDbTypes(await introspectMigratedSchema());
}

/** A unified diff from the checked-in file to `generated` (undefined when they are the same). */
export function diffDbTypes(checkedIn: string, generated: string): string | undefined {
  return new DiffChecker().diff(checkedIn, generated);
}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes("--check");
  const generated = await generateDbTypes();
  const checkedIn = fs.existsSync(DB_TYPES_FILE) ? fs.readFileSync(DB_TYPES_FILE, "utf8") : "";
  const relative = path.relative(ROOT, DB_TYPES_FILE);
  const difference = diffDbTypes(checkedIn, generated);
  if (!difference) {
    process.stdout.write(`${relative} is up to date.\n`);
    return 0;
  }
  if (check) {
    process.stderr.write(`${relative} is out of date (run npm run db:types):\n${difference}\n`);
    return 1;
  }
  fs.writeFileSync(DB_TYPES_FILE, generated);
  process.stdout.write(`Wrote ${relative}.\n`);
  return 0;
}

/** Run as `npm run db:types`, not when a test imports the generator. */
const started = process.argv[1];
if (started !== undefined && fs.realpathSync(started) === fs.realpathSync(fileURLToPath(import.meta.url))) {
  process.exitCode = await main(process.argv.slice(2));
}
