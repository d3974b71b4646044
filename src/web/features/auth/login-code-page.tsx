import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { secondFactorSchema } from '../../../shared/two-factor-schema.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { errorText } from '../../i18n/errors.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { returnPath } from '../../lib/return-path.ts';
import { FAILURE_SECONDS } from '../../lib/shell-messages.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';
import { authMessages } from './auth-messages.ts';
import { signInSecondFactor } from './sign-in-api.ts';

/**
 * The second step of signing in, for an account with two-factor sign-in on: the password
 * was right, and a code from the authenticator app (or a backup code) finishes it.
 */
export function LoginCodePage() {
  const t = useT();
  usePageTitle(t('auth.code.title'));
  const flash = useFlash();
  const navigate = useNavigate();
  const { search } = useLocation();
  // A refusal that is not about the code (too many attempts, no network) stays on the page
  // until the next try: the operator has to wait before trying again.
  const [failure, setFailure] = useState<string | null>(null);
  const form = useSchemaForm(secondFactorSchema, ['code']);
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await signInSecondFactor(values);
      flash.success(translate(authMessages.loggedIn.id), authMessages.loggedIn.seconds);
      navigate(returnPath(search) ?? paths.dashboard);
    } catch (error) {
      // The password step has expired (or never happened here): only a new one helps.
      if (error instanceof ApiError && error.status === 401) {
        flash.failure(errorText(error), FAILURE_SECONDS);
        navigate(paths.login, { replace: true });
        return;
      }
      applyServerErrors(error, form.setError, ['code']);
      if (!(error instanceof ApiError && error.fieldErrors.code)) setFailure(errorText(error));
    }
  });

  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-4">{t('auth.code.title')}</h1>
        <p>{t('auth.code.intro')}</p>
        <form noValidate onSubmit={onSubmit} aria-label={t('auth.code.title')}>
          {/* Not a numeric field: backup codes have letters. */}
          <FormField
            id="login-code"
            label={t('auth.code.label')}
            autoComplete="one-time-code"
            registration={form.register('code')}
            error={errors.code}
            help={t('auth.code.help')}
          />
          {failure ? (
            <div role="alert" className="alert alert-danger">
              {failure}
            </div>
          ) : null}
          <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
            {t('auth.code.submit')}
          </button>
        </form>
        <p className="text-center mt-3 mb-0">
          <Link to={paths.login}>{t('auth.code.back')}</Link>
        </p>
      </div>
    </div>
  );
}
