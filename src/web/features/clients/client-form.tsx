import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { clientFieldsSchema } from '../../../shared/client-fields-schema.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../../shared/languages.ts';
import { formatPhone, parsePhone } from '../../../shared/phone.ts';
import { FormField } from '../../components/form-field.tsx';
import { useT } from '../../i18n/translate.tsx';
import { applyServerErrors, fieldMessageText } from '../../lib/form-errors.ts';

const FIELD_NAMES = ['fname', 'lname', 'email', 'phone', 'balance', 'language'] as const;

// With the balance locked by a setting, the form neither shows nor checks a typed balance.
// Not strict: the form still holds the locked balance, which must be dropped, not refused.
const fieldsWithoutBalance = z.omit(z.object(clientFieldsSchema.shape), { balance: true });

/** What the form shows: the client's language always chosen (a new client's: the operator's). */
export type ClientFormValues = z.input<typeof clientFieldsSchema> & { language: Language };
export type ClientFormOutput = Omit<z.output<typeof clientFieldsSchema>, 'balance'> & {
  balance?: string;
};

interface ClientFormProps {
  idPrefix: string;
  /** The form's name, in the chosen language. */
  label: string;
  initialValues: ClientFormValues;
  balanceDisabled: boolean;
  /** Says where the balance is entered while the form cannot take it (in the chosen language). */
  lockedBalanceHelp?: string;
  /** Resolves when saved; throws to keep what was typed and show the server's messages. */
  onSubmit(values: ClientFormOutput): Promise<void>;
  /** Replaces what the form shows (after a 409, the current data). */
  resetTo?: ClientFormValues | null;
  /**
   * The phone as stored is not a real number (stored before the panel checked): its message
   * shows as the form opens, not only once Submit is pressed.
   */
  checkPhoneOnOpen?: boolean;
}

export function ClientForm({
  idPrefix,
  label,
  initialValues,
  balanceDisabled,
  lockedBalanceHelp,
  onSubmit,
  resetTo,
  checkPhoneOnOpen = false,
}: ClientFormProps) {
  const t = useT();
  const form = useForm<ClientFormValues, unknown, ClientFormOutput>({
    resolver: zodResolver(balanceDisabled ? fieldsWithoutBalance : clientFieldsSchema) as never,
    reValidateMode: 'onChange',
    defaultValues: initialValues,
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (resetTo) form.reset(resetTo);
  }, [resetTo, form]);

  useEffect(() => {
    if (checkPhoneOnOpen) void form.trigger('phone');
  }, [checkPhoneOnOpen, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, FIELD_NAMES);
    }
  });

  const field = (name: Exclude<(typeof FIELD_NAMES)[number], 'language'>) => ({
    id: `${idPrefix}-${name}`,
    registration: form.register(name),
    error: errors[name]?.message,
  });

  return (
    <Form noValidate onSubmit={submit} aria-label={label}>
      <FormField label={t('clients.field.fname')} autoComplete="off" {...field('fname')} />
      <FormField label={t('clients.field.lname')} autoComplete="off" {...field('lname')} />
      <FormField
        label={t('clients.field.email')}
        type="email"
        autoComplete="off"
        {...field('email')}
      />
      <FormField
        label={t('clients.field.phone')}
        type="tel"
        inputMode="tel"
        autoComplete="off"
        {...field('phone')}
        registration={form.register('phone', {
          // A message shown as the form opened goes as soon as the number is real, as it
          // would after a Submit.
          onChange: () => {
            if (checkPhoneOnOpen) void form.trigger('phone');
          },
          // Once a number is complete it is shown the way people read it.
          onBlur: (event) => {
            const parsed = parsePhone(String(event.target.value));
            if (parsed.ok) form.setValue('phone', formatPhone(parsed.e164));
          },
        })}
        help={t('clients.form.phoneHelp')}
      />
      <Form.Group className="mb-3" controlId={`${idPrefix}-language`}>
        <Form.Label>{t('clients.field.language')}</Form.Label>
        <Form.Select
          isInvalid={Boolean(errors.language)}
          aria-invalid={Boolean(errors.language)}
          aria-describedby={
            errors.language
              ? `${idPrefix}-language-help ${idPrefix}-language-error`
              : `${idPrefix}-language-help`
          }
          {...form.register('language')}
        >
          {/* Each language named in itself, as the language menus name them. */}
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </Form.Select>
        <Form.Text id={`${idPrefix}-language-help`} muted>
          {t('clients.form.languageHelp')}
        </Form.Text>
        <Form.Control.Feedback type="invalid" id={`${idPrefix}-language-error`}>
          {fieldMessageText(errors.language?.message)}
        </Form.Control.Feedback>
      </Form.Group>
      {balanceDisabled ? (
        <Form.Group className="mb-3" controlId={`${idPrefix}-balance`}>
          <Form.Label>{t('clients.field.balance')}</Form.Label>
          <Form.Control
            type="text"
            value={String(form.watch('balance') ?? '')}
            disabled
            readOnly
            aria-describedby={`${idPrefix}-balance-help`}
          />
          <Form.Text id={`${idPrefix}-balance-help`} muted>
            {lockedBalanceHelp ?? t('clients.form.balanceLocked')}
          </Form.Text>
        </Form.Group>
      ) : (
        <FormField
          label={t('clients.field.balance')}
          inputMode="decimal"
          autoComplete="off"
          {...field('balance')}
        />
      )}
      <Button type="submit" variant="primary" className="w-100" disabled={isSubmitting}>
        {t('clients.form.submit')}
      </Button>
    </Form>
  );
}
