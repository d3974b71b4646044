import { expect, test } from 'vitest';
import { dateIn } from './panel-date.ts';

test("the panel's date turns at midnight in its time zone, to the millisecond", () => {
  // Midnight of 1 December 2026 in India is 18:30 UTC the day before.
  const midnight = Date.UTC(2026, 10, 30, 18, 30);
  expect(dateIn('Asia/Kolkata', new Date(midnight - 1))).toBe('2026-11-30');
  expect(dateIn('Asia/Kolkata', new Date(midnight))).toBe('2026-12-01');
  expect(dateIn('Asia/Kolkata', new Date(midnight - 1))).toBe('2026-11-30');
  expect(dateIn('Asia/Kolkata', new Date(midnight + 999))).toBe('2026-12-01');
  // In 1900 India kept Madras time, 5:21:10 ahead of UTC: its days began ten seconds past a
  // minute of UTC.
  const madrasMidnight = Date.UTC(1900, 10, 30, 18, 38, 50);
  expect(dateIn('Asia/Kolkata', new Date(madrasMidnight - 1))).toBe('1900-11-30');
  expect(dateIn('Asia/Kolkata', new Date(madrasMidnight))).toBe('1900-12-01');
});

test('one instant has each time zone its own date', () => {
  const at = new Date(Date.UTC(2026, 10, 30, 20, 0));
  for (let i = 0; i < 3; i += 1) {
    expect(dateIn('Asia/Kolkata', at)).toBe('2026-12-01');
    expect(dateIn('America/New_York', at)).toBe('2026-11-30');
  }
});
