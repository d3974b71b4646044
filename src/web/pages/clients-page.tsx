import { usePageTitle } from '../components/page-title.ts';
import { ClientsList } from '../features/clients/clients-list.tsx';
import { listReminders } from './list-reminders.tsx';

export function ClientsPage() {
  usePageTitle('Clients');
  return <ClientsList {...listReminders} />;
}
