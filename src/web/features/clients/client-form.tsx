import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { clientFieldsSchema } from '../../../shared/client-schema.ts';
import { FormField } from '../../components/form-field.tsx';
import { applyServerErrors } from '../../lib/form-errors.ts';

const FIELD_NAMES = ['fname', 'lname', 'email', 'phone', 'balance'] as const;

// With the balance locked by a setting, the form neither shows nor checks a typed balance.
// Not strict: the form still holds the locked balance, which must be dropped, not refused.
const fieldsWithoutBalance = z.object(clientFieldsSchema.shape).omit({ balance: true });

export type ClientFormValues = z.input<typeof clientFieldsSchema>;
export type ClientFormOutput = Omit<z.output<typeof clientFieldsSchema>, 'balance'> & {
  balance?: string;
};

interface ClientFormProps {
  idPrefix: string;
  label: string;
  initialValues: ClientFormValues;
  balanceDisabled: boolean;
  /** Resolves when saved; throws to keep what was typed and show the server's messages. */
  onSubmit(values: ClientFormOutput): Promise<void>;
  /** Replaces what the form shows (after a 409, the current data). */
  resetTo?: ClientFormValues | null;
}

export function ClientForm({
  idPrefix,
  label,
  initialValues,
  balanceDisabled,
  onSubmit,
  resetTo,
}: ClientFormProps) {
  const form = useForm<ClientFormValues, unknown, ClientFormOutput>({
    resolver: zodResolver(balanceDisabled ? fieldsWithoutBalance : clientFieldsSchema) as never,
    reValidateMode: 'onChange',
    defaultValues: initialValues,
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (resetTo) form.reset(resetTo);
  }, [resetTo, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, FIELD_NAMES);
    }
  });

  const field = (name: (typeof FIELD_NAMES)[number]) => ({
    id: `${idPrefix}-${name}`,
    registration: form.register(name),
    error: errors[name]?.message,
  });

  return (
    <Form noValidate onSubmit={submit} aria-label={label}>
      <FormField label="First Name" autoComplete="off" {...field('fname')} />
      <FormField label="Last Name" autoComplete="off" {...field('lname')} />
      <FormField label="Email" type="email" autoComplete="off" {...field('email')} />
      <FormField
        label="Phone"
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        {...field('phone')}
      />
      {balanceDisabled ? (
        <Form.Group className="mb-3" controlId={`${idPrefix}-balance`}>
          <Form.Label>Balance</Form.Label>
          <Form.Control
            type="text"
            value={String(form.watch('balance') ?? '')}
            disabled
            readOnly
            aria-describedby={`${idPrefix}-balance-help`}
          />
          <Form.Text id={`${idPrefix}-balance-help`} muted>
            The balance is locked by a setting. Change it from the client's page.
          </Form.Text>
        </Form.Group>
      ) : (
        <FormField label="Balance" inputMode="decimal" autoComplete="off" {...field('balance')} />
      )}
      <Button type="submit" variant="primary" className="w-100" disabled={isSubmitting}>
        Submit
      </Button>
    </Form>
  );
}
