import path from "node:path";

/** Where the migrated and seeded PGlite snapshot for this test run is kept. */
export const SNAPSHOT_FILE = path.resolve(".tmp/vitest/pglite-seeded.tar.gz");
