import type { PayToDebtor } from "../payto-provider.server";

/** The payer's key for a debtor: `BBAN:<bsb><account>` or `<aliasType>:<value>`. */
export function payerKeyFor(debtor: PayToDebtor): string {
  return debtor.kind === "bban"
    ? `BBAN:${debtor.bsb}${debtor.accountNumber}`
    : `${debtor.aliasType}:${debtor.aliasValue.trim().toLowerCase()}`;
}

/**
 * What a person typed into the bank's "whose bank is this" field, as candidate payer keys:
 * a BSB and account number ("062-000 12345678"), an email PayID, or a phone number / ABN
 * PayID (as typed and without spaces). Null: none of these.
 */
export function payerKeysFromInput(input: string): string[] | null {
  const text = input.trim();
  if (text === "" || text.length > 256) return null;
  const bban = /^(\d{3})[\s-]?(\d{3})[\s-]*(\d{4,9})$/.exec(text);
  if (bban) return [`BBAN:${bban[1]}${bban[2]}${bban[3]}`];
  if (/^[^\s@<>"']+@[^\s@<>"']+\.[^\s@<>"']+$/.test(text)) return [`EMAL:${text.toLowerCase()}`];
  if (/^\+?[\d\s-]{6,20}$/.test(text)) {
    const values = [...new Set([text, text.replace(/[\s-]/g, "")])];
    return ["TELI", "AUBN", "ORGN"].flatMap((type) => values.map((value) => `${type}:${value}`));
  }
  return null;
}
