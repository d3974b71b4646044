import { validationCodeOf } from '../../../shared/validation-messages.ts';
import { fieldErrorText } from '../../i18n/errors.ts';

/**
 * A field's message in the chosen language: the shared schemas' English texts (checked here
 * or sent back by the server) carry a code, and the catalogue has each code's text.
 */
export function fieldText(message: string | undefined): string | undefined {
  return message === undefined ? undefined : fieldErrorText(message, validationCodeOf(message));
}
