import { useNavigate } from 'react-router';
import { signInSchema } from '../../../shared/auth-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';
import { authMessages } from './auth-messages.ts';
import { signIn } from './sign-in-api.ts';

export function LoginPage() {
  usePageTitle('Login');
  const flash = useFlash();
  const navigate = useNavigate();
  const form = useSchemaForm(signInSchema, ['email', 'password']);
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await signIn(values);
      // The password was right; the account asks for a code as well before it signs in.
      if ('secondFactorRequired' in answer) {
        navigate(paths.loginCode);
        return;
      }
      flash.success(authMessages.loggedIn.text, authMessages.loggedIn.seconds);
      navigate(paths.dashboard);
    } catch (error) {
      const message = applyServerErrors(error, form.setError, ['email', 'password']);
      flash.failure(message, authMessages.loginFailedSeconds);
    }
  });

  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-4">Login</h1>
        <form noValidate onSubmit={onSubmit} aria-label="Login">
          <FormField
            id="login-email"
            label="Email"
            type="email"
            autoComplete="email"
            registration={form.register('email')}
            error={errors.email}
          />
          <FormField
            id="login-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            registration={form.register('password')}
            error={errors.password}
          />
          <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
            Login
          </button>
        </form>
      </div>
    </div>
  );
}
