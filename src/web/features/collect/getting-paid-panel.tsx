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
  linkPreviewText,
  MAX_PAYMENT_TERMS_DAYS,
  TEMPLATE_PLACEHOLDERS,
  templatesFor,
} from '../../../shared/collection-schema.ts';
import { paiseFromAmount } from '../../../shared/money.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField } from '../../components/form-field.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { translate, useT } from '../../i18n/translate.tsx';
import { useMay } from '../../lib/books.ts';
import { applyServerErrors, fieldMessageText } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { ClientLanguage } from './client-language.tsx';
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

/** The other languages' templates, as the server names their fields in `fieldErrors`. */
const HINDI_FIELDS = ['templates.hi.reminderMessage', 'templates.hi.reminderEmailSubject'] as const;

// A plain line, not a status region: the flash messages are the page's one status region.
function LoadingLine() {
  const t = useT();
  return <p className="text-body-secondary">{t('collect.loading')}</p>;
}

const PLACEHOLDERS = TEMPLATE_PLACEHOLDERS.map((word) => `{${word}}`).join(', ');

/** The reminder as one client would read it, in their language, from what the form holds now. */
function ReminderPreview({ values }: { values: CollectionSettings }) {
  const t = useT();
  const clients = usePreviewClients();
  const [chosen, setChosen] = useState('');
  const selectId = useId();
  const items = clients.data?.items ?? [];
  const client = items.find((item) => item.id === chosen) ?? items[0];
  if (clients.isError) {
    return (
      <LoadFailed
        what={t('collect.settings.previewLoadWhat')}
        error={clients.error}
        onRetry={() => clients.refetch()}
      />
    );
  }
  if (!clients.data) return <LoadingLine />;
  if (!client) {
    return <p className="text-body-secondary">{t('collect.settings.previewNoClient')}</p>;
  }
  const templates = templatesFor(values, client.language);
  const fill = (template: string) =>
    fillTemplate(template, {
      name: `${client.fname} ${client.lname}`,
      owedPaise: paiseFromAmount(client.balance),
      business: values.businessName.trim(),
      link: linkPreviewText(client.language),
      upi: values.upiId.trim(),
    });
  return (
    <section aria-labelledby={`${selectId}-heading`} className="border rounded p-3 mb-3">
      <h3 id={`${selectId}-heading`} className="h6">
        {t('collect.settings.preview')}
      </h3>
      <Form.Group controlId={selectId} className="mb-2">
        <Form.Label className="small mb-1">{t('collect.settings.previewFor')}</Form.Label>
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
      <p className="small text-body-secondary mb-1" data-testid="preview-language">
        <ClientLanguage client={client} />
      </p>
      <p className="small mb-1" data-testid="preview-subject">
        <span className="text-body-secondary">{t('collect.settings.previewSubject')} </span>
        <span lang={client.language}>{fill(templates.reminderEmailSubject)}</span>
      </p>
      <p
        className="mb-0 preview-message"
        data-testid="preview-message"
        lang={client.language}
        style={{ whiteSpace: 'pre-wrap' }}
      >
        {fill(templates.reminderMessage)}
      </p>
    </section>
  );
}

