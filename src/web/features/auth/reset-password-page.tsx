import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import * as z from 'zod/mini';
import {
  newPasswordSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  typedTwice,
} from '../../../shared/auth-schema.ts';
import {
  type ResetLinkHolder,
  resetLinkHolderSchema,
} from '../../../shared/password-reset-schema.ts';
import { apiPaths, paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField, UsernameHint } from '../../components/form-field.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { errorText } from '../../i18n/errors.ts';
import { T, translate, useT } from '../../i18n/translate.tsx';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { ApiError, api } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { type SessionUser, session, useSession, useSignOut } from '../../lib/session.ts';
import { FAILURE_SECONDS, failureText, loggedOut } from '../../lib/shell-messages.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';

// Plain requests and Bootstrap's classes rather than TanStack Query, react-hook-form and
// react-bootstrap: like the sign-in pages, this one is opened signed out (decision 0013).

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
  const t = useT();
  return (
    <>
      <div role="alert" className="alert alert-warning mb-3">
        {message}
      </div>
      <Link to={paths.login}>{t('auth.reset.toLogin')}</Link>
    </>
  );
}

/**
 * Said above the form to a browser already signed in: with another operator's link, whose
 * password it sets (this session goes on; "Sign out" to sign in as them); with their own,
 * that it ends this session too.
 */
function SignedInNotice({ user, email }: { user: SessionUser; email: string }) {
  const t = useT();
  const signOut = useSignOut();
  const flash = useFlash();
  if (sameEmail(user.email, email)) {
    return (
      <div role="alert" className="alert alert-info mb-3">
        {t('auth.reset.ownNotice', { email: user.email })}
      </div>
    );
  }
  return (
    <div role="alert" className="alert alert-warning mb-3">
      <p>
        <T
          id="auth.reset.otherNotice"
          values={{ signedInAs: user.email, email }}
          components={{ 0: <strong />, 1: <strong /> }}
        />
      </p>
      <button
        type="button"
        className="btn btn-outline-secondary btn-sm"
        disabled={signOut.isPending}
        onClick={() =>
          signOut.signOut().then(
            () => flash.success(translate(loggedOut.id), loggedOut.seconds),
            (error: unknown) =>
              flash.failure(failureText(translate('auth.logoutFailed'), error), FAILURE_SECONDS),
          )
        }
      >
        {t('auth.reset.signOutOf', { email: user.email })}
      </button>
    </div>
  );
}

/**
 * Where an operator who forgot their password chooses a new one, with the one-time link an
 * administrator handed them. Anyone with the link may use it, signed in or not.
 */
export function ResetPasswordPage() {
  const t = useT();
  usePageTitle(t('auth.reset.title'));
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
        flash.success(
          translate('auth.reset.changedOther', { email, signedInAs: still.email }),
          ACCOUNT_MESSAGE_SECONDS,
        );
        navigate(paths.dashboard, { replace: true });
      } else {
        flash.success(translate('auth.reset.changed'), ACCOUNT_MESSAGE_SECONDS);
        navigate(paths.login, { replace: true });
      }
    } catch (error) {
      if (isDeadLink(error)) {
        setDeadMessage(errorText(error));
        return;
      }
      applyServerErrors(error, form.setError, ['password']);
      flash.failure(errorText(error), FAILURE_SECONDS);
    }
  });

  let body: ReactNode;
  if (token === '') body = <DeadLink message={t('auth.reset.incomplete')} />;
  else if (deadMessage) body = <DeadLink message={deadMessage} />;
  else if (holderError) {
    body = isDeadLink(holderError) ? (
      <DeadLink message={errorText(holderError)} />
    ) : (
      <LoadFailed what={t('auth.reset.link')} error={holderError} onRetry={retry} />
    );
  } else if (!holder) body = <Loading />;
  else {
    body = (
      <>
        {signedIn ? <SignedInNotice user={signedIn} email={holder.email} /> : null}
        <form noValidate onSubmit={onSubmit} aria-label={t('auth.reset.title')}>
          <p>
            <T
              id="auth.reset.for"
              values={{ email: holder.email }}
              components={{ 0: <strong /> }}
            />
          </p>
          <UsernameHint email={holder.email} />
          <FormField
            id="reset-password"
            label={t('auth.newPassword')}
            type="password"
            autoComplete="new-password"
            registration={form.register('password')}
            error={errors.password}
            help={t('auth.password.rules', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
          />
          <FormField
            id="reset-repeat"
            label={t('auth.repeatPassword')}
            type="password"
            autoComplete="new-password"
            registration={form.register('repeat')}
            error={errors.repeat}
          />
          <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
            {t('auth.changePassword')}
          </button>
        </form>
      </>
    );
  }

  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-4">{t('auth.reset.title')}</h1>
        {body}
      </div>
    </div>
  );
}
