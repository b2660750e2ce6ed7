import fs from "node:fs";
import path from "node:path";
import { openPglite } from "../app/services/platform/db.server";
import { migrate } from "../app/services/platform/migrate.server";
import { DEMO_PASSWORD, seedDemoData } from "../db/seed/demo";
import { BENCH_DATA_DIR, BENCH_HOST, benchEmail, QUERY_SIZES } from "./config";
import { createBenchAccount, createBenchBusiness, insertLedger } from "./lib/ledger";

/**
 * A fresh embedded database for the bench's portal: migrations, the demo hosts (for the
 * browser and load runs) and the bench's own brand with one account per size in
 * QUERY_SIZES (for "queries per page"). Runs before the portal starts: an embedded
 * database belongs to one process at a time.
 */
export async function prepareBenchDatabase() {
  const dataDir = path.resolve(BENCH_DATA_DIR);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const handle = await openPglite(path.join(dataDir, "pglite"));
  try {
    await migrate(handle);
    await seedDemoData(handle.db);
    const businessId = await createBenchBusiness(handle.db, BENCH_HOST);
    for (const rows of QUERY_SIZES) {
      const { accountId } = await createBenchAccount(handle.db, businessId, {
        number: `ROWS-${rows}`,
        email: benchEmail(rows),
        password: DEMO_PASSWORD,
      });
      await insertLedger(handle.db, { businessId, accountId, prefix: `R${rows}` }, { invoices: rows, lines: rows });
    }
  } finally {
    await handle.close();
  }
  return dataDir;
}
