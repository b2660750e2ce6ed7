import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { seedDemoData } from "../../db/seed/demo";
import { PGLITE_PARSERS, pgliteHandle } from "../../app/services/platform/db.server";
import { migrate } from "../../app/services/platform/migrate.server";
import { SNAPSHOT_FILE } from "./snapshot";

/**
 * Runs once per Vitest run: a fresh PGlite costs 3–4 s of initdb, so one migrated and
 * seeded database is dumped to a file and every test file starts from a copy (≈1 s).
 */
export default async function setup() {
  const pglite = await PGlite.create({ parsers: PGLITE_PARSERS });
  const handle = pgliteHandle(pglite);
  await migrate(handle);
  await seedDemoData(handle.db);
  const dump = await pglite.dumpDataDir("gzip");
  fs.mkdirSync(path.dirname(SNAPSHOT_FILE), { recursive: true });
  fs.writeFileSync(SNAPSHOT_FILE, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
}
