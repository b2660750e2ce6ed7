import { z } from "zod";

/**
 * The admins screen's "Add an admin" form (issue 32; decision 080): an email address, bounded
 * (RFC 5321's 254 characters), for the server's validation and the form's HTML constraints.
 */
export const HOST_ADMIN_EMAIL_MAX_LENGTH = 254;

export const GrantHostAdminSchema = z.object({
  intent: z.literal("grant"),
  email: z
    .string({ required_error: "admins.error.email.required" })
    .trim()
    .max(HOST_ADMIN_EMAIL_MAX_LENGTH, "admins.error.email.tooLong")
    .email("admins.error.email.invalid"),
});

/** "Remove as admin": the contact's id, a UUID. */
export const RemoveHostAdminSchema = z.object({
  intent: z.literal("remove"),
  contactId: z.string().max(36).uuid(),
});
