import { DEFAULT_LANGUAGE, type LanguageCode, type MessageKey } from "~/lib/i18n";
import { audit } from "../platform/audit.server";
import { now } from "../platform/clock.server";
import { issueToken, peekToken, spendToken } from "./auth-tokens.server";
import { getDb } from "../platform/database.server";
import { publicLink, type HostBranding } from "../host/host.server";
import { logger } from "../platform/logger.server";
import { sendContactMail } from "../communication/contact-mail.server";
import { renderAccountEmail } from "./account-email.server";
import { hashPassword, verifyPassword } from "./password.server";
import {
  clearLimits,
  clearLimitsStartingWith,
  consume,
  PASSWORD_CHECKS,
  RESET_REQUESTS,
  signInAccountKey,
  signInPairKey,
  RESET_REQUESTS_PER_ADDRESS,
  TOKEN_CHECKS,
  type Limit,
} from "../platform/rate-limit.server";
import { clientAddress } from "../platform/request-context.server";
import { destroyOtherSessions, type PortalSession } from "./session.server";

/** A flow's outcome; `message` is a message key, shown by the page in its language. */
export type FlowResult = { ok: true } | { ok: false; status: number; message: MessageKey; field?: string };

const RESET_EXPIRED: MessageKey = "auth.reset.expired";

/**
 * Forgot password: the same answer, in about the same time, whether or not the email
 * belongs to anyone (no account enumeration). Mail goes out after the answer is decided.
 */
export async function requestPasswordReset(
  branding: HostBranding,
  email: string,
  request: Request,
  language: LanguageCode = DEFAULT_LANGUAGE,
): Promise<FlowResult> {
  const ip = clientAddress(request);
  const limits: Limit[] = [
    { key: `reset:ip:${ip}`, ...RESET_REQUESTS_PER_ADDRESS },
    { key: `reset:email:${email}`, ...RESET_REQUESTS },
  ];
  if (!(await consume(branding.businessId, limits))) {
    return { ok: false, status: 429, message: "auth.reset.tooMany" };
  }
  if (branding.authProvider !== "credentials") return { ok: true };
  // Everything that depends on whether the email has a login happens after the answer, so
  // the answer takes the same time either way (no account enumeration by timing).
  setImmediate(() => {
    void sendResetMailIfContact(branding, email, ip, language).catch((error: unknown) =>
      logger.error("password reset mail failed", { error }),
    );
  });
  return { ok: true };
}

async function sendResetMailIfContact(branding: HostBranding, email: string, ip: string, language: LanguageCode) {
  const db = await getDb();
  const contact = await db
    .selectFrom("contacts")
    .select(["id", "first_name", "disabled_at"])
    .where("business_id", "=", branding.businessId)
    .where("email", "=", email)
    .executeTakeFirst();
  if (!contact || contact.disabled_at) return;
  const token = await issueToken(branding.businessId, contact.id, "password-reset");
  const link = publicLink(branding, `/auth/password/reset?${new URLSearchParams({ token, email })}`);
  await audit({
    businessId: branding.businessId,
    contactId: contact.id,
    action: "password reset requested",
    clientIp: ip,
  });
  // About the contact's own login: transactional, always sent (decision 039).
  await sendContactMail({
    branding,
    contact: { id: contact.id, email },
    category: "account",
    render: (links) =>
      renderAccountEmail({
        kind: "reset",
        branding,
        language,
        firstName: contact.first_name,
        email,
        link,
        preferences: links,
      }),
  });
}

/** Is this reset link still good? (for showing the form, and GET /api/auth/token-verify) */
export async function checkResetToken(branding: HostBranding, token: string) {
  return peekToken(branding.businessId, token, "password-reset");
}

/**
 * Sets a new password from a reset link: the token is spent, the password changes, the
 * email counts as verified (the link reached the inbox), and every session of the contact
 * ends — all in one transaction.
 */
