import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { signInSchema } from '../../../shared/auth-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { errorText } from '../../i18n/errors.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { returnPath } from '../../lib/return-path.ts';
import { sessionEndedElsewhere } from '../../lib/session.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';
import { authMessages } from './auth-messages.ts';
import { signIn } from './sign-in-api.ts';

export function LoginPage() {
  const t = useT();
  usePageTitle(t('auth.login.title'));
  const flash = useFlash();
  const navigate = useNavigate();
  // An invitation opened before signing in is where they go on to (the code step too).
  const { search } = useLocation();
  const form = useSchemaForm(signInSchema, ['email', 'password']);
  const { errors, isSubmitting } = form;
  // Read once: the note stays while this page is shown, whatever is read meanwhile.
  const [ended] = useState(sessionEndedElsewhere);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await signIn(values);
      // The password was right; the account asks for a code as well before it signs in.
      if ('secondFactorRequired' in answer) {
        navigate(`${paths.loginCode}${search}`);
        return;
      }
      flash.success(translate(authMessages.loggedIn.id), authMessages.loggedIn.seconds);
      navigate(returnPath(search) ?? paths.dashboard);
    } catch (error) {
      applyServerErrors(error, form.setError, ['email', 'password']);
      flash.failure(errorText(error), authMessages.loginFailedSeconds);
    }
  });

  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-4">{t('auth.login.title')}</h1>
        {ended ? (
          <p className="alert alert-info" role="status">
            {t('auth.login.sessionEnded')}
          </p>
        ) : null}
        <form noValidate onSubmit={onSubmit} aria-label={t('auth.login.title')}>
          <FormField
            id="login-email"
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            registration={form.register('email')}
            error={errors.email}
          />
          <FormField
            id="login-password"
            label={t('auth.password')}
            type="password"
            autoComplete="current-password"
            registration={form.register('password')}
            error={errors.password}
          />
          <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
            {t('auth.login.submit')}
          </button>
        </form>
      </div>
    </div>
  );
}
