import { usePageTitle } from '../../components/page-title.ts';
import { ClientsList } from './clients-list.tsx';

export function ClientsPage() {
  usePageTitle('Clients');
  return <ClientsList />;
}
