import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { SESSION_ENDED_CLOSE_CODE } from '../../../shared/live-events.ts';
import {
  apiClient,
  clientListAnswer,
  liveChannel,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const ENDED_NOTE =
  'You were signed out: your session ended (after a while without use, or from another device). Sign in again to go on.';

describe('a session that ends by itself', () => {
  test('the tab goes to the sign-in page and says why', async () => {
    let ended = false;
    mockApi({
      session: () => (ended ? null : signedIn),
      routes: {
        'GET /api/clients': () => clientListAnswer(apiClient('a1', 'Asha', 'Verma', '1.00')),
      },
    });
    const { router } = renderApp('/dashboard');
    const socket = await liveChannel();
    // Unused too long: the server closes the socket, and the session reads as nobody.
    ended = true;
    act(() => socket.onclose?.({ code: SESSION_ENDED_CLOSE_CODE }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(ENDED_NOTE)).toBeInTheDocument();
  });

  test('someone who was not signed in sees no such note', async () => {
    mockApi({ session: null });
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByText(ENDED_NOTE)).not.toBeInTheDocument();
  });
});
