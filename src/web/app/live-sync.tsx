import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
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
        } else {
          applyClientEvent(queryClient, event);
        }
      },
      onReconnect() {
        void queryClient.invalidateQueries();
      },
      onSessionEnded() {
        void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      },
    });
  }, [operatorId, queryClient]);
}
