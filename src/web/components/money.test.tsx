import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderWithTexts } from '../test-utils.tsx';
import { Balance, Money } from './money.tsx';

test.each([
  ['123456.50', '₹1,23,456.50'],
  ['0.00', '₹0.00'],
  ['-20.00', '-₹20.00'],
  ['119999999999.88', '₹1,19,99,99,99,999.88'],
])('%s is shown as %s', (amount, text) => {
  renderWithTexts(<Money amount={amount} />);
  expect(screen.getByText(text)).toBeVisible();
});

test.each([
  ['1234.50', '₹1,234.50', 'balance-owing'],
  ['0.00', '₹0.00', 'balance-clear'],
  ['-500.00', '₹500.00 in credit', 'balance-clear'],
])('a balance of %s reads "%s" (%s)', (amount, text, colour) => {
  renderWithTexts(<Balance amount={amount} />);
  expect(screen.getByText(text)).toHaveClass(colour);
});
