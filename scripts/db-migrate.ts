/**
 * `npm run db:migrate`: applies pending migrations to the configured database
 * (DATABASE_URL, or the embedded one in DATA_DIR). Safe to run while other portal
 * processes start against the same PostgreSQL: migrations take an advisory lock.
 * The embedded database belongs to one process at a time: stop the portal first.
 */
import path from "node:path";
import { openPglite, openPostgres } from "../app/services/platform/db.server";
import { getEnv } from "../app/services/platform/env.server";
import { migrate } from "../app/services/platform/migrate.server";

const env = getEnv();
const handle = env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : await openPglite(path.join(env.DATA_DIR, "pglite"));
try {
  const applied = await migrate(handle);
  process.stdout.write(
    applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}\n` : "Database is up to date.\n",
  );
} finally {
  await handle.close();
}
