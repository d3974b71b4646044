import { validationCodeOf } from '../../shared/validation-messages.ts';
import { errorText, fieldErrorText } from '../i18n/errors.ts';
import { ApiError } from './api-client.ts';

/**
 * A form's way to put a message under a field: react-hook-form's `setError` and
 * useSchemaForm's alike.
 */
type SetFieldError<Field extends string> = (
  field: Field,
  error: { type: 'server'; message: string },
) => void;

/**
 * Puts the server's per-field messages under the matching inputs, in the chosen language (from
 * their `fieldCodes`); returns the overall message, likewise.
 */
export function applyServerErrors<Field extends string>(
  error: unknown,
  setError: SetFieldError<Field>,
  fields: readonly Field[],
): string {
  if (error instanceof ApiError) {
    for (const field of fields) {
      const message = error.fieldErrors[field];
      if (message) {
        setError(field, {
          type: 'server',
          message: fieldErrorText(message, error.fieldCodes[field]),
        });
      }
    }
  }
  return errorText(error);
}

/**
 * A field's message as the form found it (the shared schema's code, checked in the browser) in
 * the chosen language; a text already translated (the server's, through applyServerErrors)
 * stays as it is.
 */
export function fieldMessageText(message: string | undefined): string | undefined {
  return message === undefined ? undefined : fieldErrorText(message, validationCodeOf(message));
}
