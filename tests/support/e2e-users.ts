/** The end-to-end tests' own contacts (created by e2e-seed.ts), one per project and role. */
export const E2E_PROJECTS = ["js", "no-js"] as const;
export const E2E_ROLES = [
  "reset",
  "change",
  "locked",
  "unverified",
  "other",
  "orphan",
  "cards",
  "banks",
  "gateway",
  "pci",
  "payer",
  "payid",
  "paytopay",
  "linkpayer",
  "paynow",
  "confirm",
  "savedcard",
  "roundtrip",
  // Made a host admin and removed again by the admin journeys (tests/e2e/admin-home.spec.ts).
  "grantee",
] as const;

/**
 * Roles whose journeys change what is saved on an account (cards, bank accounts): each gets
 * an account of its own, so that journeys running in parallel never see each other's cards.
 */
export const OWN_ACCOUNT_ROLES: readonly E2eRole[] = [
  "cards",
  "banks",
  "gateway",
  "pci",
  "payer",
  "payid",
  "paytopay",
  "linkpayer",
  "paynow",
  "confirm",
  "savedcard",
  // Sets up PayTo from a payment request's page (tests/e2e/payto-round-trips.spec.ts): no agreement before.
  "roundtrip",
];

/** Roles whose own account also gets the demo ledger of invoices in every status. */
export const LEDGER_ROLES: readonly E2eRole[] = [
  "payer",
  "payid",
  "paytopay",
  "linkpayer",
  "paynow",
  "confirm",
  "savedcard",
];

export type E2eRole = (typeof E2E_ROLES)[number];

export function e2eEmail(role: E2eRole, project: string, host = "acme.localhost") {
  return `${role}-${project}@${host.split(".")[0]}.test`;
}

/**
 * The emailed links the seed makes for the link journeys (tests/e2e/payment-request.spec.ts),
 * one set per project: an expired payment request's link and a link to one invoice. Test data
 * only: 59 URL-safe characters like a real token, but chosen, so the journeys can open them.
 */
export function e2eLinkToken(kind: "expired" | "invoice", project: string) {
  return `E2e${kind}${project.replace(/[^a-z]/g, "")}`.padEnd(59, "0").slice(0, 59);
}
