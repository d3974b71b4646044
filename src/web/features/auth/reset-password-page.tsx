import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import * as z from 'zod/mini';
import { newPasswordSchema, PASSWORD_RULES_TEXT, typedTwice } from '../../../shared/auth-schema.ts';
import { resetLinkHolderSchema } from '../../../shared/password-reset-schema.ts';
import { apiPaths, paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField, UsernameHint } from '../../components/form-field.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { ApiError, api } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { type SessionUser, sessionQueryKey, useSession, useSignOut } from '../../lib/session.ts';
import { loggedOut } from '../../lib/shell-messages.ts';

const INCOMPLETE_LINK_MESSAGE =
  'This reset link is incomplete. Open the whole link you were given, or ask an administrator for a new one.';
const PASSWORD_CHANGED_MESSAGE = 'Your password is changed: sign in with it';
const otherPasswordChanged = (email: string, signedInAs: string) =>
  `The password of ${email} is changed: they sign in with it. You are still signed in as ${signedInAs}`;

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const resetFormSchema = z
  .object({ password: newPasswordSchema, repeat: z.string() })
  .check(typedTwice('password'));
type ResetForm = z.infer<typeof resetFormSchema>;

/** The token of a reset link travels in its fragment (#token=…), which no server ever sees. */
function tokenFrom(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim() ?? '';
}

/** A refusal that means the link is gone (used, expired, replaced), not a passing failure. */
function isDeadLink(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && !error.fieldErrors.password;
}

function DeadLink({ message }: { message: string }) {
  return (
    <>
      <Alert variant="warning" className="mb-3">
        {message}
      </Alert>
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
      <Alert variant="info" className="mb-3">
        You are signed in as {user.email}. Changing your password with this link ends every session
        of yours, this one too: you then sign in with the new password.
      </Alert>
    );
  }
  return (
    <Alert variant="warning" className="mb-3">
      <p>
        You are signed in as <strong>{user.email}</strong>. This link sets the password of{' '}
        <strong>{email}</strong>; you stay signed in as {user.email}.
      </p>
      <Button
        variant="outline-secondary"
        size="sm"
        disabled={signOut.isPending}
        onClick={() =>
          signOut.mutate(undefined, {
            onSuccess: () => flash.success(loggedOut.text, loggedOut.seconds),
            onError: (error) =>
              flash.failure(failureText('Logout failed', error), messages.failureSeconds),
          })
        }
      >
        Sign out of {user.email}
      </Button>
    </Alert>
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
  const holder = useQuery({
    queryKey: ['reset-link', token],
    queryFn: () => api.post(apiPaths.passwordResetCheck, resetLinkHolderSchema, { token }),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    // Signing out forgets the signed-in data, this check with it: the form stays while it is
    // read again.
    placeholderData: (previous) => previous,
  });
  const session = useSession();
  const queryClient = useQueryClient();
  const flash = useFlash();
  const navigate = useNavigate();
  const form = useForm<ResetForm>({
    resolver: zodResolver(resetFormSchema),
    reValidateMode: 'onChange',
    defaultValues: { password: '', repeat: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    const email = holder.data?.email ?? '';
    try {
      await api.post(apiPaths.passwordReset, z.object({ success: z.boolean() }), {
        token,
        password,
      });
      // Every session of the account ended: this browser's too, if it was one of them. Then it
      // is signed out at once (nothing asks the server as them any more); else the session is
      // read again.
      if (session.data && sameEmail(session.data.email, email)) {
        await queryClient.cancelQueries({ queryKey: sessionQueryKey });
        queryClient.setQueryData(sessionQueryKey, null);
      } else {
        await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      }
      const still = queryClient.getQueryData<SessionUser | null>(sessionQueryKey);
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
      flash.failure(message, messages.failureSeconds);
    }
  });

  let body: ReactNode;
  if (token === '') body = <DeadLink message={INCOMPLETE_LINK_MESSAGE} />;
  else if (deadMessage) body = <DeadLink message={deadMessage} />;
  else if (holder.isPending) body = <Loading />;
  else if (holder.isError) {
    body = isDeadLink(holder.error) ? (
      <DeadLink message={holder.error.message} />
    ) : (
      <LoadFailed what="the reset link" error={holder.error} onRetry={() => holder.refetch()} />
    );
  } else {
    body = (
      <>
        {session.data ? <SignedInNotice user={session.data} email={holder.data.email} /> : null}
        <Form noValidate onSubmit={onSubmit} aria-label="Choose a new password">
          <p>
            For <strong>{holder.data.email}</strong>. Every session of this account ends when the
            password is changed.
          </p>
          <UsernameHint email={holder.data.email} />
          <FormField
            id="reset-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            registration={form.register('password')}
            error={errors.password?.message}
            help={PASSWORD_RULES_TEXT}
          />
          <FormField
            id="reset-repeat"
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            registration={form.register('repeat')}
            error={errors.repeat?.message}
          />
          <Button type="submit" variant="primary" className="w-100" disabled={isSubmitting}>
            Change password
          </Button>
        </Form>
      </>
    );
  }

  return (
    <Card className="mx-auto auth-card">
      <Card.Body>
        <h1 className="h3 text-center mb-4">Choose a new password</h1>
        {body}
      </Card.Body>
    </Card>
  );
}
