import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * The PostgreSQL template database of a Vitest run (issue 29, "Fast set-up"): made once by the
 * global set-up, migrated and seeded, and cloned by every test file that wants the demo data
 * (`CREATE DATABASE … TEMPLATE`), instead of each file migrating and seeding its own.
 *
 * The name carries when it was made (`portal_template_<ms since epoch, base 36>_<random>`), so a
 * later run can drop the templates a crashed run left behind without touching a live run's.
 */
export const TEMPLATE_PREFIX = "portal_template_";

/** Templates older than this are a crashed run's: no run lasts a day. */
export const STALE_TEMPLATE_AGE_MS = 24 * 60 * 60 * 1000;

/** The key the global set-up provides the template's name under (`inject("pgTemplate")`). */
export const TEMPLATE_KEY = "pgTemplate";

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplate: string | undefined;
  }
}

export function templateName(now = Date.now()): string {
  return `${TEMPLATE_PREFIX}${now.toString(36)}_${randomBytes(4).toString("hex")}`;
}

/** When the template was made, read from its name; undefined for a name this code did not make. */
export function templateCreatedAt(name: string): number | undefined {
  const match = /^portal_template_([0-9a-z]+)_[0-9a-f]{8}$/.exec(name);
  if (!match) return undefined;
  const ms = parseInt(match[1]!, 36);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** A URL for the same server and credentials as `serverUrl`, on database `name`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` with a short-lived connection to the server's maintenance database. */
export async function withAdmin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Quotes an identifier this code made (letters, digits, underscores) for SQL. */
function ident(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/**
 * Drops the templates that crashed runs left behind: only names this code makes, and only those
 * made more than a day ago, so another run's live template is never touched.
 */
export async function dropStaleTemplates(serverUrl: string, now = Date.now()): Promise<string[]> {
  return withAdmin(serverUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'portal\\_template\\_%'",
    );
    const stale = rows
      .map((row) => row.datname)
      .filter((name) => {
        const made = templateCreatedAt(name);
        return made !== undefined && now - made > STALE_TEMPLATE_AGE_MS;
      });
    for (const name of stale) await admin.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
    return stale;
  });
}

export async function createDatabase(serverUrl: string, name: string, template?: string): Promise<void> {
  await withAdmin(serverUrl, async (admin) => {
    await admin.query(`CREATE DATABASE ${ident(name)}${template ? ` TEMPLATE ${ident(template)}` : ""}`);
  });
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withAdmin(serverUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
  });
}
