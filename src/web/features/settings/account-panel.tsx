import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import * as z from 'zod/mini';
import {
  currentPasswordSchema,
  type EmailChangeInput,
  emailChangeSchema,
} from '../../../shared/account-schema.ts';
import { newPasswordSchema, PASSWORD_RULES_TEXT, typedTwice } from '../../../shared/auth-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField, UsernameHint } from '../../components/form-field.tsx';
import { ACCOUNT_MESSAGE_SECONDS, sessionsText } from '../../lib/account-messages.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { useChangeEmail, useChangePassword, useSignOutEverywhere } from './account-api.ts';
import { SignedInSessions } from './account-sessions.tsx';
import { TwoFactorPanel } from './two-factor-panel.tsx';

function passwordChangedText(revoked: number): string {
  return revoked === 0
    ? 'Your password is changed'
    : `Your password is changed; ${sessionsText(revoked)} elsewhere ended`;
}

function signedOutEverywhereText(revoked: number): string {
  return `You are signed out everywhere: ${sessionsText(revoked)} ended`;
}

function EmailForm({ email }: { email: string }) {
  const changeEmail = useChangeEmail();
  const flash = useFlash();
  const form = useForm<EmailChangeInput>({
    resolver: zodResolver(emailChangeSchema),
    defaultValues: { email: '', currentPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { user } = await changeEmail.mutateAsync(values);
      form.reset();
      flash.success(`Your e-mail address is now ${user.email}`, ACCOUNT_MESSAGE_SECONDS);
    } catch (error) {
      applyServerErrors(error, form.setError, ['email', 'currentPassword']);
      flash.failure(
        failureText('The e-mail address was not changed', error),
        messages.failureSeconds,
      );
    }
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Change e-mail address" className="mb-4">
      <h3 className="h6">E-mail address</h3>
      <p className="text-body-secondary">
        You sign in with <strong>{email}</strong>.
      </p>
      <FormField
        id="account-new-email"
        label="New e-mail address"
        type="email"
        autoComplete="email"
        inputMode="email"
        registration={form.register('email')}
        error={errors.email?.message}
      />
      <FormField
        id="account-email-password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        registration={form.register('currentPassword')}
        error={errors.currentPassword?.message}
      />
      <Button type="submit" variant="primary" disabled={isSubmitting}>
        Change e-mail address
      </Button>
    </Form>
  );
}

const passwordFormSchema = z
  .object({
    currentPassword: currentPasswordSchema,
    newPassword: newPasswordSchema,
    repeat: z.string(),
  })
  .check(typedTwice('newPassword'));
type PasswordFormValues = z.infer<typeof passwordFormSchema>;

function PasswordForm({ email }: { email: string }) {
  const changePassword = useChangePassword();
  const flash = useFlash();
  const form = useForm<PasswordFormValues>({
    resolver: zodResolver(passwordFormSchema),
    reValidateMode: 'onChange',
    defaultValues: { currentPassword: '', newPassword: '', repeat: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const { revoked } = await changePassword.mutateAsync({ currentPassword, newPassword });
      form.reset();
      flash.success(passwordChangedText(revoked), ACCOUNT_MESSAGE_SECONDS);
    } catch (error) {
      applyServerErrors(error, form.setError, ['currentPassword', 'newPassword']);
      flash.failure(failureText('The password was not changed', error), messages.failureSeconds);
    }
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Change password" className="mb-4">
      <h3 className="h6">Password</h3>
      <p className="text-body-secondary">
        Every other session of your account ends when the password changes; this one stays.
      </p>
      <UsernameHint email={email} />
      <FormField
        id="account-current-password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        registration={form.register('currentPassword')}
        error={errors.currentPassword?.message}
      />
      <FormField
        id="account-new-password"
        label="New password"
        type="password"
        autoComplete="new-password"
        registration={form.register('newPassword')}
        error={errors.newPassword?.message}
        help={PASSWORD_RULES_TEXT}
      />
      <FormField
        id="account-repeat-password"
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        registration={form.register('repeat')}
        error={errors.repeat?.message}
      />
      <Button type="submit" variant="primary" disabled={isSubmitting}>
        Change password
      </Button>
    </Form>
  );
}

function SignOutEverywhere() {
  const signOutEverywhere = useSignOutEverywhere();
  const flash = useFlash();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const headingId = useId();

  async function confirm() {
    try {
      const { revoked } = await signOutEverywhere.mutateAsync();
      setAsking(false);
      flash.success(signedOutEverywhereText(revoked), ACCOUNT_MESSAGE_SECONDS);
      navigate(paths.login);
    } catch (error) {
      setAsking(false);
      flash.failure(failureText('You were not signed out', error), messages.failureSeconds);
    }
  }

  return (
    <section aria-labelledby={headingId}>
      <h3 className="h6" id={headingId}>
        Sessions
      </h3>
      <p className="text-body-secondary">
        Signed in on a device you no longer have, or left signed in somewhere? End every session of
        your account, this one included.
      </p>
      <Button variant="outline-danger" onClick={() => setAsking(true)}>
        Sign out everywhere
      </Button>
      <ConfirmDialog
        show={asking}
        busy={signOutEverywhere.isPending}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        onCancel={() => setAsking(false)}
        onConfirm={() => void confirm()}
      >
        <p className="mb-0">
          Every session of your account ends, on every device and in this browser too: you must sign
          in again wherever you use the panel. Open pages stop updating at once.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/**
 * The signed-in operator's own account: e-mail address, password, two-factor sign-in, and its
 * sessions.
 */
export function AccountPanel({ email }: { email: string }) {
  return (
    <Card className="mt-4">
      <Card.Header as="h2" className="h5">
        Account
      </Card.Header>
      <Card.Body>
        <EmailForm email={email} />
        <PasswordForm email={email} />
        <TwoFactorPanel email={email} />
        <SignedInSessions email={email} />
        <SignOutEverywhere />
      </Card.Body>
    </Card>
  );
}
