import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useListView } from './list-view.ts';

function renderListView(path: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
  );
  return renderHook(
    () => ({ list: useListView(), location: useLocation(), navigate: useNavigate() }),
    { wrapper },
  );
}

describe('the list view in the URL', () => {
  it('a change made before the last one has shown keeps both', () => {
    const view = renderListView('/?balance=credit');
    act(() => {
      view.result.current.list.change({ balance: undefined });
      view.result.current.list.change({ size: 25 });
    });
    expect(view.result.current.location.search).toBe('?size=25');
    expect(view.result.current.list.view).toMatchObject({ balance: undefined, size: 25 });
  });

  it('a change after a link that overtook the last one starts from the page the link shows', () => {
    const view = renderListView('/?balance=owing');
    act(() => {
      view.result.current.list.change({ balance: 'credit' });
      view.result.current.navigate('/?overdue=any');
    });
    expect(view.result.current.location.search).toBe('?overdue=any');
    act(() => view.result.current.list.change({ size: 100 }));
    expect(view.result.current.location.search).toBe('?overdue=any&size=100');
  });
});
