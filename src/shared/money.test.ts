import { describe, expect, test } from 'vitest';
import { formatAmount, formatInr, MAX_BALANCE_PAISE, parseAmount } from './money.ts';

const paise = (input: string | number) => {
  const result = parseAmount(input);
  if (!result.ok) throw new Error(result.error);
  return result.paise;
};

describe('parseAmount', () => {
  test('decimal text becomes exact paise', () => {
    expect(paise('1234.50')).toBe(123_450);
    expect(paise('1234.5')).toBe(123_450);
    expect(paise('0.1')).toBe(10);
    expect(paise('0.01')).toBe(1);
    expect(paise('  42 ')).toBe(4200);
    expect(paise('.5')).toBe(50);
    expect(paise('7.')).toBe(700);
    expect(paise('+3')).toBe(300);
    expect(paise('1,23,456.50')).toBe(12_345_650);
  });

  test('negatives, and -0.00 is plain zero', () => {
    expect(paise('-20')).toBe(-2000);
    expect(paise('-0.05')).toBe(-5);
    expect(Object.is(paise('-0.00'), 0)).toBe(true);
    expect(Object.is(paise(-0), 0)).toBe(true);
  });

  test('numbers are read by their exact text, so 0.1 + 0.2 is refused, not rounded', () => {
    expect(paise(12.25)).toBe(1225);
    expect(paise(0.3)).toBe(30);
    expect(parseAmount(0.1 + 0.2)).toEqual({
      ok: false,
      error: 'Enter a number with at most 2 decimal places',
    });
    expect(parseAmount(1.005).ok).toBe(false);
    expect(parseAmount(Number.NaN).ok).toBe(false);
    expect(parseAmount(Number.POSITIVE_INFINITY).ok).toBe(false);
  });

  test('more than 2 decimals is refused rather than rounded', () => {
    for (const text of ['1.005', '0.001', '10.999']) expect(parseAmount(text).ok, text).toBe(false);
  });

  test('anything that is not a plain number is refused', () => {
    for (const text of ['', 'abc', '1e3', '0x10', '1.2.3', '--1', '1 000', 'Infinity', '₹5']) {
      expect(parseAmount(text).ok, text).toBe(false);
    }
  });

  test('the limits are ±9,999,999,999.99', () => {
    expect(paise('9999999999.99')).toBe(MAX_BALANCE_PAISE);
    expect(paise('-9999999999.99')).toBe(-MAX_BALANCE_PAISE);
    expect(parseAmount('10000000000').ok).toBe(false);
    expect(parseAmount('-10000000000.00').ok).toBe(false);
    expect(parseAmount('99999999999999999999').ok).toBe(false);
    expect(paise('00000000001.00')).toBe(100);
  });
});

describe('formatting', () => {
  test('API text always has two places', () => {
    expect(formatAmount(123_450)).toBe('1234.50');
    expect(formatAmount(-2000)).toBe('-20.00');
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(-5)).toBe('-0.05');
    expect(formatAmount(12_000_000_000_000_000_001n)).toBe('120000000000000000.01');
  });

  test('display uses the rupee sign and Indian grouping', () => {
    expect(formatInr(12_345_650)).toBe('₹1,23,456.50');
    expect(formatInr(0)).toBe('₹0.00');
    expect(formatInr(99_999)).toBe('₹999.99');
    expect(formatInr(100_000)).toBe('₹1,000.00');
    expect(formatInr(-123_456_789_00)).toBe('-₹12,34,56,789.00');
    expect(formatInr(BigInt(MAX_BALANCE_PAISE))).toBe('₹9,99,99,99,999.99');
  });

  test('parse and format round-trip', () => {
    for (const text of ['0.00', '1.05', '-1.50', '9999999999.99', '-9999999999.99']) {
      expect(formatAmount(paise(text))).toBe(text);
    }
  });
});
