import { useNavigate } from 'react-router';
import { PASSWORD_RULES_TEXT, signUpSchema } from '../../../shared/auth-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { useSchemaForm } from '../../lib/use-schema-form.ts';
import { authMessages } from './auth-messages.ts';
import { signUp } from './sign-in-api.ts';

export function RegisterPage() {
  usePageTitle('Register');
  const flash = useFlash();
  const navigate = useNavigate();
  const form = useSchemaForm(signUpSchema, ['email', 'password']);
  const { errors, isSubmitting } = form;

  // Unlike the original, this waits for the server: a refusal keeps the operator here.
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await signUp(values);
      flash.success(authMessages.registered.text, authMessages.registered.seconds);
      navigate(paths.dashboard);
    } catch (error) {
      const message = applyServerErrors(error, form.setError, ['email', 'password']);
      flash.failure(message, authMessages.registerFailedSeconds);
    }
  });

  return (
    <div className="card mx-auto auth-card">
      <div className="card-body">
        <h1 className="h3 text-center mb-4">Register</h1>
        <form noValidate onSubmit={onSubmit} aria-label="Register">
          <FormField
            id="register-email"
            label="Email"
            type="email"
            autoComplete="email"
            registration={form.register('email')}
            error={errors.email}
          />
          <FormField
            id="register-password"
            label="Password"
            type="password"
            autoComplete="new-password"
            registration={form.register('password')}
            error={errors.password}
            help={PASSWORD_RULES_TEXT}
          />
          <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
            Register
          </button>
        </form>
      </div>
    </div>
  );
}
