import { pingDatabase } from "./db.server";
import { getDb } from "./database.server";

export type Health = { ok: boolean; database: "up" | "down"; checkedAt: string };

/** Is the portal able to serve? Opens (or reuses) the database and makes one round trip. */
export async function checkHealth(): Promise<Health> {
  // eslint-disable-next-line no-restricted-syntax -- the health check reports the machine's time to monitors, like a log line's stamp
  const checkedAt = new Date().toISOString();
  try {
    const up = await pingDatabase(await getDb());
    return { ok: up, database: up ? "up" : "down", checkedAt };
  } catch {
    return { ok: false, database: "down", checkedAt };
  }
}
