import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useId, useState } from 'react';
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
import {
  newPasswordSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  typedTwice,
} from '../../../shared/auth-schema.ts';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../../shared/languages.ts';
import { paths } from '../../../shared/paths.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField, UsernameHint } from '../../components/form-field.tsx';
import { T, translate, useT } from '../../i18n/translate.tsx';
import { useLanguage } from '../../i18n/use-language.ts';
import { useLanguageChoice } from '../../i18n/use-language-choice.ts';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import type { SessionUser } from '../../lib/session.ts';
import { useChangeEmail, useChangePassword, useSignOutEverywhere } from './account-api.ts';
import { SignedInSessions } from './account-sessions.tsx';
import { TwoFactorPanel } from './two-factor-panel.tsx';

/** The page is drawn again in the new language: the menu that changed it keeps the focus. */
let focusLanguageWhenDrawn = false;

/**
 * The language of the pages, as the navbar's menu chooses it: at once, kept on the account
 * (every device) and in this browser.
 */
function LanguageChoice({ user }: { user: SessionUser }) {
  const t = useT();
  const language = useLanguage();
  const choose = useLanguageChoice(user);
  const focusIfChanged = useCallback((select: HTMLSelectElement | null) => {
    if (select && focusLanguageWhenDrawn) {
      focusLanguageWhenDrawn = false;
      select.focus();
    }
  }, []);
  return (
    <Form.Group className="mb-4" controlId="account-language">
      <h3 className="h6">
        <Form.Label className="mb-0">{t('settings.language.label')}</Form.Label>
      </h3>
      <Form.Select
        ref={focusIfChanged}
        value={language}
        aria-describedby="account-language-help"
        onChange={(event) => {
          if (!isLanguage(event.target.value)) return;
          focusLanguageWhenDrawn = document.activeElement === event.target;
          void choose(event.target.value);
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </Form.Select>
      <Form.Text id="account-language-help">{t('settings.language.help')}</Form.Text>
    </Form.Group>
  );
}

function EmailForm({ email }: { email: string }) {
  const t = useT();
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
      flash.success(
        translate('settings.email.changed', { email: user.email }),
        ACCOUNT_MESSAGE_SECONDS,
      );
    } catch (error) {
      applyServerErrors(error, form.setError, ['email', 'currentPassword']);
      flash.failure(
        failureText(translate('settings.email.notChanged'), error),
        messages.failureSeconds,
      );
    }
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-label={t('settings.email.change')} className="mb-4">
      <h3 className="h6">{t('settings.email.heading')}</h3>
      <p className="text-body-secondary">
        <T id="settings.email.current" values={{ email }} components={{ 0: <strong /> }} />
      </p>
      <FormField
        id="account-new-email"
        label={t('settings.email.new')}
        type="email"
        autoComplete="email"
        inputMode="email"
        registration={form.register('email')}
        error={errors.email?.message}
      />
      <FormField
        id="account-email-password"
        label={t('settings.currentPassword')}
        type="password"
        autoComplete="current-password"
        registration={form.register('currentPassword')}
        error={errors.currentPassword?.message}
      />
      <Button type="submit" variant="primary" disabled={isSubmitting}>
        {t('settings.email.change')}
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
  const t = useT();
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
      flash.success(
        translate('settings.password.changed', { count: revoked }),
        ACCOUNT_MESSAGE_SECONDS,
      );
    } catch (error) {
      applyServerErrors(error, form.setError, ['currentPassword', 'newPassword']);
      flash.failure(
        failureText(translate('settings.password.notChanged'), error),
        messages.failureSeconds,
      );
    }
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-label={t('auth.changePassword')} className="mb-4">
      <h3 className="h6">{t('settings.password.heading')}</h3>
      <p className="text-body-secondary">{t('settings.password.intro')}</p>
      <UsernameHint email={email} />
      <FormField
        id="account-current-password"
        label={t('settings.currentPassword')}
        type="password"
        autoComplete="current-password"
        registration={form.register('currentPassword')}
        error={errors.currentPassword?.message}
      />
      <FormField
        id="account-new-password"
        label={t('auth.newPassword')}
        type="password"
        autoComplete="new-password"
        registration={form.register('newPassword')}
        error={errors.newPassword?.message}
        help={t('auth.password.rules', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
      />
      <FormField
        id="account-repeat-password"
        label={t('auth.repeatPassword')}
        type="password"
        autoComplete="new-password"
        registration={form.register('repeat')}
        error={errors.repeat?.message}
      />
      <Button type="submit" variant="primary" disabled={isSubmitting}>
        {t('auth.changePassword')}
      </Button>
    </Form>
  );
}

function SignOutEverywhere() {
  const t = useT();
  const signOutEverywhere = useSignOutEverywhere();
  const flash = useFlash();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const headingId = useId();

  async function confirm() {
    try {
      const { revoked } = await signOutEverywhere.mutateAsync();
      setAsking(false);
      flash.success(
        translate('settings.everywhere.done', { count: revoked }),
        ACCOUNT_MESSAGE_SECONDS,
      );
      navigate(paths.login);
    } catch (error) {
      setAsking(false);
      flash.failure(
        failureText(translate('settings.everywhere.failed'), error),
        messages.failureSeconds,
      );
    }
  }

  return (
    <section aria-labelledby={headingId}>
      <h3 className="h6" id={headingId}>
        {t('settings.everywhere.heading')}
      </h3>
      <p className="text-body-secondary">{t('settings.everywhere.intro')}</p>
      <Button variant="outline-danger" onClick={() => setAsking(true)}>
        {t('settings.everywhere.button')}
      </Button>
      <ConfirmDialog
        show={asking}
        busy={signOutEverywhere.isPending}
        title={t('settings.everywhere.confirmTitle')}
        confirmLabel={t('settings.everywhere.button')}
        onCancel={() => setAsking(false)}
        onConfirm={() => void confirm()}
      >
        <p className="mb-0">{t('settings.everywhere.confirmBody')}</p>
      </ConfirmDialog>
    </section>
  );
}

/**
 * The signed-in operator's own account: the pages' language, e-mail address, password,
 * two-factor sign-in, and its sessions.
 */
export function AccountPanel({ user }: { user: SessionUser }) {
  const t = useT();
  const { email } = user;
  return (
    <Card className="mt-4">
      <Card.Header as="h2" className="h5">
        {t('settings.account.heading')}
      </Card.Header>
      <Card.Body>
        <LanguageChoice user={user} />
        <EmailForm email={email} />
        <PasswordForm email={email} />
        <TwoFactorPanel email={email} />
        <SignedInSessions email={email} />
        <SignOutEverywhere />
      </Card.Body>
    </Card>
  );
}
