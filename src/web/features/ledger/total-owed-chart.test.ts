import { expect, test } from 'vitest';
import { amountLabels } from './total-owed-chart.tsx';

test('the amount axis never shows two ticks alike, however narrow its range', () => {
  expect(amountLabels('en', [0, 50_000, 100_000])).toEqual(['₹0', '₹50K', '₹1L']);
  for (const ticks of [
    [124_000_000, 124_200_000, 124_400_000],
    [124_000_000, 124_020_000, 124_040_000],
    [124_000_000, 124_000_010, 124_000_020],
  ]) {
    for (const language of ['en', 'hi'] as const) {
      const labels = amountLabels(language, ticks);
      expect(new Set(labels).size, labels.join(' ')).toBe(ticks.length);
    }
  }
});

test('past 1,000 crore the English axis says crore, as Indian English writes it', () => {
  expect(amountLabels('en', [0, 5e9, 1e10, 1.5e10])).toEqual([
    '₹0',
    '₹500Cr',
    '₹1,000Cr',
    '₹1,500Cr',
  ]);
  expect(amountLabels('en', [0, 1e7, 2e7])).toEqual(['₹0', '₹1Cr', '₹2Cr']);
});
