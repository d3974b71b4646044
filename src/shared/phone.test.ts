import { describe, expect, test } from 'vitest';
import { formatPhone, PHONE_INVALID_MESSAGE, parsePhone } from './phone.ts';
import { phoneSearchDigits } from './search-text.ts';

describe('phone numbers', () => {
  test('the ways people write one Indian number are one number', () => {
    for (const written of [
      '+91 98765 43210',
      '098765-43210',
      '9876543210',
      '(0)98765 43210',
      ' 98765 43210 ',
      // As a Hindi keyboard writes it.
      '९८७६५ ४३२१०',
      '+९१ ९८७६५-४३२१०',
    ]) {
      expect(parsePhone(written), written).toEqual({ ok: true, e164: '+919876543210' });
    }
  });

  test('Indian landlines are numbers too, with or without the trunk 0', () => {
    for (const written of ['022 2345 6789', '(022) 2345-6789', '+91 22 2345 6789', '2223456789']) {
      expect(parsePhone(written), written).toEqual({ ok: true, e164: '+912223456789' });
    }
  });

  test('numbers of no length or range in use are refused, though of a plausible length', () => {
    for (const written of ['123456789', '12345678901', '0123456789', '1111111111', '+91 5555']) {
      expect(parsePhone(written), written).toEqual({ ok: false, error: PHONE_INVALID_MESSAGE });
    }
  });

  test("other countries' numbers are accepted with their code", () => {
    expect(parsePhone('+44 20 7946 0958')).toEqual({ ok: true, e164: '+442079460958' });
    expect(parsePhone('+1 415 555 2671')).toEqual({ ok: true, e164: '+14155552671' });
  });

  test('what is not a valid number is refused with a message that says how to write one', () => {
    for (const written of ['12345', '98765abc43210', '++919876543210', '+91 98765', 'call me']) {
      expect(parsePhone(written), written).toEqual({ ok: false, error: PHONE_INVALID_MESSAGE });
    }
    expect(parsePhone('   ')).toEqual({ ok: false, error: 'Phone is required' });
  });

  test('numbers are shown as people read them', () => {
    expect(formatPhone('+919876543210')).toBe('98765 43210');
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958');
    // A landline keeps the trunk 0 it is dialled with.
    expect(formatPhone('+912223456789')).toBe('022 2345 6789');
    expect(formatPhone('+918026123456')).toBe('080 2612 3456');
  });

  test('a phone-like search becomes the digits to look for', () => {
    expect(phoneSearchDigits('98765 43210')).toBe('9876543210');
    expect(phoneSearchDigits('098765-43210')).toBe('9876543210');
    expect(phoneSearchDigits('+91 98765')).toBe('9198765');
    expect(phoneSearchDigits('43')).toBeNull();
    expect(phoneSearchDigits('kumar')).toBeNull();
  });
});
