import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  signUpSchema,
} from '../../../shared/auth-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { errorText } from '../../i18n/errors.ts';
import { currentLanguage } from '../../i18n/language.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { useInviteCheck } from '../../lib/invite-check.ts';
import { inviteTokenOf } from '../../lib/return-path.ts';
import { useSettings } from '../../lib/settings-service.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';
import { authMessages } from './auth-messages.ts';
import { signUp } from './sign-in-api.ts';

export function RegisterPage() {
  const t = useT();
  usePageTitle(t('auth.register.title'));
  const flash = useFlash();
  const navigate = useNavigate();
  // Invited to a book: the account joins it as it is made, if the invitation is still good.
  const invite = inviteTokenOf(useLocation().search);
  const inviteCheck = useInviteCheck(invite);
  // An invitation that dies between the check and the sign-up is refused then: said the same way.
  const [refusedInvite, setRefusedInvite] = useState<string | null>(null);
  const unknownInvite = inviteCheck === 'unknown' || (invite !== null && refusedInvite === invite);
  const inviteToken = inviteCheck === 'open' && !unknownInvite ? invite : null;
  const settings = useSettings();
  // Without a good invitation an account is made only while registrations are open; when the
  // settings cannot be read, the form stays and the server decides.
  const registrationsOpen = settings.data?.allowRegistrations === true;
  const canRegister = !unknownInvite || registrationsOpen || settings.isError;
  const waiting =
    inviteCheck === 'checking' || (unknownInvite && !settings.data && !settings.isError);
  const form = useSchemaForm(signUpSchema, ['email', 'password']);
  const { errors, isSubmitting } = form;

  // Unlike the original, this waits for the server: a refusal keeps the operator here.
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      // The new account keeps the language its pages were read in (decision 0038).
      await signUp({
        ...values,
        language: currentLanguage(),
        ...(inviteToken ? { inviteToken } : {}),
      });
      flash.success(translate(authMessages.registered.id), authMessages.registered.seconds);
      navigate(paths.dashboard);
    } catch (error) {
      if (inviteToken && error instanceof ApiError && error.code === 'invite-not-found') {
        setRefusedInvite(inviteToken);
        return;
      }
      applyServerErrors(error, form.setError, ['email', 'password']);
      flash.failure(errorText(error), authMessages.registerFailedSeconds);
    }
  });

  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-4">{t('auth.register.title')}</h1>
        {inviteToken ? <p className="text-body-secondary">{t('auth.register.invited')}</p> : null}
        {unknownInvite ? (
          <div role="alert" className="text-danger mb-3">
            <p className="mb-1">{t('auth.register.inviteNotFound')}</p>
            {registrationsOpen ? <p className="mb-0">{t('auth.register.ownBook')}</p> : null}
          </div>
        ) : null}
        {waiting ? (
          <Loading />
        ) : !canRegister ? (
          <Link className="btn btn-primary w-100" to={paths.login}>
            {t('auth.login.title')}
          </Link>
        ) : (
          <form noValidate onSubmit={onSubmit} aria-label={t('auth.register.title')}>
            <FormField
              id="register-email"
              label={t('auth.email')}
              type="email"
              autoComplete="email"
              registration={form.register('email')}
              error={errors.email}
            />
            <FormField
              id="register-password"
              label={t('auth.password')}
              type="password"
              autoComplete="new-password"
              registration={form.register('password')}
              error={errors.password}
              help={t('auth.password.rules', {
                min: PASSWORD_MIN_LENGTH,
                max: PASSWORD_MAX_LENGTH,
              })}
            />
            <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
              {t('auth.register.submit')}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
