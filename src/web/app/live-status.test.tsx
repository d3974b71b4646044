import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import {
  apiClient,
  clientListAnswer,
  FakeWebSocket,
  liveChannel,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../test-utils.tsx';

stubLiveSocketInEachTest();

const BROKEN = 'Not connected to the server: what you see may be out of date. Reconnecting…';

describe('the live channel, broken', () => {
  test('a break that lasts is said until the channel is open again; a short one is not', async () => {
    mockApi({
      session: signedIn,
      routes: {
        'GET /api/clients': () => clientListAnswer(apiClient('a1', 'Asha', 'Verma', '1.00')),
      },
    });
    renderApp('/dashboard');
    const first = await liveChannel();
    act(() => first.onopen?.());
    // The server goes away: nothing is said at once (a book switch reconnects in a moment)…
    act(() => first.onclose?.({ code: 1006 }));
    expect(screen.queryByText(BROKEN)).not.toBeInTheDocument();
    // …but a break that lasts is, with the page still shown.
    expect(await screen.findByText(BROKEN, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Asha' }).length).toBeGreaterThan(0);
    // The tab tries again by itself; once a socket opens, the note goes.
    await waitFor(() => expect(FakeWebSocket.latest).not.toBe(first), { timeout: 5000 });
    act(() => FakeWebSocket.latest?.onopen?.());
    await waitFor(() => expect(screen.queryByText(BROKEN)).not.toBeInTheDocument());
  }, 15_000);
});
