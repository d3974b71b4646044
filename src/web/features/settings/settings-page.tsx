import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { paths } from '../../../shared/paths.ts';
import {
  DEFAULT_SETTINGS,
  type Settings,
  settingsSchema,
} from '../../../shared/settings-schema.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { PageCard } from '../../components/page-card.tsx';
import type { MessageId } from '../../i18n/catalogues.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { failureText, messages } from '../../lib/messages.ts';
import { useSession } from '../../lib/session.ts';
import { useSettings } from '../../lib/settings-service.ts';
import { AccountPanel } from './account-panel.tsx';
import { OperatorsPanel } from './operators-panel.tsx';
import { SecurityPanel } from './security-panel.tsx';
import { useChangeSettings } from './settings-api.ts';
import { TwoFactorRequired } from './two-factor-required.tsx';

const SETTING_LABELS: Record<keyof Settings, MessageId> = {
  allowRegistrations: 'settings.allowRegistrations',
  disableBalanceOnAdd: 'settings.disableBalanceOnAdd',
  disableBalanceOnEdit: 'settings.disableBalanceOnEdit',
};

/**
 * The settings page; for an operator who must first turn on the two-factor sign-in the
 * administrator requires (the guards bring them here from every page), that alone.
 */
export function SettingsPage({
  book,
  gettingPaid,
}: {
  book?: ReactNode;
  gettingPaid?: ReactNode;
} = {}) {
  const session = useSession();
  const required = session.data?.twoFactorSetupRequired === true;
  // Kept once shown, until the page is left: once it is on, the setup goes on to the
  // dashboard, and the rest of this page must not flash by while the session is read again.
  const [setupOnly, setSetupOnly] = useState(required);
  if (required && !setupOnly) setSetupOnly(true);
  if (setupOnly && session.data) return <TwoFactorRequired email={session.data.email} />;
  return <PanelSettings book={book} gettingPaid={gettingPaid} />;
}

/**
 * `book`: the current book and its members; `gettingPaid`: its collection settings; both from
 * other features (pages/).
 */
function PanelSettings({ book, gettingPaid }: { book: ReactNode; gettingPaid: ReactNode }) {
  const t = useT();
  const settings = useSettings();
  const session = useSession();
  const isAdministrator = session.data?.role === 'admin';
  const changeSettings = useChangeSettings();
  const flash = useFlash();
  const form = useForm<Settings>({
    resolver: zodResolver(settingsSchema),
    defaultValues: settings.data ?? DEFAULT_SETTINGS,
  });

  const loaded = settings.data;
  const isPlaceholder = settings.isPlaceholderData;
  useEffect(() => {
    // Show what the server holds once it answers, unless the operator is mid-edit.
    if (loaded && !isPlaceholder && !form.formState.isDirty) form.reset(loaded);
  }, [loaded, isPlaceholder, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await changeSettings.mutateAsync(values);
      form.reset(saved);
      flash.success(translate(messages.settingsSaved.id), messages.settingsSaved.seconds);
    } catch (error) {
      flash.failure(failureText(translate('settings.saveFailed'), error), messages.failureSeconds);
    }
  });

  if (settings.isError && !settings.data) {
    return (
      <LoadFailed
        what={t('settings.load')}
        error={settings.error}
        onRetry={() => settings.refetch()}
      />
    );
  }
  if (!settings.data) return <Loading />;

  return (
    <>
      <PageCard
        title={t('settings.title')}
        backTo={paths.dashboard}
        backLabel={t('settings.backToDashboard')}
      >
        <Form noValidate onSubmit={onSubmit} aria-label={t('settings.title')}>
          {isAdministrator ? null : (
            <p className="text-body-secondary" id="settings-read-only">
              {t('settings.readOnly')}
            </p>
          )}
          <fieldset
            disabled={!isAdministrator}
            aria-describedby={isAdministrator ? undefined : 'settings-read-only'}
          >
            {(Object.keys(SETTING_LABELS) as (keyof Settings)[]).map((name) => (
              <Form.Check
                key={name}
                id={`setting-${name}`}
                type="checkbox"
                className="mb-3"
                label={t(SETTING_LABELS[name])}
                {...form.register(name)}
              />
            ))}
          </fieldset>
          {isAdministrator ? (
            <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
              {t('settings.submit')}
            </Button>
          ) : null}
        </Form>
      </PageCard>
      {book}
      {gettingPaid}
      {isAdministrator ? <SecurityPanel /> : null}
      {session.data ? <AccountPanel user={session.data} /> : null}
      {isAdministrator && session.data ? (
        <OperatorsPanel currentOperatorId={session.data.id} currentEmail={session.data.email} />
      ) : null}
    </>
  );
}
