import { expect, test } from 'vitest';
import { asOwnSwitch, takeOwnMove } from './books.ts';

test("a switch of this tab's that failed does not hide a switch made in another tab", async () => {
  await expect(asOwnSwitch(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  expect(takeOwnMove()).toBe(false);
});

test("this tab's own switch accounts for one close, not two", async () => {
  await asOwnSwitch(async () => 'moved');
  expect(takeOwnMove()).toBe(true);
  expect(takeOwnMove()).toBe(false);
});
