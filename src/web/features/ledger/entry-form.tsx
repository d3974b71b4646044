import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import type { Client } from '../../../shared/client-schema.ts';
import { newEntrySchema } from '../../../shared/ledger-schema.ts';
import { formatAmount, paiseFromAmount, parseAmount } from '../../../shared/money.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { balanceText } from '../../components/money.tsx';
import type { EntryFormKind } from '../../lib/details-page-state.ts';

import { applyServerErrors } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { usePanelToday, useRecordEntry } from './ledger-api.ts';

// The kind is the button that opened the form; the date is always sent (today unless changed).
const entryFieldsSchema = z.required(z.omit(newEntrySchema, { kind: true }), { on: true });
type EntryFormInput = z.input<typeof entryFieldsSchema>;
type EntryFormOutput = z.output<typeof entryFieldsSchema>;

const TEXT = {
  payment: { title: 'Record payment', save: 'Save payment', done: messages.paymentRecorded },
  charge: { title: 'Add charge', save: 'Save charge', done: messages.chargeAdded },
} as const;

/**
 * What a payment of this amount would leave, when it is more than the client owes: the
 * operator is told before saving that the client goes into credit.
 */
export function overpaymentWarning(client: Client, amount: string): string | null {
  const parsed = parseAmount(amount);
  if (!parsed.ok || parsed.paise <= 0n) return null;
  const owed = paiseFromAmount(client.balance);
  const after = owed - parsed.paise;
  if (after >= 0n) return null;
  const name = `${client.fname} ${client.lname}`;
  const credit = balanceText(formatAmount(after));
  if (owed > 0n) {
    return `This is more than the ${balanceText(client.balance)} ${name} owes: after it they will be ${credit}.`;
  }
  const standing = owed === 0n ? 'owes nothing' : `is already ${balanceText(client.balance)}`;
  return `${name} ${standing}: after this payment they will be ${credit}.`;
}

/** "Record payment" or "Add charge" on a client's page: amount, date and an optional note. */
export function EntryForm({
  client,
  kind,
  onDone,
}: {
  client: Client;
  kind: EntryFormKind;
  onDone(): void;
}) {
  const recordEntry = useRecordEntry(client.id);
  const today = usePanelToday();
  const flash = useFlash();
  const form = useForm<EntryFormInput, unknown, EntryFormOutput>({
    resolver: zodResolver(entryFieldsSchema),
    reValidateMode: 'onChange',
    defaultValues: { amount: '', on: today, note: '' },
  });
  // The panel's day may arrive after the form opened; a date the operator chose stays.
  useEffect(() => {
    if (!form.getFieldState('on').isDirty) form.resetField('on', { defaultValue: today });
  }, [today, form]);
  const { errors, isSubmitting } = form.formState;
  const amountRef = useRef<HTMLInputElement | null>(null);
  const text = TEXT[kind];
  const idPrefix = `entry-${kind}`;
  const warning =
    kind === 'payment' ? overpaymentWarning(client, String(form.watch('amount'))) : null;

  // The form opens ready to type the amount.
  useEffect(() => {
    amountRef.current?.focus();
  }, []);

  const submit = form.handleSubmit(async (values) => {
    try {
      await recordEntry.mutateAsync({ kind, ...values });
    } catch (failure) {
      applyServerErrors(failure, form.setError, ['amount', 'on', 'note']);
      flash.failure(failureText(`The ${kind} was not saved`, failure), messages.failureSeconds);
      return;
    }
    flash.success(text.done.text, text.done.seconds);
    onDone();
  });

  const amount = form.register('amount');
  return (
    <Card className="mt-3" border={kind === 'payment' ? 'success' : 'danger'}>
      <Card.Body>
        <Form noValidate onSubmit={submit} aria-labelledby={`${idPrefix}-title`}>
          <h2 id={`${idPrefix}-title`} className="h5">
            {text.title}
          </h2>
          <FormField
            id={`${idPrefix}-amount`}
            label="Amount (₹)"
            inputMode="decimal"
            autoComplete="off"
            registration={{
              ...amount,
              ref: (element: HTMLInputElement | null) => {
                amount.ref(element);
                amountRef.current = element;
              },
            }}
            error={errors.amount?.message}
          />
          {warning ? (
            <Alert variant="warning" role="status" className="py-2">
              {warning}
            </Alert>
          ) : null}
          <FormField
            id={`${idPrefix}-on`}
            label="Date"
            type="date"
            registration={form.register('on')}
            error={errors.on?.message}
          />
          <FormField
            id={`${idPrefix}-note`}
            label="Note (optional)"
            rows={2}
            registration={form.register('note')}
            error={errors.note?.message}
          />
          <div className="d-flex gap-2">
            <Button
              type="submit"
              variant={kind === 'payment' ? 'success' : 'danger'}
              disabled={isSubmitting}
            >
              {text.save}
            </Button>
            <Button variant="outline-secondary" onClick={onDone}>
              Cancel
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