export async function resetPassword(
  branding: HostBranding,
  input: { email: string; token: string; password: string },
  request: Request,
): Promise<FlowResult> {
  // Hashing costs memory and CPU: only for a live token, and token uses are rate limited.
  if (!(await consume(branding.businessId, [{ key: `token-use:ip:${clientAddress(request)}`, ...TOKEN_CHECKS }]))) {
    return { ok: false, status: 429, message: "auth.tooManyAttempts" };
  }
  if (!(await peekToken(branding.businessId, input.token, "password-reset"))) {
    return { ok: false, status: 400, message: RESET_EXPIRED, field: "token" };
  }
  const passwordHash = await hashPassword(input.password);
  const db = await getDb();
  const contactId = await db.transaction().execute(async (tx) => {
    const spentFor = await spendToken(tx, branding.businessId, input.token, "password-reset");
    if (!spentFor) return null;
    const contact = await tx
      .selectFrom("contacts")
      .select(["id", "email", "verified_at", "disabled_at"])
      .where("id", "=", spentFor)
      .where("business_id", "=", branding.businessId)
      .executeTakeFirst();
    if (!contact || contact.email !== input.email || contact.disabled_at) {
      // A link used with another email: refuse, and the token stays spent.
      return null;
    }
    await tx
      .updateTable("contacts")
      .set({ password_hash: passwordHash, verified_at: contact.verified_at ?? now() })
      .where("id", "=", contact.id)
      .execute();
    await tx
      .deleteFrom("sessions")
      .where("business_id", "=", branding.businessId)
      .where("contact_id", "=", contact.id)
      .execute();
    return contact.id;
  });
  if (!contactId) return { ok: false, status: 400, message: RESET_EXPIRED, field: "token" };
  // The owner proved control of the inbox: lift every sign-in lock on the account, from
  // every address (the per-address pairs are what a guesser's failures lock).
  await clearLimits(branding.businessId, [signInAccountKey(input.email)]);
  await clearLimitsStartingWith(branding.businessId, signInPairKey(input.email, ""));
  await audit({
    businessId: branding.businessId,
    contactId,
    action: "password reset",
    clientIp: clientAddress(request),
  });
  return { ok: true };
}

/** Change password while signed in: the old one must match; other sessions end. */
export async function changePassword(
  session: PortalSession,
  input: { oldPassword: string; newPassword: string },
  request: Request,
): Promise<FlowResult> {
  const businessId = session.businessId;
  const limits: Limit[] = [{ key: `password-change:${session.contact.id}`, ...PASSWORD_CHECKS }];
  if (!(await consume(businessId, limits))) {
    return { ok: false, status: 429, message: "auth.tooManyAttempts" };
  }
  const db = await getDb();
  const row = await db
    .selectFrom("contacts")
    .select("password_hash")
    .where("id", "=", session.contact.id)
    .where("business_id", "=", businessId)
    .executeTakeFirst();
  if (!row?.password_hash) {
    return { ok: false, status: 400, message: "auth.change.noPassword" };
  }
  if (!(await verifyPassword(input.oldPassword, row.password_hash))) {
    return { ok: false, status: 400, message: "auth.change.wrongCurrent", field: "oldPassword" };
  }
  if (input.oldPassword === input.newPassword) {
    return { ok: false, status: 400, message: "auth.change.same", field: "newPassword" };
  }
  await db
    .updateTable("contacts")
    .set({ password_hash: await hashPassword(input.newPassword) })
    .where("id", "=", session.contact.id)
    .execute();
  await destroyOtherSessions(businessId, session.contact.id, session.idHash);
  await clearLimits(
    businessId,
    limits.map((l) => l.key),
  );
  await audit({
    businessId,
    contactId: session.contact.id,
    action: "password changed",
    clientIp: clientAddress(request),
  });
  return { ok: true };
}

/** Sends the signed-in, unverified contact a link that proves they own their email. */
export async function sendVerificationMail(
  branding: HostBranding,
  session: PortalSession,
  request: Request,
  language: LanguageCode = DEFAULT_LANGUAGE,
): Promise<FlowResult> {
  const limits: Limit[] = [{ key: `verify-mail:${session.contact.id}`, ...RESET_REQUESTS }];
  if (!(await consume(branding.businessId, limits))) {
    return { ok: false, status: 429, message: "auth.verify.tooMany" };
  }
  const token = await issueToken(branding.businessId, session.contact.id, "email-verify");
  const link = publicLink(branding, `/auth/verify?${new URLSearchParams({ token })}`);
  const sent = await sendContactMail({
    branding,
    contact: { id: session.contact.id, email: session.contact.email },
    category: "account",
    render: (links) =>
      renderAccountEmail({
        kind: "verify",
        branding,
        language,
        firstName: session.contact.firstName,
        email: session.contact.email,
        link,
        preferences: links,
      }),
  }).then(
    () => true,
    () => false,
  );
  if (!sent) {
    return { ok: false, status: 503, message: "auth.verify.mailFailed" };
  }
  return { ok: true };
}

/** Spends an email-verification link; returns whether the contact is now verified. */
export async function confirmEmail(branding: HostBranding, token: string): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (tx) => {
    const contactId = await spendToken(tx, branding.businessId, token, "email-verify");
    if (!contactId) return false;
    await tx
      .updateTable("contacts")
      .set({ verified_at: now() })
      .where("id", "=", contactId)
      .where("verified_at", "is", null)
      .execute();
    return true;
  });
}
