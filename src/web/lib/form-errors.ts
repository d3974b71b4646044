import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.ts';

/** Puts the server's per-field messages under the matching inputs; returns the overall message. */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
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
