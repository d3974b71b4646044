import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithTexts } from '../../test-utils.tsx';
import { SearchBox } from './search-box.tsx';

/**
 * The list's URL as the page has it: a search reaches it a moment after it is handed over (a
 * navigation), as React Router's does, and the box is told of it then.
 */
function ListWithSlowUrl({ searched }: { searched: string[] }) {
  const [q, setQ] = useState('');
  return (
    <SearchBox
      value={q}
      onSearch={(next) => {
        searched.push(next);
        setTimeout(() => setQ(next), 100);
      }}
    />
  );
}

function typeInto(box: HTMLElement, text: string, msPerKey: number) {
  for (const key of text) {
    fireEvent.change(box, { target: { value: `${(box as HTMLInputElement).value}${key}` } });
    act(() => vi.advanceTimersByTime(msPerKey));
  }
}

describe('the search box', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps every key typed at an ordinary pace while the list catches up', async () => {
    const searched: string[] = [];
    renderWithTexts(<ListWithSlowUrl searched={searched} />);
    // Once its texts are in: the clock is the test's from here.
    const box = await screen.findByRole('searchbox', { name: 'Search clients' });
    vi.useFakeTimers();
    typeInto(box, 'ravi kumar', 200);
    act(() => vi.advanceTimersByTime(1000));
    expect(box).toHaveValue('ravi kumar');
    expect(searched.at(-1)).toBe('ravi kumar');
  });

  it('shows a search changed from outside (back, a link)', () => {
    const { rerender } = renderWithTexts(<SearchBox value="" onSearch={() => {}} />);
    rerender(<SearchBox value="sharma" onSearch={() => {}} />);
    expect(screen.getByRole('searchbox')).toHaveValue('sharma');
  });
});
