import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { claimSchema } from '../../../shared/claim-schema.ts';
import { clientListSchema, clientSchema } from '../../../shared/client-schema.ts';
import type { CollectionSettingsInput } from '../../../shared/collection-schema.ts';
import { entrySchema } from '../../../shared/ledger-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import {
  type NewReminderInput,
  type ReminderChannel,
  reminderListSchema,
  reminderPreviewSchema,
  sentReminderSchema,
} from '../../../shared/reminder-schema.ts';
import {
  claimListSchema,
  createdShareLinkSchema,
  shareLinkListSchema,
} from '../../../shared/share-link-schema.ts';
import { api } from '../../lib/api-client.ts';
import {
  collectionSettingsAnswer,
  collectionSettingsQuery,
} from '../../lib/collection-settings.ts';
import { clientKeys, collectKeys, refreshAfterChange } from '../../lib/query-keys.ts';

/*
 * Getting paid (next-api.md, "Collection settings", "Statement links", "Reminders"): the
 * requests, each answer checked against its shared schema.
 */

export function useCollectionSettings() {
  return useQuery(collectionSettingsQuery);
}

export function useSaveCollectionSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: CollectionSettingsInput) =>
      api.put(apiPaths.collectionSettings, collectionSettingsAnswer, settings),
    onSuccess: (saved) => queryClient.setQueryData(collectKeys.settings, saved),
  });
}

/** A few clients to fill the preview for: those who owe most first, as a reminder would go. */
export function usePreviewClients() {
  return useQuery({
    queryKey: ['collect', 'preview-clients'],
    queryFn: () => api.get(`${apiPaths.clients}?limit=20&sort=balance&dir=desc`, clientListSchema),
  });
}

export function useShareLinks(clientId: string) {
  return useQuery({
    queryKey: collectKeys.shareLinks(clientId),
    queryFn: () => api.get(apiPaths.shareLinks(clientId), shareLinkListSchema),
  });
}

export function useCreateShareLink(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (expiresInDays: number) =>
      api.post(apiPaths.shareLinks(clientId), createdShareLinkSchema, { expiresInDays }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectKeys.shareLinks(clientId) }),
  });
}

export function useRevokeShareLink(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => api.delete(apiPaths.shareLink(clientId, linkId), z.null()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectKeys.shareLinks(clientId) }),
  });
}

export function useClaims(clientId: string) {
  return useQuery({
    queryKey: collectKeys.claims(clientId),
    queryFn: () => api.get(apiPaths.claims(clientId), claimListSchema),
  });
}

const confirmedClaimSchema = z.object({ entry: entrySchema, client: clientSchema });

/** Confirm (a payment is booked) or dismiss a claim; either way the client and ledger reload. */
export function useDecideClaim(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      claimId,
      decision,
    }: {
      claimId: string;
      decision: 'confirm' | 'dismiss';
    }) => {
      if (decision === 'confirm') {
        const { client } = await api.post(
          apiPaths.claimConfirm(clientId, claimId),
          confirmedClaimSchema,
        );
        queryClient.setQueryData(clientKeys.detail(clientId), client);
      } else {
        await api.post(apiPaths.claimDismiss(clientId, claimId), claimSchema);
        void queryClient.invalidateQueries({ queryKey: clientKeys.detail(clientId) });
      }
    },
    // Settled either way, or refused as no longer pending: what is shown is read again.
    onSettled: () => refreshAfterChange(queryClient),
  });
}

export function useReminderPreview(clientId: string, channel: ReminderChannel = 'whatsapp') {
  return useQuery({
    queryKey: [...collectKeys.reminders(clientId), 'preview', channel],
    queryFn: () => api.get(apiPaths.reminderPreview(clientId, channel), reminderPreviewSchema),
    // What the dialog opened with stays while it is open: the operator edits it.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

export function useSendReminder(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reminder: NewReminderInput) =>
      api.post(apiPaths.reminders(clientId), sentReminderSchema, reminder),
    onSuccess: () => {
      // The client's "last reminded" and its history change.
      void queryClient.invalidateQueries({ queryKey: clientKeys.detail(clientId) });
      void queryClient.invalidateQueries({ queryKey: clientKeys.lists });
      void queryClient.invalidateQueries({
        queryKey: collectKeys.reminders(clientId),
        predicate: (query) => query.queryKey.length === 3,
      });
      void queryClient.invalidateQueries({ queryKey: collectKeys.shareLinks(clientId) });
      // A client reminded while on the day's round leaves it.
      void queryClient.invalidateQueries({ queryKey: collectKeys.round });
    },
  });
}

export function useReminders(clientId: string) {
  return useQuery({
    queryKey: collectKeys.reminders(clientId),
    queryFn: () => api.get(apiPaths.reminders(clientId), reminderListSchema),
  });
}
