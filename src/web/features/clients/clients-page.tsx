import { ClientsList } from './clients-list.tsx';

export function ClientsPage() {
  return <ClientsList />;
}
