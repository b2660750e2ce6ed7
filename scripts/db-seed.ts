/**
 * `npm run db:seed`: migrates, then adds the demo hosts that are not there yet
 * (businesses, hosts, contacts, accounts). Existing hosts are left untouched, so it
 * can run any number of times. Stop the portal first when using the embedded database.
 */
import path from "node:path";
import { seedDemoData } from "../db/seed/demo";
import { openPglite, openPostgres } from "../app/services/platform/db.server";
import { getEnv } from "../app/services/platform/env.server";
import { migrate } from "../app/services/platform/migrate.server";

const env = getEnv();
const handle = env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : await openPglite(path.join(env.DATA_DIR, "pglite"));
try {
  await migrate(handle);
  const created = await seedDemoData(handle.db);
  process.stdout.write(
    created.length ? `Seeded demo hosts: ${created.join(", ")}\n` : "Demo hosts were already there; nothing changed.\n",
  );
} finally {
  await handle.close();
}
