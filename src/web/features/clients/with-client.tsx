import type { ReactNode } from 'react';
import type { Client } from '../../../shared/client-schema.ts';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { useT } from '../../i18n/translate.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { ClientNotFound } from './client-not-found.tsx';
import { useClient } from './clients-api.ts';

/**
 * Renders its children with the client once loaded; "Client not found" for an unknown id or
 * one deleted elsewhere; loading or failure otherwise.
 */
export function WithClient({
  id,
  children,
}: {
  id: string;
  children: (client: Client) => ReactNode;
}) {
  const t = useT();
  const client = useClient(id);
  if (client.isPending) return <Loading />;
  if (client.isError) {
    if (client.error instanceof ApiError && client.error.status === 404) return <ClientNotFound />;
    return (
      <LoadFailed
        what={t('clients.load.client')}
        error={client.error}
        onRetry={() => client.refetch()}
      />
    );
  }
  if (client.data === null) return <ClientNotFound deletedElsewhere />;
  return children(client.data);
}