function GettingPaidForm({ saved }: { saved: CollectionSettings }) {
  const t = useT();
  const save = useSaveCollectionSettings();
  const flash = useFlash();
  const mayChange = useMay('collection-settings.change');
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
      flash.success(translate('collect.settings.saved'), messages.settingsSaved.seconds);
    } catch (error) {
      applyServerErrors(error, form.setError, [...FIELDS, ...HINDI_FIELDS]);
      flash.failure(
        failureText(translate('collect.settings.notSaved'), error),
        messages.failureSeconds,
      );
    }
  });

  const field = (name: Exclude<(typeof FIELDS)[number], 'paymentTermsDays'>) => ({
    id: `getting-paid-${name}`,
    registration: form.register(name),
    error: fieldMessageText(errors[name]?.message),
  });

  return (
    <Form noValidate onSubmit={submit} aria-label={t('collect.settings.title')}>
      {mayChange ? null : (
        <p className="text-body-secondary" id="getting-paid-read-only">
          {t('books.collection.readOnly')}
        </p>
      )}
      <fieldset
        disabled={!mayChange}
        aria-describedby={mayChange ? undefined : 'getting-paid-read-only'}
      >
        <FormField
          label={t('collect.settings.businessName')}
          autoComplete="organization"
          {...field('businessName')}
        />
        <FormField
          label={t('collect.settings.upiId')}
          autoComplete="off"
          help={t('collect.settings.upiIdHelp')}
          {...field('upiId')}
        />
        <FormField
          label={t('collect.settings.payeeName')}
          autoComplete="off"
          help={t('collect.settings.payeeNameHelp')}
          {...field('payeeName')}
        />
        <FormField
          label={t('collect.settings.otherWays')}
          rows={3}
          help={t('collect.settings.otherWaysHelp')}
          {...field('otherWaysToPay')}
        />
        {/* Each client is reminded in their language: the English words beside the Hindi. */}
        <div className="row">
          <div className="col-md-6">
            <FormField
              label={t('collect.settings.reminderMessage')}
              rows={5}
              help={t('collect.settings.placeholders', { list: PLACEHOLDERS })}
              {...field('reminderMessage')}
            />
            <FormField
              label={t('collect.settings.emailSubject')}
              help={t('collect.settings.placeholders', { list: PLACEHOLDERS })}
              {...field('reminderEmailSubject')}
            />
          </div>
          <div className="col-md-6">
            <FormField
              id="getting-paid-hi-reminderMessage"
              label={t('collect.settings.hindiMessage')}
              rows={5}
              lang="hi"
              help={t('collect.settings.hindiHelp', { list: PLACEHOLDERS })}
              registration={form.register('templates.hi.reminderMessage')}
              error={errors.templates?.hi?.reminderMessage?.message}
            />
            <FormField
              id="getting-paid-hi-reminderEmailSubject"
              label={t('collect.settings.hindiSubject')}
              lang="hi"
              help={t('collect.settings.placeholders', { list: PLACEHOLDERS })}
              registration={form.register('templates.hi.reminderEmailSubject')}
              error={errors.templates?.hi?.reminderEmailSubject?.message}
            />
          </div>
        </div>
        <FormField
          id="getting-paid-paymentTermsDays"
          label={t('collect.settings.terms')}
          type="number"
          inputMode="numeric"
          autoComplete="off"
          help={t('collect.settings.termsHelp', { max: MAX_PAYMENT_TERMS_DAYS })}
          registration={form.register('paymentTermsDays', { valueAsNumber: true })}
          error={errors.paymentTermsDays?.message}
        />
      </fieldset>
      <ReminderPreview
        values={{
          ...DEFAULT_COLLECTION_SETTINGS,
          ...values,
          templates: values.templates ?? DEFAULT_COLLECTION_SETTINGS.templates,
          paymentTermsDays: values.paymentTermsDays ?? 0,
        }}
      />
      {mayChange ? (
        <Button type="submit" variant="primary" disabled={isSubmitting}>
          {t('collect.settings.save')}
        </Button>
      ) : null}
    </Form>
  );
}

/**
 * Settings, "Getting paid": what this operator's clients are shown when asked to pay, with
 * the reminder filled in for a real client as it is typed (the shared filler, so the preview
 * is what the server will send).
 */
export function GettingPaidPanel() {
  const t = useT();
  const settings = useCollectionSettings();
  return (
    <Card className="mt-4">
      <Card.Header as="h2" className="h5">
        {t('collect.settings.title')}
      </Card.Header>
      <Card.Body>
        {settings.isError && !settings.data ? (
          <LoadFailed
            what={t('collect.settings.loadWhat')}
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
