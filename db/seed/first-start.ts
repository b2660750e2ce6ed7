import type { DatabaseHandle } from "../../app/services/platform/db.server";
import { getEnv } from "../../app/services/platform/env.server";
import { logger } from "../../app/services/platform/logger.server";
import { seedDemoData } from "./demo";

/**
 * A brand-new embedded database gets the demo hosts on first start (SEED_DEMO_DATA, decision 002),
 * so that `npm start` shows a working portal with no set-up. PostgreSQL is never seeded by itself.
 * Passed to the platform's `onDatabaseReady` by the app's start-up and the CLIs'.
 */
export async function seedNewEmbeddedDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind !== "pglite" || !getEnv().SEED_DEMO_DATA) return;
  const seeded = await seedDemoData(handle.db, { onlyIfEmpty: true });
  if (seeded.length > 0) logger.info("demo data seeded", { hosts: seeded });
}
