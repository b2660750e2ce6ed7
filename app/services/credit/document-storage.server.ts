import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../platform/env.server";

/**
 * Where supporting documents' bytes are kept (issue 17; decision 038): a port with one job —
 * put, get and delete bytes by key — so the database holds only a document's facts and its key,
 * and a deployment can swap the filesystem for an object store without touching the forms.
 * Chosen by DOCUMENT_STORAGE (env.server.ts); `filesystem`, the default, is the only adapter in
 * this build.
 *
 * Keys are ours, random, and never derived from what the applicant called the file:
 * `credit/<business id>/<32 hex characters>` (migration 0015's check: lower-case letters, digits,
 * `/`, `_` and `-`). Nothing a user types reaches a path.
 */
export interface DocumentStorage {
  /** Stores the bytes under a new key (keys are random and used once). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the bytes; a key with nothing stored is not an error (deleting twice is fine). */
  delete(key: string): Promise<void>;
}

export const STORAGE_KEY_PATTERN = /^[0-9a-z/_-]{16,200}$/;

/** A new random key for a business's document. */
export function newDocumentKey(businessId: string): string {
  return `credit/${businessId.toLowerCase()}/${randomBytes(16).toString("hex")}`;
}

function assertKey(key: string) {
  // The pattern has no dot, so no segment can be "." or "..": a key never leaves the root.
  if (!STORAGE_KEY_PATTERN.test(key) || key.startsWith("/") || key.includes("//")) {
    throw new Error("document storage: malformed key");
  }
}

/**
 * The filesystem adapter: each document a file under `root` at its key's path, readable and
 * writable by the portal's own user only (files 0600, folders 0700). A file is written under a
 * temporary name and renamed into place, so a reader never sees half a document.
 */
export function filesystemDocumentStorage(root: string): DocumentStorage {
  const fileOf = (key: string) => {
    assertKey(key);
    return path.join(root, ...key.split("/"));
  };
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const temporary = `${file}.${randomBytes(6).toString("hex")}.part`;
      await fs.writeFile(temporary, bytes, { mode: 0o600, flag: "wx" });
      try {
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}

let cached: { root: string; storage: DocumentStorage } | undefined;

/** The configured storage (one per process; re-made if the configuration changes, as in tests). */
export function documentStorage(): DocumentStorage {
  const env = getEnv();
  const root = env.DOCUMENTS_DIR ? path.resolve(env.DOCUMENTS_DIR) : path.join(env.DATA_DIR, "documents");
  if (cached?.root !== root) cached = { root, storage: filesystemDocumentStorage(root) };
  return cached.storage;
}
