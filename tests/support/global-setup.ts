import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { seedDemoData } from "../../db/seed/demo";
import { openPostgres, PGLITE_PARSERS, pgliteHandle, type DatabaseHandle } from "../../app/services/platform/db.server";
import { migrate } from "../../app/services/platform/migrate.server";
import {
  createDatabase,
  databaseUrl,
  dropDatabase,
  dropStaleTemplates,
  TEMPLATE_KEY,
  templateName,
} from "./pg-template";
import { SNAPSHOT_FILE } from "./snapshot";

async function migrateAndSeed(handle: DatabaseHandle): Promise<void> {
  try {
    await migrate(handle);
    await seedDemoData(handle.db);
  } finally {
    // Closed before any file clones it: PostgreSQL refuses a template anyone is connected to.
    await handle.close();
  }
}

/**
 * Runs once per Vitest run: a fresh PGlite costs 3–4 s of initdb, so one migrated and
 * seeded database is dumped to a file and every test file starts from a copy (≈1 s).
 * With TEST_DATABASE_URL, the same on PostgreSQL: one migrated and seeded template database,
 * which test files clone (createSeededPostgresDatabase), dropped when the run ends.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;
  const template = serverUrl ? templateName() : undefined;

  const pgliteSnapshot = (async () => {
    const pglite = await PGlite.create({ parsers: PGLITE_PARSERS });
    const handle = pgliteHandle(pglite);
    try {
      await migrate(handle);
      await seedDemoData(handle.db);
      const dump = await pglite.dumpDataDir("gzip");
      fs.mkdirSync(path.dirname(SNAPSHOT_FILE), { recursive: true });
      fs.writeFileSync(SNAPSHOT_FILE, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await handle.close();
    }
  })();

  const postgresTemplate = (async () => {
    if (!serverUrl || !template) return;
    await dropStaleTemplates(serverUrl);
    await createDatabase(serverUrl, template);
    try {
      await migrateAndSeed(openPostgres(databaseUrl(serverUrl, template), { max: 4 }));
    } catch (error) {
      await dropDatabase(serverUrl, template).catch(() => {});
      throw error;
    }
  })();

  const results = await Promise.allSettled([pgliteSnapshot, postgresTemplate]);
  const failed = results.find((result) => result.status === "rejected");
  if (failed) {
    if (serverUrl && template) await dropDatabase(serverUrl, template).catch(() => {});
    throw failed.reason;
  }

  project.provide(TEMPLATE_KEY, template);

  return async function teardown() {
    if (serverUrl && template) await dropDatabase(serverUrl, template);
  };
}
