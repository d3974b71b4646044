/**
 * Money is integer paise (bigint) everywhere: parsed from decimal text by one strict grammar,
 * summed exactly, bound to the database as 64-bit integers, and formatted back as text.
 */

import { validationMessage } from './validation-messages.ts';

export const MAX_BALANCE_PAISE = 999_999_999_999n; // 9,999,999,999.99 rupees

export type ParseAmountResult = { ok: true; paise: bigint } | { ok: false; error: string };

export const AMOUNT_FORMAT_MESSAGE = validationMessage('amount.format');
export const AMOUNT_GROUPING_MESSAGE = validationMessage('amount.grouping');
export const AMOUNT_CURRENCY_MESSAGE = validationMessage('amount.currency');

/** How people write rupees around a number ("₹500", "Rs. 500", "500/-", "INR 500"). */
const RUPEE_WORDS = /₹|\brs\b|\brs\.|\binr\b|\/-/i;
export const AMOUNT_RANGE_MESSAGE = validationMessage('amount.range');

// Whole rupees: plain digits, international grouping (100,000) or Indian grouping (1,00,000).
// A grouped number starts with a digit other than 0: "0,500" is half a rupee written the
// European way, never five hundred.
const WHOLE = String.raw`\d+|[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d?(?:,\d{2})*,\d{3}`;
const AMOUNT_PATTERN = new RegExp(String.raw`^([+-]?)(?:(${WHOLE})(?:\.(\d{0,2}))?|\.(\d{1,2}))$`);

/**
 * The one grammar for decimal amounts: an optional sign, whole rupees (grouped or not), and
 * at most two decimals. Returns paise, or why the text is not an amount. No range check:
 * totals are read with it too.
 */
function readDecimal(text: string): { paise: bigint } | { error: string } {
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) {
    // Said for what it is: "a number with at most 2 decimals" reads wrong beside "₹500".
    if (RUPEE_WORDS.test(text)) return { error: AMOUNT_CURRENCY_MESSAGE };
    return { error: text.includes(',') ? AMOUNT_GROUPING_MESSAGE : AMOUNT_FORMAT_MESSAGE };
  }
  const [, sign, whole = '0', fraction = '', bareFraction = ''] = match;
  const magnitude =
    BigInt(whole.replaceAll(',', '')) * 100n + BigInt((fraction || bareFraction).padEnd(2, '0'));
  return { paise: sign === '-' ? -magnitude : magnitude };
}

/**
 * Devanagari digits ("५००") as the digits they are ("500"): a Hindi keyboard types them, and
 * the panel speaks Hindi. Nothing else is read differently.
 */
function withWesternDigits(text: string): string {
  return text.replace(/[\u0966-\u096F]/g, (digit) => String(digit.charCodeAt(0) - 0x0966));
}

/**
 * Parses a balance as typed or sent ("1234.5", "-0.10", "1,00,000", 12.25) into paise within
 * the balance limits; refuses anything it would have to round or guess.
 */
export function parseAmount(input: string | number): ParseAmountResult {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, error: AMOUNT_FORMAT_MESSAGE };
    // String() gives the shortest text that round-trips, so 0.1 + 0.2 shows its tail and is refused.
    text = String(input);
  } else {
    text = withWesternDigits(input.trim());
  }
  const read = readDecimal(text);
  if ('error' in read) return { ok: false, error: read.error };
  const magnitude = read.paise < 0n ? -read.paise : read.paise;
  if (magnitude > MAX_BALANCE_PAISE) return { ok: false, error: AMOUNT_RANGE_MESSAGE };
  return { ok: true, paise: read.paise };
}

/** An amount the API sent or stored ("1234.50", any size): paise, or an error if malformed. */
export function paiseFromAmount(amount: string): bigint {
  const read = readDecimal(amount);
  if ('error' in read) throw new Error(`Not an amount: ${amount}`);
  return read.paise;
}

/**
 * Paise as the API's decimal text: "1234.50", "-20.00", "0.00". A number must be a safe
 * integer (as the databases hand small amounts over): it is formatted with number arithmetic,
 * which is exact there and costs no bigint per amount (a page of the list formats 100).
 */
export function formatAmount(paise: bigint | number): string {
  if (typeof paise === 'number') {
    if (!Number.isSafeInteger(paise)) throw new Error(`not a whole number of paise: ${paise}`);
    const magnitude = Math.abs(paise);
    const fraction = magnitude % 100;
    // magnitude - fraction is a multiple of 100, so the division is exact.
    return `${paise < 0 ? '-' : ''}${(magnitude - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
  }
  const negative = paise < 0n;
  const magnitude = negative ? -paise : paise;
  const fraction = (magnitude % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${magnitude / 100n}.${fraction}`;
}

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/** Paise for people: "₹1,23,456.50", "-₹20.00" (Indian grouping, exact at any size). */
export function formatInr(paise: bigint): string {
  // Given decimal text, Intl formats the exact digits rather than a rounded double.
  return inr.format(formatAmount(paise) as `${number}`);
}

/**
 * An amount with its sign as the panel writes it: "+₹500.00" adds to what is owed, "−₹500.00"
 * (a minus sign, not a hyphen) takes from it; `plus: ''` for a balance, which shows no "+".
 */
export function formatSignedInr(paise: bigint, plus = '+'): string {
  if (paise > 0n) return `${plus}${formatInr(paise)}`;
  if (paise < 0n) return `\u2212${formatInr(-paise)}`;
  return formatInr(0n);
}
