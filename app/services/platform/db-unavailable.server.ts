import type { DatabaseConnection, Dialect, Driver, Kysely, QueryResult, TransactionSettings } from "kysely";

/**
 * The database was lost (its connection terminated, refused or timed out, or a statement ran past
 * DATABASE_STATEMENT_TIMEOUT_MS): decision 046. It is an Error (jobs and scripts log it as one) that
 * Remix also reads as a thrown `data({ reason: "unavailable" }, 503)`, so a page or an action that
 * meets it anywhere answers the branded "Temporarily unavailable" page (GeneralErrorBoundary) with
 * a 503 and Retry-After, never a 500 with a stack. The JSON API answers 503 alike.
 */
export class DatabaseUnavailableError extends Error {
  // What Remix's router looks for in a thrown value (isDataWithResponseInit, isRouteErrorResponse).
  readonly type = "DataWithResponseInit";
  readonly data = { reason: "unavailable" };
  readonly init = { status: 503, headers: { "Retry-After": "5" } };
  readonly status = 503;
  readonly statusText = "Service Unavailable";
  readonly internal = false;

  constructor(cause: unknown) {
    super(`The database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "DatabaseUnavailableError";
  }
}

/**
 * SQLSTATE classes and codes that mean the connection, not the statement, failed: 08 connection
 * exception, 57P01–57P03 the server ended or refused it (pg_terminate_backend is 57P01), 53300
 * too many connections, 57014 a statement cancelled by statement_timeout.
 */
const LOST_CODES = new Set(["57P01", "57P02", "57P03", "53300", "57014"]);
const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"]);
// node-postgres says these in words only.
const LOST_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|connection error/i;

export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof DatabaseUnavailableError) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (code.startsWith("08") || LOST_CODES.has(code) || NODE_CODES.has(code))) return true;
  return LOST_MESSAGES.test(error.message);
}

function translate(error: unknown): never {
  if (error instanceof DatabaseUnavailableError || !isConnectionLost(error)) throw error;
  throw new DatabaseUnavailableError(error);
}

function guardConnection(connection: DatabaseConnection): DatabaseConnection {
  return {
    async executeQuery<R>(query: Parameters<DatabaseConnection["executeQuery"]>[0]): Promise<QueryResult<R>> {
      try {
        return await connection.executeQuery<R>(query);
      } catch (error) {
        translate(error);
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

/**
 * A Kysely dialect whose lost connections surface as DatabaseUnavailableError (every other error
 * passes untouched: a unique violation is still a unique violation).
 */
export function guardDialect(inner: Dialect): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => inner.createIntrospector(db),
    createDriver(): Driver {
      const driver = inner.createDriver();
      // The connection Kysely hands back is ours; the driver wants its own.
      const own = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const unwrap = (connection: DatabaseConnection) => own.get(connection) ?? connection;
      return {
        init: () => driver.init(),
        destroy: () => driver.destroy(),
        async acquireConnection() {
          try {
            const connection = await driver.acquireConnection();
            const guarded = guardConnection(connection);
            own.set(guarded, connection);
            return guarded;
          } catch (error) {
            translate(error);
          }
        },
        async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
          try {
            await driver.beginTransaction(unwrap(connection), settings);
          } catch (error) {
            translate(error);
          }
        },
        async commitTransaction(connection: DatabaseConnection) {
          try {
            await driver.commitTransaction(unwrap(connection));
          } catch (error) {
            translate(error);
          }
        },
        async rollbackTransaction(connection: DatabaseConnection) {
          try {
            await driver.rollbackTransaction(unwrap(connection));
          } catch (error) {
            translate(error);
          }
        },
        releaseConnection: (connection: DatabaseConnection) => driver.releaseConnection(unwrap(connection)),
        savepoint: driver.savepoint
          ? (connection, name, compile) => driver.savepoint!(unwrap(connection), name, compile).catch(translate)
          : undefined,
        rollbackToSavepoint: driver.rollbackToSavepoint
          ? (connection, name, compile) =>
              driver.rollbackToSavepoint!(unwrap(connection), name, compile).catch(translate)
          : undefined,
        releaseSavepoint: driver.releaseSavepoint
          ? (connection, name, compile) => driver.releaseSavepoint!(unwrap(connection), name, compile).catch(translate)
          : undefined,
      };
    },
  };
}
