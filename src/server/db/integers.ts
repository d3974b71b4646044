/**
 * An integer as the drivers hand it over: a number only while it is exact (SQLite statements
 * read every integer in safe-integer mode and turn only those within 2^53 into numbers),
 * otherwise a bigint (SQLite) or decimal text (PostgreSQL int8 and numeric).
 */
export type DbInteger = number | bigint | string;

/** Any integer column or aggregate, exactly. */
export function exactInteger(value: DbInteger): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not an exact integer: ${value}`);
    return BigInt(value);
  }
  if (!/^-?\d+$/.test(value)) throw new Error(`not an integer: ${value}`);
  return BigInt(value);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** Whether a bigint fits in a number exactly. */
export function isSafeBigInt(value: bigint): boolean {
  return value <= MAX_SAFE && value >= MIN_SAFE;
}

/** A count or version: an integer that must fit in a number. */
export function smallInteger(value: DbInteger): number {
  // The usual case, without a bigint: a page of the list reads three of these per client.
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not an exact integer: ${value}`);
    return value;
  }
  const exact = exactInteger(value);
  if (!isSafeBigInt(exact)) {
    throw new Error(`integer too large for a number: ${exact}`);
  }
  return Number(exact);
}
