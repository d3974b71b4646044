import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { collectionSettingsSchema } from '../../shared/collection-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { api } from './api-client.ts';
import { collectKeys } from './query-keys.ts';

/** The answer carries every field, the payment terms too (a request may leave them out). */
export const collectionSettingsAnswer = z.required(z.object(collectionSettingsSchema.shape));

/**
 * The book's collection settings: the getting-paid panel edits them, the charge form reads
 * their payment terms, the printed statement the business's name and ways to pay. One query
 * (one key): a saved change, or the live event of one, reaches them all.
 */
export const collectionSettingsQuery = queryOptions({
  queryKey: collectKeys.settings,
  queryFn: () => api.get(apiPaths.collectionSettings, collectionSettingsAnswer),
});
