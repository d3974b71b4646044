import { type Client, clientSchema } from '../../../shared/client-schema.ts';
import { ApiError } from '../../lib/api-client.ts';

/** The current client sent with a 409, when the error is one. */
export function conflictingClient(error: unknown): Client | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const parsed = clientSchema.safeParse((error.body as { client?: unknown } | null)?.client);
  return parsed.success ? parsed.data : null;
}
