import type { ResetLink } from '../../shared/password-reset-schema.ts';
import { paths } from '../../shared/paths.ts';
import type { Auth } from './auth.ts';
import { RESET_PREFIX, receiveResetToken } from './reset-links.ts';

/**
 * The reset page's address. The token travels in the fragment, which browsers never send:
 * it stays out of the server's and any proxy's access logs and out of Referer headers
 * (ASVS 5.0 14.2.1); the page posts it in a request body.
 */
function resetLinkUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${paths.resetPassword}#token=${encodeURIComponent(token)}`;
}

/**
 * A new one-time reset link for this operator, stored by better-auth, to be handed over by
 * whoever asked (an administrator, or the reset-link command on the server). The caller then
 * withdraws the operator's earlier links in a write of its own (keepOnlyNewestResetLink), so
 * that only the newest one is out there.
 */
export async function issueResetLink(
  auth: Auth,
  publicUrl: string,
  operator: { id: string; email: string },
): Promise<ResetLink> {
  const token = await receiveResetToken(() =>
    auth.api.requestPasswordReset({ body: { email: operator.email } }),
  );
  if (!token) throw new Error(`no reset token was issued for operator ${operator.id}`);
  // The end better-auth stored, so that the link says what checking it will say.
  const stored = await findResetLink(auth, token);
  if (!stored)
    throw new Error(`the reset link just issued for operator ${operator.id} is not stored`);
  return { url: resetLinkUrl(publicUrl, token), expiresAt: stored.expiresAt };
}

export interface ResetLinkHolder {
  userId: string;
  email: string;
  expiresAt: string;
}

/** Whose reset link this token is, while it is unused and unexpired; null otherwise. */
export async function findResetLink(auth: Auth, token: string): Promise<ResetLinkHolder | null> {
  // better-auth's tokens are letters and digits; anything else (a NUL, which PostgreSQL
  // cannot even compare) is no token, and is not looked up.
  if (!/^[A-Za-z0-9]{1,128}$/.test(token)) return null;
  const { internalAdapter } = await auth.$context;
  const found = await internalAdapter.findVerificationValue(`${RESET_PREFIX}${token}`);
  if (!found) return null;
  const expiresAt = new Date(found.expiresAt);
  if (!(expiresAt.getTime() > Date.now())) return null;
  const user = await internalAdapter.findUserById(found.value);
  if (!user) return null;
  return { userId: user.id, email: user.email, expiresAt: expiresAt.toISOString() };
}
