/**
 * A UUID in 22 URL-safe characters and back, for the signed links that carry record ids
 * (the preference centre's, decision 039; the receipt's, decision 076).
 */
export const uuidToBase64url = (uuid: string) => Buffer.from(uuid.replace(/-/g, ""), "hex").toString("base64url");

/** The UUID of a 22-character base64url text, or null for anything but the canonical spelling of 16 bytes. */
export function base64urlToUuid(text: string): string | null {
  const bytes = Buffer.from(text, "base64url");
  // Only the canonical spelling of 16 bytes: another spelling of the same bytes is not this token.
  if (bytes.length !== 16 || bytes.toString("base64url") !== text) return null;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
