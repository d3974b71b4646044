import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { refreshAfterChange } from '../features/clients/clients-api.ts';
import { applyClientEvent } from '../features/clients/clients-cache.ts';
import { connectLive } from '../lib/live-socket.ts';
import { sessionQueryKey } from '../lib/session.ts';
import { cacheSettings, settingsQueryKey } from '../lib/settings-service.ts';

/** Keeps this tab's cached data current with every change the operator makes elsewhere. */
export function useLiveSync(operatorId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!operatorId) return;
    return connectLive({
      onEvent(event) {
        if (event.type === 'settings.updated') {
          cacheSettings(event.settings);
          queryClient.setQueryData(settingsQueryKey, event.settings);
        } else if (event.type === 'entry.created') {
          // The client's new balance patches what is shown; the ledger views reload.
          applyClientEvent(queryClient, { type: 'client.updated', client: event.client });
        } else if (event.type === 'clients.imported') {
          // Many new clients at once: the lists, totals and chart reload.
          refreshAfterChange(queryClient);
        } else if (event.type === 'resync') {
          void queryClient.invalidateQueries();
        } else if (event.type === 'operator.updated') {
          // This operator's role changed: the navbar and settings page follow.
          queryClient.setQueryData(sessionQueryKey, event.operator);
        } else {
          applyClientEvent(queryClient, event);
        }
      },
      onResync() {
        void queryClient.invalidateQueries();
      },
      onSessionEnded() {
        void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      },
    });
  }, [operatorId, queryClient]);
}
