import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { renderWithTexts } from '../../test-utils.tsx';
import { Pager } from './pager.tsx';

test('the pager marks the current page, goes to the one clicked, and cannot go past either end', async () => {
  const onPage = vi.fn();
  const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  const { rerender } = renderWithTexts(<Pager page={1} pages={9} onPage={onPage} />);
  const pager = screen.getByRole('list');
  expect(within(pager).getByRole('button', { name: 'Page 1' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  expect(
    within(pager)
      .getAllByRole('button', { name: /^Page/ })
      .map((button) => button.textContent),
  ).toEqual(['1', '2', '3', '4', '5']);
  expect(within(pager).getByRole('button', { name: 'First page' })).toBeDisabled();
  expect(within(pager).getByRole('button', { name: 'Previous page' })).toBeDisabled();
  await userEvent.click(within(pager).getByRole('button', { name: 'Page 3' }));
  await userEvent.click(within(pager).getByRole('button', { name: 'Last page' }));
  expect(onPage.mock.calls).toEqual([[3], [9]]);
  // Back to the top at once: a smooth scroll stops where it is when the new rows arrive.
  expect(scrollTo.mock.calls).toEqual([
    [{ top: 0, behavior: 'instant' }],
    [{ top: 0, behavior: 'instant' }],
  ]);

  rerender(<Pager page={9} pages={9} onPage={onPage} />);
  expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Page 9' })).toHaveAttribute('aria-current', 'page');
  expect(screen.getByRole('button', { name: 'Page 8' })).not.toHaveAttribute('aria-current');
  await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
  expect(onPage.mock.calls.at(-1)).toEqual([8]);
});

test('a single page needs no pager', () => {
  renderWithTexts(<Pager page={1} pages={1} onPage={() => {}} />);
  expect(screen.queryByRole('list')).toBeNull();
});
