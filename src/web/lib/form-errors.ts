import { ApiError } from './api-client.ts';

/**
 * A form's way to put a message under a field: react-hook-form's `setError` and
 * useSchemaForm's alike.
 */
type SetFieldError<Field extends string> = (
  field: Field,
  error: { type: 'server'; message: string },
) => void;

/** Puts the server's per-field messages under the matching inputs; returns the overall message. */
export function applyServerErrors<Field extends string>(
  error: unknown,
  setError: SetFieldError<Field>,
  fields: readonly Field[],
): string {
  if (error instanceof ApiError) {
    for (const field of fields) {
      const message = error.fieldErrors[field];
      if (message) setError(field, { type: 'server', message });
    }
    return error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong';
}
