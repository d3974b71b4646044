import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, test } from 'vitest';
import { MAX_SESSIONS_TO_END } from './account-schema.ts';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth-schema.ts';
import { IMPORT_FIELDS } from './client-csv-import.ts';
import { NAME_MAX_LENGTH, NAME_MIN_LENGTH } from './client-fields-schema.ts';
import { MAX_BULK_IDS } from './client-schema.ts';
import { MAX_PAYMENT_TERMS_DAYS } from './collection-schema.ts';
import { NOTE_MAX_LENGTH } from './ledger-schema.ts';
import english from './locales/en/validation.json' with { type: 'json' };
import hindi from './locales/hi/validation.json' with { type: 'json' };
import { REMINDER_MESSAGE_MAX_LENGTH } from './reminder-schema.ts';
import { MAX_LINK_DAYS, REFERENCE_MAX_LENGTH, REFERENCE_MIN_LENGTH } from './share-link-schema.ts';
import {
  codeMessage,
  fillPlaceholders,
  type ValidationCode,
  validationCodeOf,
  validationMessage,
  validationValuesOf,
} from './validation-messages.ts';

const codes = Object.keys(english).map((id) => id.slice('validation.'.length) as ValidationCode);

/** A value for each placeholder of a text, unlike any word of the catalogue. */
function sampleValues(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/\{(\w+)\}/g)].map((match) => [match[1], `«${match[1]} 7»`]),
  );
}

describe('the field messages', () => {
  test.each(codes)('%s reads back as its own code, with the values it was given', (code) => {
    const values = sampleValues(english[`validation.${code}`]);
    const message = validationMessage(code, values);
    expect(validationCodeOf(message)).toBe(code);
    expect(validationValuesOf(code, message)).toEqual(values);
  });

  test.each(codes)(
    '%s reads back from the form the browser writes it in, with the values it was given',
    (code) => {
      const values = sampleValues(english[`validation.${code}`]);
      const message = codeMessage(code, values);
      expect(message).not.toContain(english[`validation.${code}`]);
      expect(validationCodeOf(message)).toBe(code);
      expect(validationValuesOf(code, message)).toEqual(values);
    },
  );

  test('a message zod wrote itself has no code', () => {
    expect(validationCodeOf('Invalid input: expected string, received number')).toBeUndefined();
  });

  test('each English text is the text of one code only', () => {
    const texts = Object.values(english);
    expect(new Set(texts).size).toBe(texts.length);
  });

  test('the placeholders are filled as Lingui fills them, in both languages', () => {
    // The browser fills field messages without a message parser: only simple placeholders.
    for (const catalogue of [english, hindi] as Record<string, string>[]) {
      const i18n = setupI18n({
        locale: 'en',
        messages: {
          en: Object.fromEntries(
            Object.entries(catalogue).map(([id, text]) => [id, compileMessage(text)]),
          ),
        },
      });
      for (const [id, text] of Object.entries(catalogue)) {
        const values = sampleValues(text);
        expect(fillPlaceholders(text, values), id).toBe(i18n._(id, values));
      }
    }
  });

  test('the numbers written in the texts are the limits the schemas apply', () => {
    const written: [ValidationCode, number | string][] = [
      ['fname.too-short', NAME_MIN_LENGTH],
      ['fname.too-long', NAME_MAX_LENGTH],
      ['lname.too-short', NAME_MIN_LENGTH],
      ['lname.too-long', NAME_MAX_LENGTH],
      ['email.too-long', EMAIL_MAX_LENGTH],
      ['password.too-short', PASSWORD_MIN_LENGTH],
      ['password.too-long', PASSWORD_MAX_LENGTH],
      ['note.too-long', NOTE_MAX_LENGTH],
      ['sessionIds.too-many', MAX_SESSIONS_TO_END],
      ['ids.too-many', MAX_BULK_IDS],
      ['exportIds.too-many', MAX_BULK_IDS],
      ['paymentTermsDays.too-large', MAX_PAYMENT_TERMS_DAYS],
      ['expiresInDays.too-large', MAX_LINK_DAYS],
      ['reference.too-short', REFERENCE_MIN_LENGTH],
      ['reference.too-long', REFERENCE_MAX_LENGTH],
      ['message.too-long', REMINDER_MESSAGE_MAX_LENGTH.toLocaleString('en-IN')],
      ['importColumns.unknown', IMPORT_FIELDS.join(', ')],
    ];
    for (const [code, limit] of written) {
      expect(validationMessage(code), code).toContain(` ${limit}`);
      expect((hindi as Record<string, string>)[`validation.${code}`], code).toContain(`${limit}`);
    }
  });
});
