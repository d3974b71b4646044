import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient, Providers } from './app/providers.tsx';
import { routes } from './app/routes.tsx';

type Handler = (init: RequestInit | undefined) => { status: number; body?: unknown };

/**
 * Answers the app's fetch calls from a table of "METHOD /path" handlers; anything else
 * fails the test loudly.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(key);
    const handler = handlers[key];
    if (!handler) throw new Error(`unexpected request ${key}`);
    const { status, body } = handler(init);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}

export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const client = createQueryClient();
  render(
    <Providers client={client}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router };
}

export const openSettings = {
  allowRegistrations: true,
  disableBalanceOnAdd: true,
  disableBalanceOnEdit: true,
};

export const signedIn = { user: { id: 'u1', email: 'op@example.com' }, session: { id: 's1' } };
