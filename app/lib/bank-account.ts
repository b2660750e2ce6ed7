/**
 * Bank account number rules for the two countries the portal's businesses are in (spec §3):
 * Australia (BSB + account number) and New Zealand (bank-branch-account-suffix, with the
 * check-digit algorithms published by Inland Revenue for validating NZ account numbers).
 * Pure code, shared by the forms and the API.
 */

/** "123-456", "123 456" or "123456" → "123456"; anything else → null. */
export function parseBsb(input: string): string | null {
  const digits = input.trim().replace(/[\s-]/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

export function formatBsb(bsb: string) {
  return /^\d{6}$/.test(bsb) ? `${bsb.slice(0, 3)}-${bsb.slice(3)}` : bsb;
}

/** An Australian account number: 4 to 9 digits (spaces and dashes as people copy them). */
export function parseAuAccountNumber(input: string): string | null {
  const digits = input.trim().replace(/[\s-]/g, "");
  return /^\d{4,9}$/.test(digits) ? digits : null;
}

export type NzParts = { bank: string; branch: string; account: string; suffix: string };

/**
 * Which algorithm checks a bank's numbers. Banks not listed here do not exist (or are not
 * in the published table) and are refused; "X" banks have no check digit.
 */
const NZ_BANK_ALGORITHM: Record<string, "A" | "D" | "E" | "F" | "G" | "X"> = {
  "01": "A",
  "02": "A",
  "03": "A",
  "04": "A",
  "06": "A",
  "08": "D",
  "09": "E",
  "10": "A",
  "11": "A",
  "12": "A",
  "13": "A",
  "14": "A",
  "15": "A",
  "16": "A",
  "17": "A",
  "18": "A",
  "19": "A",
  "20": "A",
  "21": "A",
  "22": "A",
  "23": "A",
  "24": "A",
  "25": "F",
  "26": "G",
  "27": "A",
  "28": "G",
  "29": "G",
  "30": "A",
  "31": "X",
  "33": "F",
  "35": "A",
  "38": "A",
};

/**
 * Weights over the 18 digits bank(2) branch(4) account(8, zero-padded) suffix(4,
 * zero-padded), and the modulus the weighted sum must divide by. For E and G each
 * product is first reduced to the sum of its digits (twice, as the rules say).
 */
const NZ_RULES: Record<"A" | "B" | "D" | "E" | "F" | "G", { weights: number[]; modulus: number; digitSum: boolean }> = {
  A: { weights: [0, 0, 6, 3, 7, 9, 0, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0, 0], modulus: 11, digitSum: false },
  B: { weights: [0, 0, 0, 0, 0, 0, 0, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0, 0], modulus: 11, digitSum: false },
  D: { weights: [0, 0, 0, 0, 0, 0, 0, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0], modulus: 11, digitSum: false },
  E: { weights: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 4, 3, 2, 0, 0, 0, 1], modulus: 11, digitSum: true },
  F: { weights: [0, 0, 0, 0, 0, 0, 0, 1, 7, 3, 1, 7, 3, 1, 0, 0, 0, 0], modulus: 10, digitSum: false },
  G: { weights: [0, 0, 0, 0, 0, 0, 0, 1, 3, 7, 1, 3, 7, 1, 0, 3, 7, 1], modulus: 10, digitSum: true },
};

const sumOfDigits = (value: number) =>
  String(value)
    .split("")
    .reduce((sum, d) => sum + Number(d), 0);

export type NzCheck = { ok: true; parts: NzParts } | { ok: false; problem: "format" | "bank" | "checksum" };

/** Validates the four parts of a New Zealand account number, each as typed. */
export function checkNzAccount(input: NzParts): NzCheck {
  const bank = input.bank.trim();
  const branch = input.branch.trim();
  const account = input.account.trim();
  const suffix = input.suffix.trim();
  if (!/^\d{2}$/.test(bank) || !/^\d{4}$/.test(branch) || !/^\d{7}$/.test(account) || !/^\d{2,3}$/.test(suffix)) {
    return { ok: false, problem: "format" };
  }
  const bankAlgorithm = Object.hasOwn(NZ_BANK_ALGORITHM, bank) ? NZ_BANK_ALGORITHM[bank] : undefined;
  if (!bankAlgorithm) return { ok: false, problem: "bank" };
  if (bankAlgorithm !== "X") {
    // Algorithm A applies to account numbers below 0990000; B above.
    const algorithm = bankAlgorithm === "A" && account >= "0990000" ? "B" : bankAlgorithm;
    const rule = NZ_RULES[algorithm];
    const digits = `${bank}${branch}${account.padStart(8, "0")}${suffix.padStart(4, "0")}`;
    let total = 0;
    for (let i = 0; i < 18; i++) {
      let product = rule.weights[i]! * Number(digits[i]);
      if (rule.digitSum) product = sumOfDigits(sumOfDigits(product));
      total += product;
    }
    if (total % rule.modulus !== 0) return { ok: false, problem: "checksum" };
  }
  return { ok: true, parts: { bank, branch, account, suffix } };
}

/** Spec §3: NZ routing is bank-branch, the account number is number-suffix. */
export function nzRouting(parts: NzParts) {
  return `${parts.bank}-${parts.branch}`;
}

export function nzAccountNumber(parts: NzParts) {
  return `${parts.account}-${parts.suffix}`;
}

/**
 * An account number for display: only the last three digits visible, so a screen, a
 * screenshot or a shoulder reveals nothing a fraudster could use.
 */
export function maskAccountNumber(accountNumber: string) {
  const [number = "", suffix] = accountNumber.split("-");
  const visible = number.slice(-3);
  const masked = "•".repeat(Math.max(number.length - 3, 1)) + visible;
  return suffix === undefined ? masked : `${masked}-${suffix}`;
}

export function formatRouting(country: "AU" | "NZ", routing: string) {
  return country === "AU" ? formatBsb(routing) : routing;
}
