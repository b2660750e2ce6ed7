/**
 * Business identifiers a trade-credit application names (issue 17; decision 038), with the
 * check-digit rules their registrars publish, so a mistyped number is caught at the field
 * rather than by the business's credit checker days later:
 *
 * - ABN, Australian Business Number: 11 digits. Subtract 1 from the first digit, weight the
 *   digits 10, 1, 3, 5, …, 19, and the sum divides by 89 (the ATO's "Format of the ABN").
 * - ACN, Australian Company Number: 9 digits. Weight the first eight 8, 7, …, 1; the ninth is
 *   the complement to 10 of the sum's last digit (ASIC's "ACN check digit").
 * - NZBN, New Zealand Business Number: a 13-digit GS1 number (GTIN-13) in New Zealand's GS1
 *   prefix 94; weights 1 and 3 alternate from the left and the 13th digit makes the sum a
 *   multiple of 10.
 *
 * People type these with spaces (the ABR shows "51 824 753 556") and sometimes dashes or dots:
 * those are dropped; anything else (a letter, a minus sign, full-width digits) is refused.
 * Pure: shared by the forms (through their zod schemas) and the tests.
 */

export type BusinessNumberKind = "abn" | "acn" | "nzbn";

/** Why a number was refused: the wrong characters, the wrong number of digits, or a bad check digit. */
export type BusinessNumberProblem = "characters" | "length" | "checksum" | "prefix";

export type BusinessNumberCheck = { ok: true; digits: string } | { ok: false; problem: BusinessNumberProblem };

const LENGTHS: Record<BusinessNumberKind, number> = { abn: 11, acn: 9, nzbn: 13 };

/** The digits of a number as typed: spaces, dashes and dots between digits dropped; null if anything else. */
export function businessNumberDigits(input: string): string | null {
  const trimmed = input.trim();
  if (!/^[0-9][0-9 .\-]*$/.test(trimmed) || /[ .\-]$/.test(trimmed)) return null;
  return trimmed.replace(/[ .\-]/g, "");
}

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

function abnChecksumOk(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 11; i++) {
    const digit = Number(digits[i]) - (i === 0 ? 1 : 0);
    sum += digit * ABN_WEIGHTS[i]!;
  }
  // A first digit of 0 becomes -1: no real ABN starts with 0, and the sum rule alone might pass it.
  return digits[0] !== "0" && sum % 89 === 0;
}

const ACN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 1];

function acnChecksumOk(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(digits[i]) * ACN_WEIGHTS[i]!;
  const check = (10 - (sum % 10)) % 10;
  // 000 000 000 passes the arithmetic but is no company's number.
  return check === Number(digits[8]) && !/^0+$/.test(digits);
}

function gtinChecksumOk(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length - 1; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

/** Checks a number of the given kind as typed; gives its bare digits when it is valid. */
export function checkBusinessNumber(kind: BusinessNumberKind, input: string): BusinessNumberCheck {
  if (typeof input !== "string") return { ok: false, problem: "characters" };
  const digits = businessNumberDigits(input);
  if (digits === null) return { ok: false, problem: "characters" };
  if (digits.length !== LENGTHS[kind]) return { ok: false, problem: "length" };
  if (kind === "nzbn" && !digits.startsWith("94")) return { ok: false, problem: "prefix" };
  const ok = kind === "abn" ? abnChecksumOk(digits) : kind === "acn" ? acnChecksumOk(digits) : gtinChecksumOk(digits);
  return ok ? { ok: true, digits } : { ok: false, problem: "checksum" };
}

/** How the registers show them: ABN "51 824 753 556", ACN "004 028 077", NZBN as 13 digits. */
export function formatBusinessNumber(kind: BusinessNumberKind, digits: string): string {
  if (!/^\d+$/.test(digits) || digits.length !== LENGTHS[kind]) return digits;
  if (kind === "abn") return `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}`;
  if (kind === "acn") return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
  return digits;
}
