import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Claim } from '../../../shared/claim-schema.ts';
import type { Client } from '../../../shared/client-schema.ts';
import type { ShareLink } from '../../../shared/share-link-schema.ts';
import {
  apiClient,
  liveChannel,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const DAY = 86_400_000;

function link(id: string, extra: Partial<ShareLink> = {}): ShareLink {
  return {
    id,
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: new Date(Date.now() + 10 * DAY).toISOString(),
    lastOpenedAt: null,
    revokedAt: null,
    ...extra,
  };
}

function claim(id: string, status: Claim['status'], reference: string): Claim {
  return {
    id,
    amount: '500.00',
    reference,
    note: status === 'pending' ? 'Paid by GPay' : '',
    createdAt: '2026-03-02T10:00:00.000Z',
    status,
  };
}

/** The client page of Asha, with her links and claims as the server holds them. */
function clientApi(start: { client?: Client; claims?: Claim[]; links?: ShareLink[] } = {}) {
  let client = start.client ?? apiClient('a1', 'Asha', 'Verma', '1500.00');
  let claims = start.claims ?? [];
  let links = start.links ?? [];
  const sent: { key: string; body: unknown }[] = [];
  const record = (key: string, init: RequestInit | undefined) =>
    sent.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  const api = mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients/a1': () => ({ status: 200, body: client }),
      'GET /api/clients/a1/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      'GET /api/clients/a1/claims': () => ({ status: 200, body: { items: claims } }),
      'GET /api/clients/a1/share-links': () => ({ status: 200, body: { items: links } }),
      'POST /api/clients/a1/share-links': (init) => {
        record('create', init);
        const made = link(`l${links.length + 1}`, { createdAt: new Date().toISOString() });
        links = [made, ...links];
        return { status: 201, body: { ...made, url: 'https://panel.example/s/Zx9secret' } };
      },
      'DELETE /api/clients/a1/share-links/l1': (init) => {
        record('revoke', init);
        links = links.map((l) =>
          l.id === 'l1' ? { ...l, revokedAt: new Date().toISOString() } : l,
        );
        return { status: 204 };
      },
      'POST /api/clients/a1/claims/k1/confirm': (init) => {
        record('confirm', init);
        claims = claims.map((c) => (c.id === 'k1' ? { ...c, status: 'confirmed' } : c));
        client = { ...client, balance: '1000.00', pendingClaims: 0, version: 2 };
        return {
          status: 201,
          body: {
            client,
            entry: {
              id: 'e1',
              clientId: 'a1',
              kind: 'payment',
              amount: '-500.00',
              balanceAfter: '1000.00',
              note: 'UPI 1234',
              on: '2026-03-02',
              dueOn: null,
              createdAt: '2026-03-02T10:00:00.000Z',
              createdBy: { id: 'u1', email: 'op@example.com' },
            },
          },
        };
      },
      'POST /api/clients/a1/claims/k1/dismiss': (init) => {
        record('dismiss', init);
        claims = claims.map((c) => (c.id === 'k1' ? { ...c, status: 'dismissed' } : c));
        client = { ...client, pendingClaims: 0 };
        return { status: 200, body: claims[0] };
      },
    },
  });
  const elsewhere = {
    /** A client reports a payment from their statement link. */
    claim(next: Claim) {
      claims = [next, ...claims];
      client = { ...client, pendingClaims: client.pendingClaims + 1 };
      return client;
    },
  };
  return { ...api, sent, elsewhere };
}

