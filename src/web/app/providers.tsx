import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FlashProvider } from '../components/flash-messages.tsx';
import { ApiError } from '../lib/api-client.ts';
import { rereadSessionOnRefusal } from '../lib/session.ts';

export function createQueryClient(): QueryClient {
  const onError = (error: Error): void => rereadSessionOnRefusal(client, error);
  const client = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        // A refusal (4xx) will not change on retry; a failed network or server may.
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
  return client;
}

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <FlashProvider>{children}</FlashProvider>
    </QueryClientProvider>
  );
}
