// A preload (node --import) for a panel started by an end-to-end test that needs another day:
// the server's clock runs CLOCK_SHIFT_FILE's number of milliseconds ahead (none while the file
// is missing), so that a test can move the panel to tomorrow by writing 86400000 there, with
// no route or code path of the panel's own for it.
import { readFileSync } from 'node:fs';

const file = process.env.CLOCK_SHIFT_FILE;
if (!file) throw new Error('shift-clock.mjs needs CLOCK_SHIFT_FILE');

const RealDate = globalThis.Date;
const realNow = RealDate.now;

/** How often the file is read again, in real ms: Date.now is called on every log line. */
const REREAD_MS = 100;
let shift = 0;
let readAt = Number.NEGATIVE_INFINITY;

function currentShift() {
  const now = realNow();
  if (now - readAt < REREAD_MS) return shift;
  readAt = now;
  let text;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    text = '0';
  }
  const read = Number(text);
  // A half-written file reads as empty: the shift stays what it was until the next read.
  if (text !== '' && Number.isFinite(read)) shift = read;
  return shift;
}

const shiftedNow = () => realNow() + currentShift();

/*
 * A function rather than `class extends Date`: `Date()` called without `new` (which a class
 * refuses) still answers, and the prototype stays Date's own, so that `instanceof Date` holds
 * for the dates Node itself and native modules make too.
 */
function ShiftedDate(...args) {
  if (!new.target) return new RealDate(shiftedNow()).toString();
  return Reflect.construct(RealDate, args.length === 0 ? [shiftedNow()] : args, new.target);
}
Object.setPrototypeOf(ShiftedDate, RealDate);
Object.defineProperty(ShiftedDate, 'prototype', { value: RealDate.prototype });
ShiftedDate.now = shiftedNow;
globalThis.Date = ShiftedDate;
