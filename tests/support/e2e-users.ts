/** The end-to-end tests' own contacts (created by e2e-seed.ts), one per project and role. */
export const E2E_PROJECTS = ["js", "no-js"] as const;
export const E2E_ROLES = ["reset", "change", "locked", "unverified", "other", "orphan"] as const;

export type E2eRole = (typeof E2E_ROLES)[number];

export function e2eEmail(role: E2eRole, project: string, host = "acme.localhost") {
  return `${role}-${project}@${host.split(".")[0]}.test`;
}
