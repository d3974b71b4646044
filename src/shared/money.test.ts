import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  AMOUNT_CURRENCY_MESSAGE,
  AMOUNT_FORMAT_MESSAGE,
  AMOUNT_GROUPING_MESSAGE,
  formatAmount,
  formatInr,
  MAX_BALANCE_PAISE,
  paiseFromAmount,
  parseAmount,
} from './money.ts';

const paise = (input: string | number) => {
  const result = parseAmount(input);
  if (!result.ok) throw new Error(`${input}: ${result.error}`);
  return result.paise;
};

describe('parseAmount', () => {
  test('decimal text becomes exact paise', () => {
    expect(paise('1234.50')).toBe(123_450n);
    expect(paise('1234.5')).toBe(123_450n);
    expect(paise('0.1')).toBe(10n);
    expect(paise('0.01')).toBe(1n);
    expect(paise('  42 ')).toBe(4200n);
    expect(paise('.5')).toBe(50n);
    expect(paise('7.')).toBe(700n);
    expect(paise('+3')).toBe(300n);
  });

  test('Devanagari digits, as a Hindi keyboard types them, are read as the same amount', () => {
    expect(paise('५००')).toBe(50_000n);
    expect(paise('१,२३,४५६.५०')).toBe(12_345_650n);
    expect(paise('-०.०५')).toBe(-5n);
    expect(parseAmount('५,०')).toEqual({ ok: false, error: AMOUNT_GROUPING_MESSAGE });
  });

  test('commas are accepted where Indian or international grouping puts them', () => {
    expect(paise('1,00,000.50')).toBe(10_000_050n);
    expect(paise('100,000.50')).toBe(10_000_050n);
    expect(paise('1,23,456.50')).toBe(12_345_650n);
    expect(paise('12,34,56,789')).toBe(1_234_567_890_0n);
    expect(paise('1,234,567')).toBe(123_456_700n);
    expect(paise('1,000')).toBe(100_000n);
    expect(paise('-9,99,99,99,999.99')).toBe(-MAX_BALANCE_PAISE);
  });

  test('commas anywhere else are refused, never reinterpreted', () => {
    for (const text of ['1,5', '1.2,5', '1,00', '10,0000', ',100', '100,', '1,,000', '1,000.5,0']) {
      expect(parseAmount(text), text).toEqual({ ok: false, error: AMOUNT_GROUPING_MESSAGE });
    }
    expect(parseAmount('1,000,00,000').ok).toBe(false);
    expect(parseAmount('1,00,00').ok).toBe(false);
  });

  test('a rupee sign or word around the number is refused for what it is', () => {
    for (const text of ['₹500', 'Rs 500', 'rs.500', 'Rs. 1,000.50', '500/-', 'INR 500', '₹ 20']) {
      expect(parseAmount(text), text).toEqual({ ok: false, error: AMOUNT_CURRENCY_MESSAGE });
    }
    // Other words are not taken for rupees.
    expect(parseAmount('500 rupees')).toEqual({ ok: false, error: AMOUNT_FORMAT_MESSAGE });
  });

  test('a grouped number starting with 0 is refused: "0,500" is not five hundred', () => {
    for (const text of ['0,500', '0,00,500', '000,500', '0,000,001', '-0,500', '00,000']) {
      expect(parseAmount(text), text).toEqual({ ok: false, error: AMOUNT_GROUPING_MESSAGE });
    }
    // Plain digits may still start with zeros, and a group may hold them.
    expect(paise('0500')).toBe(50_000n);
    expect(paise('1,000,001')).toBe(100_000_100n);
    expect(paise('10,05,000')).toBe(100_500_000n);
  });

  test('negatives, and -0.00 is plain zero', () => {
    expect(paise('-20')).toBe(-2000n);
    expect(paise('-0.05')).toBe(-5n);
    expect(paise('-0.00')).toBe(0n);
    expect(paise(-0)).toBe(0n);
  });

  test('numbers are read by their exact text, so 0.1 + 0.2 is refused, not rounded', () => {
    expect(paise(12.25)).toBe(1225n);
    expect(paise(0.3)).toBe(30n);
    expect(parseAmount(0.1 + 0.2)).toEqual({ ok: false, error: AMOUNT_FORMAT_MESSAGE });
    expect(parseAmount(1.005).ok).toBe(false);
    expect(parseAmount(Number.NaN).ok).toBe(false);
    expect(parseAmount(Number.POSITIVE_INFINITY).ok).toBe(false);
    expect(parseAmount(1e21).ok).toBe(false);
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
    expect(paise('00000000001.00')).toBe(100n);
  });

  test('any amount within the limits survives format → parse, grouped or not', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_BALANCE_PAISE, max: MAX_BALANCE_PAISE }), (value) => {
        const text = formatAmount(value);
        expect(paise(text)).toBe(value);
        // The display text, without its rupee sign, parses back to the same paise.
        expect(paise(formatInr(value).replace('₹', ''))).toBe(value);
      }),
    );
  });
});

describe('formatting', () => {
  test('API text always has two places', () => {
    expect(formatAmount(123_450n)).toBe('1234.50');
    expect(formatAmount(-2000n)).toBe('-20.00');
    expect(formatAmount(0n)).toBe('0.00');
    expect(formatAmount(-5n)).toBe('-0.05');
    expect(formatAmount(12_000_000_000_000_000_001n)).toBe('120000000000000000.01');
  });

  test('a safe-integer number of paise is written as the same bigint is', () => {
    const edges = [0, 1, -1, 5, -5, 9, 10, 99, 100, 101, -100, 123_450, -2000, 2 ** 53 - 1];
    for (const value of [...edges, ...edges.map((edge) => -edge)]) {
      expect(formatAmount(value), String(value)).toBe(formatAmount(BigInt(value)));
    }
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        expect(formatAmount(value)).toBe(formatAmount(BigInt(value)));
      }),
    );
  });

  test('a number of paise that is no safe integer is refused, not rounded', () => {
    for (const value of [0.5, 2 ** 53, -(2 ** 53), Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => formatAmount(value), String(value)).toThrow(/not a whole number of paise/);
    }
  });

  test('display uses the rupee sign and Indian grouping, exactly at any size', () => {
    expect(formatInr(12_345_650n)).toBe('₹1,23,456.50');
    expect(formatInr(0n)).toBe('₹0.00');
    expect(formatInr(99_999n)).toBe('₹999.99');
    expect(formatInr(100_000n)).toBe('₹1,000.00');
    expect(formatInr(-123_456_789_00n)).toBe('-₹12,34,56,789.00');
    expect(formatInr(MAX_BALANCE_PAISE)).toBe('₹9,99,99,99,999.99');
    // Past 2^53 paise a double would round the last digits.
    expect(formatInr(9_007_199_254_740_993n)).toBe('₹9,00,71,99,25,47,409.93');
  });

  test('API amounts of any size are read back exactly', () => {
    expect(paiseFromAmount('119999999999.88')).toBe(11_999_999_999_988n);
    expect(paiseFromAmount('-0.05')).toBe(-5n);
    expect(() => paiseFromAmount('1,5')).toThrow('Not an amount');
  });
});
