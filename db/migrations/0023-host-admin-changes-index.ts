/**
 * Who gave or took away a contact's permission (the back office's API, and a host admin at
 * /admin/admins: issue 32, decision 080) is kept in audit_events, which also holds every sign-in.
 * The branding page's history lists a business's newest host-admin changes: this partial index
 * holds only those rows, so the list does not walk a busy business's sign-ins to find them.
 */
export const name = "0023-host-admin-changes-index";

export const up = /* sql */ `
CREATE INDEX IF NOT EXISTS audit_events_permission_changes_idx
  ON audit_events (business_id, at DESC)
  WHERE action IN ('contact.permission.grant', 'contact.permission.revoke');
`;
