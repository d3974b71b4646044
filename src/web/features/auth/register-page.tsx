import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import {
  PASSWORD_RULES_TEXT,
  type SignUpInput,
  signUpSchema,
} from '../../../shared/auth-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { authMessages } from './auth-messages.ts';
import { useSignUp } from './sign-in-api.ts';

export function RegisterPage() {
  usePageTitle('Register');
  const signUp = useSignUp();
  const flash = useFlash();
  const navigate = useNavigate();
  const form = useForm<SignUpInput>({
    resolver: zodResolver(signUpSchema),
    reValidateMode: 'onChange',
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  // Unlike the original, this waits for the server: a refusal keeps the operator here.
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await signUp.mutateAsync(values);
      flash.success(authMessages.registered.text, authMessages.registered.seconds);
      navigate(paths.dashboard);
    } catch (error) {
      const message = applyServerErrors(error, form.setError, ['email', 'password']);
      flash.failure(message, authMessages.registerFailedSeconds);
    }
  });

  return (
    <Card className="mx-auto auth-card">
      <Card.Body>
        <h1 className="h3 text-center mb-4">Register</h1>
        <Form noValidate onSubmit={onSubmit} aria-label="Register">
          <FormField
            id="register-email"
            label="Email"
            type="email"
            autoComplete="email"
            registration={form.register('email')}
            error={errors.email?.message}
          />
          <FormField
            id="register-password"
            label="Password"
            type="password"
            autoComplete="new-password"
            registration={form.register('password')}
            error={errors.password?.message}
            help={PASSWORD_RULES_TEXT}
          />
          <Button type="submit" variant="primary" className="w-100" disabled={isSubmitting}>
            Register
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
