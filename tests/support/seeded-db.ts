import { afterAll, beforeAll } from "vitest";
import { createSession } from "../../app/services/auth/session.server";
import { setDatabaseForTesting } from "../../app/services/platform/database.server";
import type { DatabaseHandle } from "../../app/services/platform/db.server";
import { openSeededPglite } from "./test-db";

/**
 * For a Vitest file whose loaders and actions need the demo data: a private seeded database
 * for the file (opened before its tests, closed after), and sessions for demo contacts.
 */
export function withSeededDatabase() {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await openSeededPglite();
    setDatabaseForTesting(handle);
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await handle?.close();
  });
  const db = () => {
    if (!handle) throw new Error("withSeededDatabase: the database opens in beforeAll");
    return handle.db;
  };
  return {
    db,
    /** A new session for the contact with this email, on this host: its `name=value` cookie and business. */
    async signIn(email: string, host: string, authMethod: "credentials" | "auth0" = "credentials") {
      const contact = await db()
        .selectFrom("contacts")
        .select(["id", "business_id"])
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      const setCookie = await createSession(new Request(`http://${host}/`, { headers: { host } }), {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod,
      });
      return { cookie: setCookie.split(";")[0]!, businessId: contact.business_id };
    },
  };
}
