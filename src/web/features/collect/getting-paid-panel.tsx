import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import {
  type CollectionSettings,
  type CollectionSettingsInput,
  collectionSettingsSchema,
  DEFAULT_COLLECTION_SETTINGS,
  fillTemplate,
  LINK_PREVIEW_TEXT,
  MAX_PAYMENT_TERMS_DAYS,
  TEMPLATE_PLACEHOLDERS,
} from '../../../shared/collection-schema.ts';
import { paiseFromAmount } from '../../../shared/money.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import {
  useCollectionSettings,
  usePreviewClients,
  useSaveCollectionSettings,
} from './collect-api.ts';

const FIELDS = [
  'businessName',
  'upiId',
  'payeeName',
  'otherWaysToPay',
  'reminderMessage',
  'reminderEmailSubject',
  'paymentTermsDays',
] as const satisfies readonly (keyof CollectionSettings)[];

// A plain line, not a status region: the flash messages are the page's one status region.
function LoadingLine() {
  return <p className="text-body-secondary">Loading…</p>;
}

const PLACEHOLDER_HELP = `Placeholders: ${TEMPLATE_PLACEHOLDERS.map((word) => `{${word}}`).join(', ')}.`;

/** The reminder as one client would read it, from what the form holds now. */
function ReminderPreview({ values }: { values: CollectionSettingsInput }) {
  const clients = usePreviewClients();
  const [chosen, setChosen] = useState('');
  const selectId = useId();
  const items = clients.data?.items ?? [];
  const client = items.find((item) => item.id === chosen) ?? items[0];
  if (clients.isError) {
    return (
      <LoadFailed
        what="a client for the preview"
        error={clients.error}
        onRetry={() => clients.refetch()}
      />
    );
  }
  if (!clients.data) return <LoadingLine />;
  if (!client) {
    return <p className="text-body-secondary">Add a client to see the reminder filled in.</p>;
  }
  const fill = (template: string) =>
    fillTemplate(template, {
      name: `${client.fname} ${client.lname}`,
      owedPaise: paiseFromAmount(client.balance),
      business: values.businessName.trim(),
      link: LINK_PREVIEW_TEXT,
      upi: values.upiId.trim(),
    });
  return (
    <section aria-labelledby={`${selectId}-heading`} className="border rounded p-3 mb-3">
      <h3 id={`${selectId}-heading`} className="h6">
        Preview
      </h3>
      <Form.Group controlId={selectId} className="mb-2">
        <Form.Label className="small mb-1">For client</Form.Label>
        <Form.Select
          size="sm"
          value={client.id}
          onChange={(event) => setChosen(event.target.value)}
        >
          {items.map((item) => (
            <option key={item.id} value={item.id}>
              {item.fname} {item.lname}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <p className="small mb-1" data-testid="preview-subject">
        <span className="text-body-secondary">E-mail subject: </span>
        {fill(values.reminderEmailSubject)}
      </p>
      <p
        className="mb-0 preview-message"
        data-testid="preview-message"
        style={{ whiteSpace: 'pre-wrap' }}
      >
        {fill(values.reminderMessage)}
      </p>
    </section>
  );
}

function GettingPaidForm({ saved }: { saved: CollectionSettings }) {
  const save = useSaveCollectionSettings();
  const flash = useFlash();
  const form = useForm<CollectionSettingsInput>({
    resolver: zodResolver(collectionSettingsSchema),
    reValidateMode: 'onChange',
    defaultValues: saved,
  });
  const { errors, isSubmitting } = form.formState;
  const values = form.watch();

  const submit = form.handleSubmit(async (changed) => {
    try {
      const answer = await save.mutateAsync(changed);
      form.reset(answer);
      flash.success('Saved', messages.settingsSaved.seconds);
    } catch (error) {
      applyServerErrors(error, form.setError, FIELDS);
      flash.failure(
        failureText('Getting paid settings were not saved', error),
        messages.failureSeconds,
      );
    }
  });

  const field = (name: Exclude<(typeof FIELDS)[number], 'paymentTermsDays'>) => ({
    id: `getting-paid-${name}`,
    registration: form.register(name),
    error: errors[name]?.message,
  });

  return (
    <Form noValidate onSubmit={submit} aria-label="Getting paid">
      <FormField label="Business name" autoComplete="organization" {...field('businessName')} />
      <FormField
        label="UPI ID"
        autoComplete="off"
        help="Where UPI payments go, such as yourname@okbank. Empty: no UPI link or QR code."
        {...field('upiId')}
      />
      <FormField
        label="Payee name"
        autoComplete="off"
        help="The name UPI apps show; empty: the business name."
        {...field('payeeName')}
      />
      <FormField
        label="Other ways to pay"
        rows={3}
        help="Bank transfer details, cash at the shop…"
        {...field('otherWaysToPay')}
      />
      <FormField
        label="Reminder message"
        rows={4}
        help={PLACEHOLDER_HELP}
        {...field('reminderMessage')}
      />
      <FormField
        label="E-mail subject"
        help={PLACEHOLDER_HELP}
        {...field('reminderEmailSubject')}
      />
      <FormField
        id="getting-paid-paymentTermsDays"
        label="Payment terms (days)"
        type="number"
        inputMode="numeric"
        autoComplete="off"
        help={`Days after its date that a charge is due, 0 to ${MAX_PAYMENT_TERMS_DAYS}; 0: due at once. A charge can have its own due date.`}
        registration={form.register('paymentTermsDays', { valueAsNumber: true })}
        error={errors.paymentTermsDays?.message}
      />
      <ReminderPreview values={{ ...DEFAULT_COLLECTION_SETTINGS, ...values }} />
      <Button type="submit" variant="primary" disabled={isSubmitting}>
        Save
      </Button>
    </Form>
  );
}

/**
 * Settings, "Getting paid": what this operator's clients are shown when asked to pay, with
 * the reminder filled in for a real client as it is typed (the shared filler, so the preview
 * is what the server will send).
 */
export function GettingPaidPanel() {
  const settings = useCollectionSettings();
  return (
    <Card className="mt-4">
      <Card.Header as="h2" className="h5">
        Getting paid
      </Card.Header>
      <Card.Body>
        {settings.isError && !settings.data ? (
          <LoadFailed
            what="the getting paid settings"
            error={settings.error}
            onRetry={() => settings.refetch()}
          />
        ) : settings.data ? (
          <GettingPaidForm saved={settings.data} />
        ) : (
          <LoadingLine />
        )}
      </Card.Body>
    </Card>
  );
}
