import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { secondFactorSchema } from '../../../shared/two-factor-schema.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { ApiError } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { FAILURE_SECONDS } from '../../lib/shell-messages.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';
import { authMessages } from './auth-messages.ts';
import { signInSecondFactor } from './sign-in-api.ts';

/**
 * The second step of signing in, for an account with two-factor sign-in on: the password
 * was right, and a code from the authenticator app (or a backup code) finishes it.
 */
export function LoginCodePage() {
  usePageTitle('Two-factor sign-in');
  const flash = useFlash();
  const navigate = useNavigate();
  // A refusal that is not about the code (too many attempts, no network) stays on the page
  // until the next try: the operator has to wait before trying again.
  const [failure, setFailure] = useState<string | null>(null);
  const form = useSchemaForm(secondFactorSchema, ['code']);
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await signInSecondFactor(values);
      flash.success(authMessages.loggedIn.text, authMessages.loggedIn.seconds);
      navigate(paths.dashboard);
    } catch (error) {
      // The password step has expired (or never happened here): only a new one helps.
      if (error instanceof ApiError && error.status === 401) {
        flash.failure(error.message, FAILURE_SECONDS);
        navigate(paths.login, { replace: true });
        return;
      }
      const message = applyServerErrors(error, form.setError, ['code']);
      if (!(error instanceof ApiError && error.fieldErrors.code)) setFailure(message);
    }
  });

  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-4">Two-factor sign-in</h1>
        <p>
          Open the authenticator app on your phone and enter the code it shows for Client Panel.
        </p>
        <form noValidate onSubmit={onSubmit} aria-label="Two-factor sign-in">
          {/* Not a numeric field: backup codes have letters. */}
          <FormField
            id="login-code"
            label="Authentication code"
            autoComplete="one-time-code"
            registration={form.register('code')}
            error={errors.code}
            help="Or one of your backup codes"
          />
          {failure ? (
            <div role="alert" className="alert alert-danger">
              {failure}
            </div>
          ) : null}
          <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
            Verify
          </button>
        </form>
        <p className="text-center mt-3 mb-0">
          <Link to={paths.login}>Back to sign in</Link>
        </p>
      </div>
    </div>
  );
}
