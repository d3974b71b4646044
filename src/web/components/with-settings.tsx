import type { ReactNode } from 'react';
import type { Settings } from '../../shared/settings-schema.ts';
import { useT } from '../i18n/translate.tsx';
import { useSettings } from '../lib/settings-service.ts';
import { LoadFailed, Loading } from './loading.tsx';

/** Renders its children with the settings once they are known; loading or failure otherwise. */
export function WithSettings({ children }: { children: (settings: Settings) => ReactNode }) {
  const t = useT();
  const settings = useSettings();
  if (settings.data) return children(settings.data);
  if (settings.isError) {
    return (
      <LoadFailed
        what={t('shell.load.settings')}
        error={settings.error}
        onRetry={() => settings.refetch()}
      />
    );
  }
  return <Loading />;
}
