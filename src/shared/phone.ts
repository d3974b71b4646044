// The full metadata ("max"): the default one checks little more than a number's length, and
// took "1111111111" or a trunk 0 with 9 digits as Indian numbers. Reminders open WhatsApp
// chats on these numbers, so they must be real ones. About 48 KB gzipped with the library
// (the default metadata: 28 KB): only the client form's chunk (and the server) loads it
// (docs/decisions/0028-real-phone-numbers.md).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { validationMessage } from './validation-messages.ts';

/** Numbers written without a country code are Indian. */
export const DEFAULT_PHONE_COUNTRY = 'IN';

export const PHONE_REQUIRED_MESSAGE = validationMessage('phone.required');
export const PHONE_INVALID_MESSAGE = validationMessage('phone.invalid');

// What people write around the digits; anything else (letters, say) is not a phone number.
const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/;

/**
 * A number typed with Devanagari digits ("९८७६५ ४३२१०", as a Hindi keyboard writes them) is the
 * same number: its digits are read as 0–9.
 */
function withLatinDigits(text: string): string {
  return text.replace(/[\u0966-\u096F]/g, (digit) => String(digit.charCodeAt(0) - 0x0966));
}

export type ParsePhoneResult = { ok: true; e164: string } | { ok: false; error: string };

/**
 * "+91 98765 43210", "098765-43210" and "9876543210" are one number: parsed (libphonenumber,
 * India by default) into its one stored form, E.164 ("+919876543210"). Only numbers that
 * can exist pass: a mobile or landline of a number range in use, of its range's length.
 */
export function parsePhone(input: string): ParsePhoneResult {
  const text = withLatinDigits(input.trim());
  if (text === '') return { ok: false, error: PHONE_REQUIRED_MESSAGE };
  if (!PHONE_CHARACTERS.test(text)) return { ok: false, error: PHONE_INVALID_MESSAGE };
  const parsed = parsePhoneNumberFromString(text, DEFAULT_PHONE_COUNTRY);
  if (!parsed?.isValid()) return { ok: false, error: PHONE_INVALID_MESSAGE };
  return { ok: true, e164: parsed.number };
}

/** A stored number as people read it: "98765 43210" in India, "+44 20 7946 0958" elsewhere. */
export function formatPhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored, DEFAULT_PHONE_COUNTRY);
  if (!parsed) return stored;
  if (parsed.country !== DEFAULT_PHONE_COUNTRY) return parsed.formatInternational();
  // A mobile number is read without the trunk 0 ("98765 43210"); a landline is dialled with
  // it ("022 2345 6789"): without it, it is not a number anyone can call as written.
  const national = parsed.formatNational();
  return parsed.getType() === 'FIXED_LINE' ? national : national.replace(/^0/, '');
}

/**
 * Whether a stored number reaches a phone that takes WhatsApp and SMS: a mobile number (or
 * one of a range that is either, as in the USA), and a real one.
 */
export function isMobileNumber(stored: string): boolean {
  const parsed = parsePhoneNumberFromString(stored, DEFAULT_PHONE_COUNTRY);
  if (!parsed?.isValid()) return false;
  const type = parsed.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}
