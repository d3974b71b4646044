import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import * as z from 'zod/mini';
import { newPasswordSchema, PASSWORD_RULES_TEXT, typedTwice } from '../../../shared/auth-schema.ts';
import {
  type ResetLinkHolder,
  resetLinkHolderSchema,
} from '../../../shared/password-reset-schema.ts';
import { apiPaths, paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField, UsernameHint } from '../../components/form-field.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { translate } from '../../i18n/translate.tsx';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { ApiError, api } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { type SessionUser, session, useSession, useSignOut } from '../../lib/session.ts';
import { FAILURE_SECONDS, failureText, loggedOut } from '../../lib/shell-messages.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';

// Plain requests and Bootstrap's classes rather than TanStack Query, react-hook-form and
// react-bootstrap: like the sign-in pages, this one is opened signed out (decision 0013).

const INCOMPLETE_LINK_MESSAGE =
  'This reset link is incomplete. Open the whole link you were given, or ask an administrator for a new one.';
const PASSWORD_CHANGED_MESSAGE = 'Your password is changed: sign in with it';
const otherPasswordChanged = (email: string, signedInAs: string) =>
  `The password of ${email} is changed: they sign in with it. You are still signed in as ${signedInAs}`;

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const resetFormSchema = z
  .object({ password: newPasswordSchema, repeat: z.string() })
  .check(typedTwice('password'));

/** The token of a reset link travels in its fragment (#token=…), which no server ever sees. */
function tokenFrom(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim() ?? '';
}

/** A refusal that means the link is gone (used, expired, replaced), not a passing failure. */
function isDeadLink(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && !error.fieldErrors.password;
}

/** Whose link it is, read once per link ("Try again" reads it again after a failure). */
function useLinkHolder(token: string) {
  const [read, setRead] = useState<{ holder?: ResetLinkHolder; error?: Error }>({});
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: "Try again" is a new attempt.
  useEffect(() => {
    if (token === '') return;
    let current = true;
    setRead({});
    api.post(apiPaths.passwordResetCheck, resetLinkHolderSchema, { token }).then(
      (holder) => current && setRead({ holder }),
      (error: Error) => current && setRead({ error }),
    );
    return () => {
      current = false;
    };
  }, [token, attempt]);
  return { ...read, retry: () => setAttempt((count) => count + 1) };
}

function DeadLink({ message }: { message: string }) {
  return (
    <>
      <div role="alert" className="alert alert-warning mb-3">
        {message}
      </div>
      <Link to={paths.login}>Go to the sign-in page</Link>
    </>
  );
}

/**
 * Said above the form to a browser already signed in: with another operator's link, whose
 * password it sets (this session goes on; "Sign out" to sign in as them); with their own,
 * that it ends this session too.
 */
function SignedInNotice({ user, email }: { user: SessionUser; email: string }) {
  const signOut = useSignOut();
  const flash = useFlash();
  if (sameEmail(user.email, email)) {
    return (
      <div role="alert" className="alert alert-info mb-3">
        You are signed in as {user.email}. Changing your password with this link ends every session
        of yours, this one too: you then sign in with the new password.
      </div>
    );
  }
  return (
    <div role="alert" className="alert alert-warning mb-3">
      <p>
        You are signed in as <strong>{user.email}</strong>. This link sets the password of{' '}
        <strong>{email}</strong>; you stay signed in as {user.email}.
      </p>
      <button
        type="button"
        className="btn btn-outline-secondary btn-sm"
        disabled={signOut.isPending}
        onClick={() =>
          signOut.signOut().then(
            () => flash.success(translate(loggedOut.id), loggedOut.seconds),
            (error: unknown) => flash.failure(failureText('Logout failed', error), FAILURE_SECONDS),
          )
        }
      >
        Sign out of {user.email}
      </button>
    </div>
  );
}

/**
 * Where an operator who forgot their password chooses a new one, with the one-time link an
 * administrator handed them. Anyone with the link may use it, signed in or not.
 */
export function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const token = tokenFrom(useLocation().hash);
  const [deadMessage, setDeadMessage] = useState<string | null>(null);
  const { holder, error: holderError, retry } = useLinkHolder(token);
  const signedIn = useSession().data;
  const flash = useFlash();
  const navigate = useNavigate();
  const form = useSchemaForm(resetFormSchema, ['password', 'repeat']);
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    const email = holder?.email ?? '';
    try {
      await api.post(apiPaths.passwordReset, z.object({ success: z.boolean() }), {
        token,
        password,
      });
      // Every session of the account ended: this browser's too, if it was one of them. Then it
      // is signed out at once (nothing asks the server as them any more); else the session is
      // read again.
      if (signedIn && sameEmail(signedIn.email, email)) session.set(null);
      else await session.reload();
      const still = session.get().data;
      if (still) {
        flash.success(otherPasswordChanged(email, still.email), ACCOUNT_MESSAGE_SECONDS);
        navigate(paths.dashboard, { replace: true });
      } else {
        flash.success(PASSWORD_CHANGED_MESSAGE, ACCOUNT_MESSAGE_SECONDS);
        navigate(paths.login, { replace: true });
      }
    } catch (error) {
      if (isDeadLink(error)) {
        setDeadMessage(error.message);
        return;
      }
      const message = applyServerErrors(error, form.setError, ['password']);
      flash.failure(message, FAILURE_SECONDS);
    }
  });

  let body: ReactNode;
  if (token === '') body = <DeadLink message={INCOMPLETE_LINK_MESSAGE} />;
  else if (deadMessage) body = <DeadLink message={deadMessage} />;
  else if (holderError) {
    body = isDeadLink(holderError) ? (
      <DeadLink message={holderError.message} />
    ) : (
      <LoadFailed what="the reset link" error={holderError} onRetry={retry} />
    );
  } else if (!holder) body = <Loading />;
  else {
    body = (
      <>
        {signedIn ? <SignedInNotice user={signedIn} email={holder.email} /> : null}
        <form noValidate onSubmit={onSubmit} aria-label="Choose a new password">
          <p>
            For <strong>{holder.email}</strong>. Every session of this account ends when the
            password is changed.
          </p>
          <UsernameHint email={holder.email} />
          <FormField
            id="reset-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            registration={form.register('password')}
            error={errors.password}
            help={PASSWORD_RULES_TEXT}
          />
          <FormField
            id="reset-repeat"
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            registration={form.register('repeat')}
            error={errors.repeat}
          />
          <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
            Change password
          </button>
        </form>
      </>
    );
  }

  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-4">Choose a new password</h1>
        {body}
      </div>
    </div>
  );
}
