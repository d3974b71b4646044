import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import type { Client } from '../../../shared/client-schema.ts';
import {
  type NewPromise,
  type NewPromiseInput,
  newPromiseSchema,
  PROMISE_IN_PAST_MESSAGE,
  type PromiseToPay,
} from '../../../shared/dues-schema.ts';
import { addDays, isCalendarDate } from '../../../shared/ledger-schema.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { translate, useT } from '../../i18n/translate.tsx';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { usePanelToday } from '../../lib/panel-today.ts';
import { useCreatePromise } from './dues-api.ts';
import { promiseAmountFor, promisedText, promiseValues } from './promise-text.tsx';

/** A week gives the client time to pay, and the operator a day to come back to them. */
const DEFAULT_PROMISE_DAYS = 7;

const FIELDS = ['amount', 'by', 'note'] as const;

/** The shared rule, and the server's "today or later" checked before sending. */
function formSchema(today: string) {
  return newPromiseSchema.check(
    z.refine((promise) => promise.by >= today, {
      error: PROMISE_IN_PAST_MESSAGE,
      path: ['by'],
      // Checked even while another field is wrong, once the date itself is one.
      when: (payload) => {
        const by = (payload.value as { by?: unknown } | undefined)?.by;
        return typeof by === 'string' && isCalendarDate(by);
      },
    }),
  );
}

/**
 * A promise to pay: how much (what is overdue, else the balance), by when (a week from the
 * panel's today) and a note. Saved, it replaces the client's open promise.
 */
export function PromiseForm({
  client,
  onDone,
  onCancel,
}: {
  client: Client;
  onDone(promise: PromiseToPay): void;
  onCancel(): void;
}) {
  const t = useT();
  const id = useId();
  const today = usePanelToday();
  const create = useCreatePromise(client.id);
  const flash = useFlash();
  const resolver = useMemo(() => zodResolver(formSchema(today)), [today]);
  const form = useForm<NewPromiseInput, unknown, NewPromise>({
    resolver,
    reValidateMode: 'onChange',
    defaultValues: {
      amount: promiseAmountFor(client),
      by: addDays(today, DEFAULT_PROMISE_DAYS),
      note: '',
    },
  });
  // The panel's day may arrive after the form opened; a date the operator chose stays.
  useEffect(() => {
    if (!form.getFieldState('by').isDirty) {
      form.resetField('by', { defaultValue: addDays(today, DEFAULT_PROMISE_DAYS) });
    }
  }, [today, form]);
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ amount, by, note }) => {
    let promise: PromiseToPay;
    try {
      promise = await create.mutateAsync({ amount, by, ...(note ? { note } : {}) });
    } catch (failure) {
      applyServerErrors(failure, form.setError, FIELDS);
      flash.failure(
        failureText(translate('collect.promise.notSaved'), failure),
        messages.failureSeconds,
      );
      return;
    }
    flash.success(
      translate('collect.promise.saved', promiseValues(promise, today)),
      messages.paymentRecorded.seconds,
    );
    onDone(promise);
  });

  return (
    <Form
      noValidate
      onSubmit={submit}
      aria-label={t('collect.promise.from', { name: `${client.fname} ${client.lname}` })}
    >
      <FormField
        id={`${id}-amount`}
        label={t('collect.promise.amount')}
        inputMode="decimal"
        autoComplete="off"
        registration={form.register('amount')}
        error={errors.amount?.message}
      />
      <FormField
        id={`${id}-by`}
        label={t('collect.promise.by')}
        type="date"
        registration={form.register('by')}
        error={errors.by?.message}
      />
      <FormField
        id={`${id}-note`}
        label={t('collect.promise.note')}
        rows={2}
        registration={form.register('note')}
        error={errors.note?.message}
      />
      <div className="d-flex gap-2">
        <Button type="submit" variant="primary" disabled={isSubmitting}>
          {t('collect.promise.save')}
        </Button>
        <Button variant="outline-secondary" onClick={onCancel}>
          {t('collect.cancel')}
        </Button>
      </div>
    </Form>
  );
}

/** "Promise" on a client's page and on the collection round. */
export function PromiseDialog({ client, onClose }: { client: Client; onClose(): void }) {
  const t = useT();
  const titleId = useId();
  return (
    <Modal show onHide={onClose} centered aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel={t('collect.close')}>
        <Modal.Title id={titleId}>
          {t('collect.promise.dialogTitle', { name: `${client.fname} ${client.lname}` })}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {client.promise ? (
          <p className="small text-body-secondary">
            {t('collect.promise.replaces', {
              status: client.promise.status,
              promised: promisedText(client.promise),
            })}
          </p>
        ) : null}
        <PromiseForm client={client} onDone={onClose} onCancel={onClose} />
      </Modal.Body>
    </Modal>
  );
}
