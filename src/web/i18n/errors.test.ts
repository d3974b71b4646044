import { expect, test } from 'vitest';
import { signInSchema } from '../../shared/auth-schema.ts';
import { validationMessage } from '../../shared/validation-messages.ts';
import { ApiError, answerOf } from '../lib/api-client.ts';
import { errorText, fieldErrorText } from './errors.ts';
import { changeLanguage } from './language.ts';

/** A refusal as the web app meets it: the server's body, read by the API client. */
function refusal(status: number, body: object): ApiError {
  try {
    answerOf(status, JSON.stringify(body), {} as never);
  } catch (error) {
    if (error instanceof ApiError) return error;
  }
  throw new Error('not refused');
}

const rowsRefused = refusal(400, {
  message: '3 rows are not valid; nothing was stored',
  code: 'import-rows-not-valid',
  values: { rows: 3 },
});
const missingColumn = 'No column is Phone: choose which one it is';

test('a refusal shows in the chosen language, with the values its text names', async () => {
  expect(errorText(rowsRefused)).toBe('3 rows are not valid; nothing was stored');
  await changeLanguage('hi', { remember: false });
  expect(errorText(rowsRefused)).toBe('3 पंक्तियाँ सही नहीं हैं; कुछ भी सहेजा नहीं गया');
  expect(
    errorText(refusal(401, { message: 'Invalid email or password', code: 'invalid-credentials' })),
  ).toBe('ईमेल या पासवर्ड गलत है');
  // A failure the server did not name: the web app's own code for its kind.
  expect(errorText(refusal(502, { error: 'Bad Gateway' }))).toBe(
    'सर्वर से जवाब नहीं मिला। फिर से कोशिश करें।',
  );
  expect(errorText(new Error('boom'))).toBe('कुछ गड़बड़ हो गई');
});

test('a field message shows in the chosen language, from its code or its English text', async () => {
  await changeLanguage('hi', { remember: false });
  expect(fieldErrorText(missingColumn, 'import.column-missing')).toBe(
    'कोई कॉलम Phone नहीं है: चुनें कि कौन-सा कॉलम यह है',
  );
  // The server's English, sent without a code (a reminder's channel): the text names it.
  expect(fieldErrorText('First name is required', undefined)).toBe('पहला नाम ज़रूरी है');
  // zod's own words have the generic code.
  expect(fieldErrorText('Invalid input', 'invalid')).toBe('यह मान सही नहीं है');
  await changeLanguage('en', { remember: false });
  expect(fieldErrorText(missingColumn, 'import.column-missing')).toBe(missingColumn);
});

test("the browser's schemas write codes, which show in the chosen language", async () => {
  // No English in the browser's schemas (decision 0013): the first page does without it.
  const refused = signInSchema.safeParse({ email: '', password: '' });
  const message = refused.error?.issues[0]?.message ?? '';
  expect(message).toBe('validation.email.required');
  expect(fieldErrorText(message, undefined)).toBe('Email is required');
  const twice = validationMessage('importColumns.twice', { name: 'Phone' });
  expect(fieldErrorText(twice, undefined)).toBe('columns names Phone twice');
  await changeLanguage('hi', { remember: false });
  expect(fieldErrorText(twice, undefined)).toBe('columns में Phone दो बार है');
});

test("a dialog's code or a request that found no server says so, not 'Something went wrong'", async () => {
  const chunk = new TypeError(
    'Failed to fetch dynamically imported module: http://localhost/assets/remind-dialog-x1.js',
  );
  expect(errorText(chunk)).toBe('Could not reach the server. Check your connection and try again.');
  expect(errorText(new TypeError('NetworkError when attempting to fetch resource.'))).toBe(
    'Could not reach the server. Check your connection and try again.',
  );
  // A fault of the page's own is not blamed on the connection.
  expect(errorText(new TypeError('client.fname is undefined'))).toBe('Something went wrong');
  await changeLanguage('hi', { remember: false });
  expect(errorText(chunk)).toBe('सर्वर तक नहीं पहुँच सके। अपना इंटरनेट कनेक्शन जाँचें और फिर से कोशिश करें।');
  await changeLanguage('en', { remember: false });
});
