import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type SignInInput, signInSchema } from '../../../shared/auth-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { authMessages } from './auth-messages.ts';
import { useSignIn } from './sign-in-api.ts';

export function LoginPage() {
  usePageTitle('Login');
  const signIn = useSignIn();
  const flash = useFlash();
  const navigate = useNavigate();
  const form = useForm<SignInInput>({
    resolver: zodResolver(signInSchema),
    reValidateMode: 'onChange',
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await signIn.mutateAsync(values);
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
    <Card className="mx-auto auth-card">
      <Card.Body>
        <h1 className="h3 text-center mb-4">Login</h1>
        <Form noValidate onSubmit={onSubmit} aria-label="Login">
          <FormField
            id="login-email"
            label="Email"
            type="email"
            autoComplete="email"
            registration={form.register('email')}
            error={errors.email?.message}
          />
          <FormField
            id="login-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            registration={form.register('password')}
            error={errors.password?.message}
          />
          <Button type="submit" variant="primary" className="w-100" disabled={isSubmitting}>
            Login
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
