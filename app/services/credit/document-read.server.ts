import { documentStorage } from "./document-storage.server";

/**
 * Reading a credit application's document for the back office (issue 17; decision 041): what the
 * API's download needs of the document storage port (decision 038) — the bytes kept under a
 * storage key, or null when there are none. A seam of its own so a test can hand the download a
 * reader that fails or returns other bytes.
 */
export type CreditDocumentReader = { read(storageKey: string): Promise<Uint8Array | null> };

export function creditDocumentReader(): CreditDocumentReader {
  return { read: (storageKey) => documentStorage().get(storageKey) };
}
