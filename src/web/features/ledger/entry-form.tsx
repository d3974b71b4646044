import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import type { Client } from '../../../shared/client-schema.ts';
import {
  addDays,
  dateSchema,
  isCalendarDate,
  newEntrySchema,
} from '../../../shared/ledger-schema.ts';
import { formatInr, paiseFromAmount, parseAmount } from '../../../shared/money.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import type { MessageId } from '../../i18n/catalogues.ts';
import { errorText } from '../../i18n/errors.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { formatDay } from '../../lib/dates.ts';
import type { EntryFormKind } from '../../lib/details-page-state.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { usePanelToday } from '../../lib/panel-today.ts';
import { usePaymentTerms, useRecordEntry } from './ledger-api.ts';

// The kind is the button that opened the form; the date is always sent (today unless changed);
// an empty due date is not sent: the charge is due by the payment terms.
const entryFieldsSchema = z
  .extend(z.required(z.omit(newEntrySchema, { kind: true, dueOn: true }), { on: true }), {
    dueOn: z.optional(z.union([z.literal(''), dateSchema('dueOn')])),
  })
  .check(
    z.refine(({ on, dueOn }) => !dueOn || dueOn >= on, {
      // Looked up when the form is checked, in the language chosen by then.
      error: () => translate('ledger.entry.dueBeforeDate'),
      path: ['dueOn'],
    }),
  );
type EntryFormInput = z.input<typeof entryFieldsSchema>;
type EntryFormOutput = z.output<typeof entryFieldsSchema>;

const TEXT = {
  payment: {
    title: 'ledger.entry.recordPayment',
    save: 'ledger.entry.savePayment',
    done: messages.paymentRecorded,
  },
  charge: {
    title: 'ledger.entry.addCharge',
    save: 'ledger.entry.saveCharge',
    done: messages.chargeAdded,
  },
} as const satisfies Record<EntryFormKind, { title: MessageId; save: MessageId; done: unknown }>;

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
  const credit = formatInr(-after);
  if (owed > 0n)
    return translate('ledger.entry.overpaysOwed', { owed: formatInr(owed), name, credit });
  if (owed === 0n) return translate('ledger.entry.overpaysNothingOwed', { name, credit });
  return translate('ledger.entry.overpaysCredit', { name, already: formatInr(-owed), credit });
}

/**
 * When a charge dated `on` falls due by the payment terms: "due in 15 days (payment terms),
 * on 20 Oct 2026".
 */
export function termsDueText(days: number, on: string): string {
  return isCalendarDate(on)
    ? translate('ledger.entry.termsDueOn', { days, day: formatDay(addDays(on, days)) })
    : translate('ledger.entry.termsDue', { days });
}

/** Under the due date: what leaving it empty means, by the operator's payment terms. */
function DueHint({ on }: { on: string }) {
  const t = useT();
  const terms = usePaymentTerms();
  if (terms.data !== undefined) {
    return <>{t('ledger.entry.dueHint', { terms: termsDueText(terms.data, on) })}</>;
  }
  if (terms.isError) {
    return (
      <span className="text-danger">
        {t('ledger.entry.dueHintUnread', { why: errorText(terms.error) })}
      </span>
    );
  }
  return <>{t('ledger.entry.dueHintTerms')}</>;
}

/**
 * "Record payment" or "Add charge" on a client's page: amount, date, for a charge when it is
 * due, and an optional note.
 */
export function EntryForm({
  client,
  kind,
  onDone,
}: {
  client: Client;
  kind: EntryFormKind;
  onDone(): void;
}) {
  const t = useT();
  const recordEntry = useRecordEntry(client.id);
  const today = usePanelToday();
  const flash = useFlash();
  const form = useForm<EntryFormInput, unknown, EntryFormOutput>({
    resolver: zodResolver(entryFieldsSchema),
    reValidateMode: 'onChange',
    defaultValues: { amount: '', on: today, dueOn: '', note: '' },
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
      const { dueOn, ...entry } = values;
      await recordEntry.mutateAsync({
        kind,
        ...entry,
        ...(kind === 'charge' && dueOn ? { dueOn } : {}),
      });
    } catch (failure) {
      applyServerErrors(failure, form.setError, ['amount', 'on', 'dueOn', 'note']);
      flash.failure(
        failureText(translate('ledger.entry.notSaved', { kind }), failure),
        messages.failureSeconds,
      );
      return;
    }
    flash.success(translate(text.done.id), text.done.seconds);
    onDone();
  });

  const amount = form.register('amount');
  return (
    <Card className="mt-3" border={kind === 'payment' ? 'success' : 'danger'}>
      <Card.Body>
        <Form
          noValidate
          onSubmit={submit}
          aria-labelledby={`${idPrefix}-title`}
          // Escape leaves the form as it leaves a dialog, keeping nothing typed.
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !isSubmitting) {
              event.preventDefault();
              onDone();
            }
          }}
        >
          <h2 id={`${idPrefix}-title`} className="h5">
            {t(text.title)}
          </h2>
          <FormField
            id={`${idPrefix}-amount`}
            label={t('ledger.entry.amount')}
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
            label={t('ledger.entry.date')}
            type="date"
            registration={form.register('on')}
            error={errors.on?.message}
          />
          {kind === 'charge' ? (
            <FormField
              id={`${idPrefix}-due`}
              label={t('ledger.entry.dueOn')}
              type="date"
              registration={form.register('dueOn')}
              error={errors.dueOn?.message}
              help={<DueHint on={String(form.watch('on'))} />}
            />
          ) : null}
          <FormField
            id={`${idPrefix}-note`}
            label={t('ledger.entry.note')}
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
              {t(text.save)}
            </Button>
            <Button variant="outline-secondary" onClick={onDone}>
              {t('ledger.cancel')}
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
