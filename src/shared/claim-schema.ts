import * as z from 'zod/mini';
import { apiAmountSchema } from './client-schema.ts';

/*
 * A client's "I have paid" as the API answers it, in a file of its own: the live channel
 * checks claims in every signed-in tab, without the statement links' input rules.
 */

export const CLAIM_STATUSES = ['pending', 'confirmed', 'dismissed'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export const claimSchema = z.object({
  id: z.string(),
  amount: apiAmountSchema,
  reference: z.string(),
  note: z.string(),
  createdAt: z.iso.datetime(),
  status: z.enum(CLAIM_STATUSES),
});
export type Claim = z.infer<typeof claimSchema>;
