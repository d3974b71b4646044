import { describe, expect, test } from 'vitest';
import { PAGE_CURSOR_PATTERN } from '../../shared/ledger-schema.ts';
import { HttpError } from './errors.ts';
import { pageCursors, placeOf } from './page-cursors.ts';

const cursors = pageCursors('a secret of the panel, thirty-two characters or more');

describe('page cursors', () => {
  test('a cursor reads back as the place it was written for, from 1 to the largest', () => {
    for (const seq of [1n, 2n, 41n, 1_000_000n, 2n ** 53n + 1n, 2n ** 64n - 1n]) {
      const text = cursors.of('entries', 'client-a').write(seq);
      expect(text).toMatch(PAGE_CURSOR_PATTERN);
      expect(cursors.of('entries', 'client-a').read(text)).toBe(seq);
    }
  });

  test('neighbouring places give unrelated texts: no count or order shows through', () => {
    const texts = [100n, 101n, 102n].map((seq) => cursors.of('activity', 'book-a').write(seq));
    expect(new Set(texts).size).toBe(3);
    for (const text of texts) expect(text).not.toMatch(/10[012]/);
    const [a = '', b = ''] = texts;
    const shared = [...a].filter((character, index) => b[index] === character).length;
    expect(shared).toBeLessThan(8);
  });

  test("a cursor of one list is no place in another, nor under another panel's secret", () => {
    const entries = cursors.of('entries', 'client-a').write(7n);
    expect(cursors.of('entries', 'client-a').read(entries)).toBe(7n);
    expect(cursors.of('entries', 'client-b').read(entries)).toBeUndefined();
    expect(cursors.of('activity', 'client-a').read(entries)).toBeUndefined();
    const activity = cursors.of('activity', 'book-a').write(7n);
    expect(cursors.of('activity', 'book-b').read(activity)).toBeUndefined();
    const otherPanel = pageCursors('another panel, another secret of its own');
    expect(otherPanel.of('entries', 'client-a').read(entries)).toBeUndefined();
  });

  test('a text the panel did not write reads as no place', () => {
    const text = cursors.of('entries', 'client-a').write(7n);
    const altered = `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`;
    for (const forged of [altered, 'A'.repeat(22), '12', `${text}A`, '', `${text.slice(0, 21)}.`]) {
      expect(cursors.of('entries', 'client-a').read(forged)).toBeUndefined();
    }
  });

  test('a query whose cursor is not a place is refused on `cursor`; none is the first page', () => {
    expect(placeOf(cursors.of('entries', 'client-a'), undefined)).toBeUndefined();
    expect(
      placeOf(cursors.of('entries', 'client-a'), cursors.of('entries', 'client-a').write(9n)),
    ).toBe(9n);
    const refusal = (() => {
      try {
        placeOf(cursors.of('entries', 'client-a'), 'A'.repeat(22));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(HttpError);
    expect((refusal as HttpError).statusCode).toBe(400);
    expect((refusal as HttpError).body()).toMatchObject({
      fieldErrors: { cursor: expect.any(String) },
    });
  });
});
