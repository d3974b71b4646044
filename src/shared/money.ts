/**
 * Money is integer paise everywhere: parsed from decimal text without floating point,
 * summed exactly, and formatted back as text.
 */

export const MAX_BALANCE_PAISE = 999_999_999_999; // 9,999,999,999.99 rupees

export type ParseAmountResult = { ok: true; paise: number } | { ok: false; error: string };

export const AMOUNT_FORMAT_MESSAGE = 'Enter a number with at most 2 decimal places';
export const AMOUNT_RANGE_MESSAGE = 'Must be between -9,999,999,999.99 and 9,999,999,999.99';

const AMOUNT_PATTERN = /^([+-]?)(\d+)(?:\.(\d{0,2}))?$|^([+-]?)\.(\d{1,2})$/;

/** Parses "1234.5", "-0.10", 12.25 into paise; refuses anything it would have to round. */
export function parseAmount(input: string | number): ParseAmountResult {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, error: AMOUNT_FORMAT_MESSAGE };
    // String() gives the shortest text that round-trips, so 0.1 + 0.2 shows its tail and is refused.
    text = String(input);
  } else {
    text = input.trim().replaceAll(',', '');
  }
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) return { ok: false, error: AMOUNT_FORMAT_MESSAGE };
  const sign = match[1] ?? match[4] ?? '';
  const whole = (match[2] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = (match[3] ?? match[5] ?? '').padEnd(2, '0');
  if (whole.length > 10) return { ok: false, error: AMOUNT_RANGE_MESSAGE };
  const magnitude = Number(whole) * 100 + Number(fraction);
  if (magnitude > MAX_BALANCE_PAISE) return { ok: false, error: AMOUNT_RANGE_MESSAGE };
  // -0.00 is zero, never a negative zero.
  const paise = sign === '-' && magnitude !== 0 ? -magnitude : magnitude;
  return { ok: true, paise };
}

function splitPaise(paise: number | bigint): {
  negative: boolean;
  rupees: string;
  fraction: string;
} {
  const value = BigInt(paise);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  return {
    negative,
    rupees: (magnitude / 100n).toString(),
    fraction: (magnitude % 100n).toString().padStart(2, '0'),
  };
}

/** Paise as the API's decimal text: "1234.50", "-20.00", "0.00". */
export function formatAmount(paise: number | bigint): string {
  // Plain integer arithmetic while it is exact (every balance is); BigInt for larger totals.
  if (typeof paise === 'number' && Number.isSafeInteger(paise)) {
    const magnitude = Math.abs(paise);
    const fraction = magnitude % 100;
    return `${paise < 0 ? '-' : ''}${(magnitude - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
  }
  const { negative, rupees, fraction } = splitPaise(paise);
  return `${negative ? '-' : ''}${rupees}.${fraction}`;
}

/** Indian digit grouping: the last three digits, then pairs (12,34,56,789). */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const lastThree = digits.slice(-3);
  const rest = digits.slice(0, -3);
  const pairs = rest.replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${pairs},${lastThree}`;
}

/** Paise for people: "₹1,23,456.50", "-₹20.00". */
export function formatInr(paise: number | bigint): string {
  const { negative, rupees, fraction } = splitPaise(paise);
  return `${negative ? '-' : ''}₹${groupIndian(rupees)}.${fraction}`;
}

/** Decimal text from the API ("1234.50") to paise; the text is trusted to be well formed. */
export function amountToPaise(amount: string): number {
  const parsed = parseAmount(amount);
  if (!parsed.ok) throw new Error(`Not an amount: ${amount}`);
  return parsed.paise;
}

/** Exact sum of decimal texts of any size, for totals beyond 2^53 paise. */
export function amountTextToBigPaise(amount: string): bigint {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount);
  if (!match) throw new Error(`Not an amount: ${amount}`);
  const magnitude = BigInt(match[2] ?? '0') * 100n + BigInt(match[3] ?? '0');
  return match[1] === '-' ? -magnitude : magnitude;
}