describe("sharing a client's statement", () => {
  test('a link is made for the days chosen, shown once with Copy, and listed', async () => {
    const { sent } = clientApi();
    // userEvent's own clipboard, which the page writes to.
    const user = userEvent.setup();
    renderApp('/client/a1');
    await user.click(await screen.findByRole('button', { name: 'Share statement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share statement: Asha Verma' });
    expect(await within(dialog).findByText('No link made yet.')).toBeVisible();
    const days = within(dialog).getByLabelText('Link works for (days)');
    expect(days).toHaveValue(30);

    await userEvent.clear(days);
    await userEvent.type(days, '400');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make link' }));
    expect(days).toHaveAccessibleDescription('Days must be at most 365');
    // The field to mend has the focus.
    expect(days).toHaveFocus();
    expect(sent).toEqual([]);

    await userEvent.clear(days);
    await userEvent.type(days, '7');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make link' }));
    expect(await within(dialog).findByLabelText('Statement link')).toHaveValue(
      'https://panel.example/s/Zx9secret',
    );
    expect(sent).toEqual([{ key: 'create', body: { expiresInDays: 7 } }]);
    const table = await within(dialog).findByRole('table', { name: 'Statement links' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);

    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('https://panel.example/s/Zx9secret');
    expect(within(dialog).getByText('Copied')).toBeVisible();
  });

  test('a link is revoked only once confirmed; revoked and expired links say so', async () => {
    const { sent } = clientApi({
      links: [
        link('l1', { lastOpenedAt: '2026-03-03T10:00:00.000Z' }),
        link('l2', { expiresAt: '2026-01-01T00:00:00.000Z' }),
      ],
    });
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Share statement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share statement: Asha Verma' });
    const table = await within(dialog).findByRole('table', { name: 'Statement links' });
    expect(within(table).getByText('Expired')).toBeVisible();
    expect(within(table).getAllByText('never')).toHaveLength(1);

    await userEvent.click(within(table).getByRole('button', { name: /^Revoke the link made/ }));
    await userEvent.click(within(table).getByRole('button', { name: 'Keep it' }));
    expect(sent).toEqual([]);
    await userEvent.click(within(table).getByRole('button', { name: /^Revoke the link made/ }));
    await userEvent.click(within(table).getByRole('button', { name: 'Yes, revoke' }));
    expect(await within(table).findByText(/^Revoked /)).toBeVisible();
    expect(sent).toEqual([{ key: 'revoke', body: undefined }]);
    expect(within(table).queryByRole('button', { name: /Revoke/ })).toBeNull();
  });
});

/** Asha's page, owing ₹1,500.00 with one payment of hers to check (UPI-1234): its list. */
async function pendingClaimPage() {
  const start = apiClient('a1', 'Asha', 'Verma', '1500.00');
  const api = clientApi({
    client: { ...start, pendingClaims: 1 },
    claims: [claim('k1', 'pending', 'UPI-1234')],
  });
  renderApp('/client/a1');
  const list = await screen.findByRole('list', { name: 'Reported payments' });
  return { ...api, list };
}

describe('payments the client reported', () => {
  test('a client without pending claims asks nothing until the list is asked for', async () => {
    const { calls } = clientApi({ claims: [claim('k0', 'dismissed', 'OLD-1')] });
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Show reported payments' }));
    const list = await screen.findByRole('list', { name: 'Reported payments' });
    expect(within(list).getByText(/Dismissed/)).toBeVisible();
    expect(within(list).queryByRole('button', { name: /Confirm/ })).toBeNull();
    expect(calls.filter((call) => call === 'GET /api/clients/a1/claims')).toHaveLength(1);
  });

  test('a live claim shows at once, and Confirm books it as a payment', async () => {
    const { elsewhere, sent } = clientApi();
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Show reported payments' }));
    expect(await screen.findByText('The client has reported no payment.')).toBeVisible();
    const fresh = claim('k1', 'pending', 'UPI-778899');
    const client = elsewhere.claim(fresh);
    const socket = await liveChannel();
    act(() =>
      socket.onmessage?.({
        data: JSON.stringify({ type: 'claim.created', claim: fresh, client }),
      }),
    );
    const list = await screen.findByRole('list', { name: 'Reported payments' });
    expect(await within(list).findByText('UPI-778899')).toBeVisible();
    expect(screen.getByText('1 to check')).toBeVisible();
    expect(within(list).getByText('Paid by GPay')).toBeVisible();

    await userEvent.click(within(list).getByRole('button', { name: 'Confirm payment UPI-778899' }));
    expect(await within(list).findByText(/Confirmed: booked as a payment/)).toBeVisible();
    expect(sent).toEqual([{ key: 'confirm', body: {} }]);
    await waitFor(() => expect(screen.queryByText('1 to check')).toBeNull());
    expect(screen.getByText('₹1,000.00')).toBeVisible();
  });

  test('a double click on Confirm books one payment and reports no failure', async () => {
    const { sent, list } = await pendingClaimPage();
    const confirm = await within(list).findByRole('button', { name: 'Confirm payment UPI-1234' });
    // A browser's second click is a task of its own: only microtasks run between the two.
    fireEvent.click(confirm);
    for (let tick = 0; tick < 5; tick += 1) await Promise.resolve();
    fireEvent.click(confirm);
    expect(await within(list).findByText(/Confirmed: booked as a payment/)).toBeVisible();
    expect(sent).toEqual([{ key: 'confirm', body: {} }]);
    expect(screen.queryByText(/Nothing was changed/)).toBeNull();
  });

  test('a claim for more than the client owes says what confirming it would leave in credit; one within it says nothing', async () => {
    const start = apiClient('a1', 'Asha', 'Verma', '300.00');
    clientApi({
      client: { ...start, pendingClaims: 2 },
      claims: [
        { ...claim('k1', 'pending', 'UPI-TOO-MUCH'), amount: '5000.00' },
        { ...claim('k2', 'pending', 'UPI-FINE'), amount: '300.00' },
      ],
    });
    renderApp('/client/a1');
    const list = await screen.findByRole('list', { name: 'Reported payments' });
    const items = await within(list).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent(
      'More than the ₹300.00 owed: confirming it leaves ₹4,700.00 in credit',
    );
    expect(items[1]).not.toHaveTextContent('in credit');
  });

  test('Dismiss leaves the balance as it was', async () => {
    const { sent, list } = await pendingClaimPage();
    await userEvent.click(
      await within(list).findByRole('button', { name: 'Dismiss payment UPI-1234' }),
    );
    expect(await within(list).findByText(/Dismissed/)).toBeVisible();
    expect(sent).toEqual([{ key: 'dismiss', body: {} }]);
    expect(screen.getByText('₹1,500.00')).toBeVisible();
  });
});
