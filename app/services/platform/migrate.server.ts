import { migrations as allMigrations, type Migration } from "../../../db/migrations/index";
import type { DatabaseHandle } from "./db.server";

// Any constant works; it only has to be the same in every portal process.
const MIGRATION_LOCK_KEY = 7_301_446_002;

/**
 * Applies pending migrations, each in its own transaction with its bookkeeping row.
 * A transaction-scoped advisory lock lets several portal processes start at once
 * against one PostgreSQL without applying a migration twice.
 * Returns the names applied by this call.
 */
export async function migrate(handle: DatabaseHandle, migrations: Migration[] = allMigrations) {
  await handle.scriptTransaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });

  const applied: string[] = [];
  for (const migration of migrations) {
    const didApply = await handle.scriptTransaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
      const existing = await tx.query<{ name: string }>("SELECT name FROM schema_migrations WHERE name = $1", [
        migration.name,
      ]);
      if (existing.length > 0) return false;
      await tx.exec(migration.up);
      await tx.query("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name]);
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  return applied;
}
