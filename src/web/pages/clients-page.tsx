import { usePageTitle } from '../components/page-title.ts';
import { ClientsList } from '../features/clients/clients-list.tsx';
import { useT } from '../i18n/translate.tsx';
import { listReminders } from './list-reminders.tsx';

export function ClientsPage() {
  const t = useT();
  usePageTitle(t('clients.title'));
  return <ClientsList {...listReminders} />;
}
