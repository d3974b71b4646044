import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { ActivityItem, Book, Member } from '../../../shared/book-schema.ts';
import { BOOK_SWITCHED_CLOSE_CODE } from '../../../shared/live-events.ts';
import {
  apiClient,
  clientListAnswer,
  FakeWebSocket,
  liveChannel,
  memberOf,
  mockApi,
  openSettings,
  ownBook,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const operator = { user: { ...signedIn.user, role: 'operator' } };
const asha = apiClient('a1', 'Asha', 'Verma', '100.00');
const ravi = apiClient('r1', 'Ravi', 'Kumar', '250.00');

/**
 * The operator's own book (current at first) and Sharma Traders (staff there); `switchTo`
 * answers PUT /api/books/current as the server does, closing the session's sockets (4410) as
 * the switch commits, before it answers.
 */
function twoBooks() {
  let current = 'b1';
  const books = (): { items: Book[] } => ({
    items: [
      { ...ownBook, current: current === 'b1' },
      { id: 'b2', name: 'Sharma Traders', role: 'staff', current: current === 'b2' },
    ],
  });
  return {
    books,
    current: () => current,
    /** Another tab of the session switched: the books read so from now on. */
    switchElsewhere(id: string) {
      current = id;
    },
    switchTo(init: RequestInit | undefined) {
      current = JSON.parse(String(init?.body)).id;
      FakeWebSocket.latest?.onclose?.({ code: BOOK_SWITCHED_CLOSE_CODE });
      return { status: 200, body: books().items.find((book) => book.current) };
    },
  };
}

/** The dashboard's and a client's page's answers, in a book where the operator is `books`'. */
function bookApi(books: unknown, routes = {}) {
  return mockApi({
    session: operator,
    books,
    routes: {
      'GET /api/clients': () => clientListAnswer(asha),
      'GET /api/clients/a1': () => ({ status: 200, body: asha }),
      'GET /api/clients/a1/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      'GET /api/activity': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      ...routes,
    },
  });
}

describe('what each role is offered', () => {
  test('staff see no Delete, Export, Import or Edit, and still record payments and add clients', async () => {
    bookApi(memberOf('staff'));
    renderApp('/dashboard');
    expect(await screen.findAllByRole('link', { name: 'Asha' })).not.toHaveLength(0);
    expect(await screen.findByRole('link', { name: 'New' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Export CSV' })).not.toBeInTheDocument();

    cleanup();
    renderApp('/client/a1');
    expect(await screen.findByRole('button', { name: 'Record payment' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit balance' })).not.toBeInTheDocument();
  });

  test('an owner is offered all of it', async () => {
    bookApi({ items: [ownBook] });
    renderApp('/client/a1');
    expect(await screen.findByRole('link', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit balance' })).toBeInTheDocument();
  });

  test('a viewer sees no Add, and nothing to do to a client', async () => {
    bookApi(memberOf('viewer'));
    renderApp('/dashboard');
    expect(await screen.findAllByRole('link', { name: 'Asha' })).not.toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'New' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remind/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();

    cleanup();
    renderApp('/client/a1');
    expect(await screen.findByRole('heading', { name: 'Asha Verma' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record payment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share statement' })).not.toBeInTheDocument();
  });

  test('a viewer who opens the add page by its address is told their role does not allow it', async () => {
    bookApi(memberOf('viewer'));
    renderApp('/client/add');
    expect(
      await screen.findByText('Your role in this book does not allow this page.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  test('while the books are being read, no action shows', async () => {
    mockApi({
      session: operator,
      routes: {
        // Never answered: the role stays unknown.
        'GET /api/books': () => new Promise(() => {}),
        'GET /api/clients': () => clientListAnswer(asha),
      },
    });
    renderApp('/dashboard');
    expect(await screen.findAllByRole('link', { name: 'Asha' })).not.toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'New' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
  });
});

describe('the book in the navbar', () => {
  test("the current book's name is always shown, and switching book reads everything again from the new one", async () => {
    const shop = twoBooks();
    const { calls } = bookApi(shop.books, {
      'GET /api/clients': () => clientListAnswer(shop.current() === 'b1' ? asha : ravi),
      'PUT /api/books/current': shop.switchTo,
    });
    renderApp('/dashboard');
    const menu = await screen.findByRole('button', { name: 'Book: My shop' });
    expect(await screen.findAllByRole('link', { name: 'Asha' })).not.toHaveLength(0);
    await liveChannel();

    await userEvent.click(menu);
    await userEvent.click(screen.getByRole('button', { name: 'Sharma Traders (Staff)' }));

    expect(await screen.findByRole('button', { name: 'Book: Sharma Traders' })).toBeInTheDocument();
    expect(await screen.findAllByRole('link', { name: 'Ravi' })).not.toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'Asha' })).not.toBeInTheDocument();
    expect(calls).toContain('PUT /api/books/current');
    // Staff in that book: the owner's actions went with the old one.
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
  });

  test('the book menu works from the keyboard: arrows move between its items, Escape closes it and gives the focus back to its button', async () => {
    bookApi(() => ({
      items: [ownBook, { id: 'b2', name: 'Sharma Traders', role: 'staff', current: false }],
    }));
    renderApp('/dashboard');
    const menu = await screen.findByRole('button', { name: 'Book: My shop' });
    menu.focus();
    await userEvent.keyboard('{Enter}');
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'My shop (Owner)' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'Sharma Traders (Staff)' })).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('button', { name: 'New book…' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveFocus();
  });

  test('the tab that switches says where it went, once: the socket closed by its own switch is not "another tab"', async () => {
    const shop = twoBooks();
    bookApi(shop.books, { 'PUT /api/books/current': shop.switchTo });
    renderApp('/dashboard');
    const menu = await screen.findByRole('button', { name: 'Book: My shop' });
    await liveChannel();
    await userEvent.click(menu);
    await userEvent.click(screen.getByRole('button', { name: 'Sharma Traders (Staff)' }));
    expect(await screen.findByText('You are in Sharma Traders now')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByText(/in another tab/)).not.toBeInTheDocument();
  });

  test('a switch made in another tab of the session is reported as such', async () => {
    const shop = twoBooks();
    bookApi(shop.books);
    renderApp('/dashboard');
    expect(await screen.findByRole('button', { name: 'Book: My shop' })).toBeInTheDocument();
    const socket = await liveChannel();
    shop.switchElsewhere('b2');
    act(() => socket.onclose?.({ code: BOOK_SWITCHED_CLOSE_CODE }));
    expect(
      await screen.findByText('This session moved to Sharma Traders in another tab'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Book: Sharma Traders' })).toBeInTheDocument();
  });

  test('a member whose role changes is told so, in the same book', async () => {
    let demoted = false;
    bookApi(() => memberOf(demoted ? 'viewer' : 'staff'));
    renderApp('/dashboard');
    expect(await screen.findByRole('button', { name: 'Book: Sharma Traders' })).toBeInTheDocument();
    const socket = await liveChannel();
    demoted = true;
    act(() => socket.onclose?.({ code: 4403 }));
    expect(
      await screen.findByText(
        'Your role in Sharma Traders is now Viewer: what you can do here has changed',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Book: Sharma Traders' })).toBeInTheDocument();
  });

  test('a member removed from the book is told so, and the tab moves to their own book', async () => {
    let removed = false;
    bookApi(() => (removed ? { items: [ownBook] } : memberOf('staff')));
    renderApp('/dashboard');
    expect(await screen.findByRole('button', { name: 'Book: Sharma Traders' })).toBeInTheDocument();
    const socket = await liveChannel();
    removed = true;
    act(() => socket.onclose?.({ code: 4403 }));
    expect(
      await screen.findByText('You are no longer a member of Sharma Traders'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Book: My shop' })).toBeInTheDocument();
  });
});

const owner: Member = {
  id: 'u1',
  email: 'op@example.com',
  role: 'owner',
  joinedAt: '2026-01-01T00:00:00.000Z',
};
const helper: Member = {
  id: 'u2',
  email: 'helper@example.com',
  role: 'staff',
  joinedAt: '2026-02-01T00:00:00.000Z',
};

function settingsApi(books: unknown, routes = {}) {
  return mockApi({
    session: operator,
    books,
    routes: {
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/two-factor': () => ({
        status: 200,
        body: { enabled: true, backupCodesLeft: 3 },
      }),
      'GET /api/clients': () => clientListAnswer(asha),
      'GET /api/book/members': () => ({ status: 200, body: { items: [owner, helper] } }),
      ...routes,
    },
  });
}

async function bookCard(name: string) {
  const title = await screen.findByRole('heading', { name: `Book: ${name}`, level: 2 });
  const card = title.closest('.card');
  if (!(card instanceof HTMLElement)) throw new Error('no book card');
  return card;
}

describe('members in the settings', () => {
  test('the owner sees the members and makes an invitation whose link is shown once', async () => {
    const sent: unknown[] = [];
    settingsApi(
      { items: [ownBook] },
      {
        'POST /api/book/invites': (init: RequestInit | undefined) => {
          sent.push(JSON.parse(String(init?.body)));
          return {
            status: 201,
            body: {
              id: 'i1',
              url: 'https://panel.example/invite/secret-token',
              role: 'viewer',
              expiresAt: '2026-01-08T00:00:00.000Z',
            },
          };
        },
      },
    );
    renderApp('/settings');
    const card = await bookCard('My shop');
    const table = await within(card).findByRole('table', { name: 'Members' });
    expect(within(table).getByText('op@example.com (you)')).toBeInTheDocument();
    expect(within(table).getByRole('combobox', { name: 'Role of helper@example.com' })).toHaveValue(
      'staff',
    );

    await userEvent.selectOptions(
      within(card).getByRole('combobox', { name: 'Their role' }),
      'viewer',
    );
    await userEvent.click(within(card).getByRole('button', { name: 'Make an invitation link' }));
    expect(await within(card).findByRole('textbox', { name: 'Invitation link' })).toHaveValue(
      'https://panel.example/invite/secret-token',
    );
    expect(within(card).getByText(/Shown only now/)).toBeInTheDocument();
    expect(sent).toEqual([{ role: 'viewer' }]);
  });

  test('the owner hands the book over only after saying so', async () => {
    const sent: unknown[] = [];
    settingsApi(
      { items: [ownBook] },
      {
        'PUT /api/book/members/u2': (init: RequestInit | undefined) => {
          sent.push(JSON.parse(String(init?.body)));
          return { status: 200, body: { ...helper, role: 'owner' } };
        },
      },
    );
    renderApp('/settings');
    const card = await bookCard('My shop');
    await userEvent.selectOptions(
      await within(card).findByRole('combobox', { name: 'Role of helper@example.com' }),
      'owner',
    );
    const dialog = await screen.findByRole('dialog', { name: 'Hand the book over?' });
    expect(sent).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hand over' }));
    await waitFor(() => expect(sent).toEqual([{ role: 'owner' }]));
  });

  test('staff see the members, change nothing, and may leave the book', async () => {
    const { calls } = settingsApi(memberOf('staff'), {
      'DELETE /api/book/members/u1': () => ({ status: 204 }),
    });
    renderApp('/settings');
    const card = await bookCard('Sharma Traders');
    await within(card).findByRole('table', { name: 'Members' });
    expect(within(card).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Make an invitation link' })).toBeNull();

    await userEvent.click(within(card).getByRole('button', { name: 'Leave this book' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this book?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(calls).toContain('DELETE /api/book/members/u1'));
  });
});

const activityItem = (
  id: string,
  action: ActivityItem['action'],
  details: ActivityItem['details'] = null,
): ActivityItem => ({
  id,
  at: '2026-03-01T10:00:00.000Z',
  actor: { id: 'u2', email: 'helper@example.com' },
  action,
  clientId: 'a1',
  clientName: 'Asha Verma',
  summary: 'in English',
  details,
});

/** The activity page's answers: the owner's own book, its two members, and these lines. */
function activityApi(items: ActivityItem[]) {
  return bookApi(
    { items: [ownBook] },
    {
      'GET /api/book/members': () => ({ status: 200, body: { items: [owner, helper] } }),
      'GET /api/activity': () => ({ status: 200, body: { items, nextCursor: null } }),
    },
  );
}

describe('the activity log', () => {
  test('the activity list says who did what, newest first, and pages with Load more', async () => {
    const cursors: (string | null)[] = [];
    bookApi(
      { items: [ownBook] },
      {
        'GET /api/book/members': () => ({ status: 200, body: { items: [owner, helper] } }),
        'GET /api/activity': (_init: RequestInit | undefined, url?: URL) => {
          const cursor = url?.searchParams.get('cursor') ?? null;
          cursors.push(cursor);
          return cursor
            ? {
                status: 200,
                body: { items: [activityItem('e1', 'client.created')], nextCursor: null },
              }
            : {
                status: 200,
                body: { items: [activityItem('e2', 'entry.payment')], nextCursor: 'next-1' },
              };
        },
      },
    );
    renderApp('/activity');
    const list = await screen.findByRole('list', { name: 'Activity' });
    expect(
      await within(list).findByText(
        (_, element) =>
          element?.textContent === 'helper@example.com recorded a payment from Asha Verma',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(
      await within(list).findByText(
        (_, element) => element?.textContent === 'helper@example.com added Asha Verma',
      ),
    ).toBeInTheDocument();
    expect(cursors).toEqual([null, 'next-1']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  test('a line says what it was about when the log kept it: the amount, the member and role, the number imported', async () => {
    activityApi([
      activityItem('e5', 'entry.payment', { amount: '150000.00' }),
      activityItem('e4', 'balance.edited', { amount: '-500.00' }),
      activityItem('e3', 'member.role-changed', { member: 'staff@shop.in', role: 'viewer' }),
      activityItem('e2', 'member.removed', { member: 'tutor@shop.in' }),
      activityItem('e1', 'clients.imported', { count: 3 }),
    ]);
    renderApp('/activity');
    const list = await screen.findByRole('list', { name: 'Activity' });
    const lines = [
      'helper@example.com recorded a payment of ₹1,50,000.00 from Asha Verma',
      'helper@example.com set the balance of Asha Verma to ₹500.00 in credit',
      'helper@example.com made staff@shop.in Viewer',
      'helper@example.com removed tutor@shop.in from the book',
      'helper@example.com imported 3 clients',
    ];
    for (const line of lines) {
      expect(
        await within(list).findByText((_, element) => element?.textContent === line),
      ).toBeInTheDocument();
    }
  });

  test('a line about a client purged since says "a client", links nowhere and asks for no client', async () => {
    const { calls } = activityApi([
      { ...activityItem('e2', 'client.deleted'), clientId: 'gone', clientName: null },
      { ...activityItem('e1', 'client.created'), clientId: 'gone', clientName: null },
    ]);
    renderApp('/activity');
    const list = await screen.findByRole('list', { name: 'Activity' });
    expect(
      await within(list).findByText(
        (_, element) => element?.textContent === 'helper@example.com deleted a client',
      ),
    ).toBeInTheDocument();
    expect(within(list).queryByRole('link')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.startsWith('GET /api/clients/'))).toEqual([]);
  });

  test('staff who open the activity page are told their role does not allow it', async () => {
    const { calls } = bookApi(memberOf('staff'));
    renderApp('/activity');
    expect(
      await screen.findByText('Your role in this book does not allow this page.'),
    ).toBeInTheDocument();
    expect(calls).not.toContain('GET /api/activity');
  });

  test("a client's page shows that client's activity", async () => {
    const asked: (string | null)[] = [];
    bookApi(memberOf('staff'), {
      'GET /api/activity': (_init: RequestInit | undefined, url?: URL) => {
        asked.push(url?.searchParams.get('clientId') ?? null);
        return {
          status: 200,
          body: { items: [activityItem('e1', 'reminder.sent')], nextCursor: null },
        };
      },
    });
    renderApp('/client/a1');
    const section = (await screen.findByRole('heading', { name: 'Activity' })).closest('section');
    if (!section) throw new Error('no activity section');
    expect(
      await within(section).findByText(
        (_, element) => element?.textContent === 'helper@example.com reminded Asha Verma',
      ),
    ).toBeInTheDocument();
    expect(asked).toEqual(['a1']);
  });
});

describe('an invitation link', () => {
  test('the invite page joins the book and goes on to its dashboard', async () => {
    let joined = false;
    const { calls } = bookApi(() => (joined ? memberOf('staff') : { items: [ownBook] }), {
      'GET /api/invites/tok-1': () => ({ status: 204, body: null }),
      'POST /api/invites/tok-1/accept': () => {
        joined = true;
        return {
          status: 200,
          body: { book: { id: 'b2', name: 'Sharma Traders', role: 'staff' }, joined: true },
        };
      },
    });
    const { router } = renderApp('/invite/tok-1');
    await userEvent.click(await screen.findByRole('button', { name: 'Join the book' }));
    expect(await screen.findByText('You joined Sharma Traders as Staff')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls).toContain('POST /api/invites/tok-1/accept');
    expect(await screen.findByRole('button', { name: 'Book: Sharma Traders' })).toBeInTheDocument();
  });

  test('a member already who opens the link is told so, not that they joined', async () => {
    bookApi(memberOf('manager'), {
      'GET /api/invites/tok-3': () => ({ status: 204, body: null }),
      'POST /api/invites/tok-3/accept': () => ({
        status: 200,
        body: { book: { id: 'b2', name: 'Sharma Traders', role: 'manager' }, joined: false },
      }),
    });
    renderApp('/invite/tok-3');
    await userEvent.click(await screen.findByRole('button', { name: 'Join the book' }));
    expect(
      await screen.findByText(
        'You are already in Sharma Traders, as Manager: the invitation is still there for the person it was made for',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/You joined/)).not.toBeInTheDocument();
  });

  test('a used or expired invitation says so', async () => {
    bookApi(
      { items: [ownBook] },
      {
        'GET /api/invites/old': () => ({ status: 204, body: null }),
        'POST /api/invites/old/accept': () => ({
          status: 404,
          body: { message: 'Invitation not found', code: 'invite-not-found' },
        }),
      },
    );
    renderApp('/invite/old');
    await userEvent.click(await screen.findByRole('button', { name: 'Join the book' }));
    expect(await screen.findByText(/unknown, already used or expired/)).toHaveAttribute(
      'role',
      'alert',
    );
  });

  test.each(['signed in', 'signed out'])(
    'a link that is no good any more says so at once, %s, and offers nothing',
    async (who) => {
      const gone = {
        'GET /api/invites/gone': () => ({
          status: 404,
          body: { message: 'Invitation not found', code: 'invite-not-found' },
        }),
      };
      if (who === 'signed out') mockApi({ settings: openSettings, routes: gone });
      else bookApi({ items: [ownBook] }, gone);
      renderApp('/invite/gone');
      expect(await screen.findByText(/unknown, already used or expired/)).toHaveAttribute(
        'role',
        'alert',
      );
      expect(screen.queryByRole('button', { name: 'Join the book' })).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
    },
  );

  test.each([
    ['open', true],
    ['closed', false],
  ])(
    'a sign-up link whose invitation is no good says so, and sends no token (registrations %s)',
    async (_state, allowRegistrations) => {
      const sent: unknown[] = [];
      mockApi({
        settings: { ...openSettings, allowRegistrations },
        routes: {
          'GET /api/invites/gone': () => ({
            status: 404,
            body: { message: 'Invitation not found', code: 'invite-not-found' },
          }),
          'POST /api/auth/sign-up/email': (init) => {
            sent.push(JSON.parse(String(init?.body)));
            return { status: 400, body: { message: 'stop here' } };
          },
        },
      });
      renderApp('/register?invite=gone');
      const alert = (await screen.findByText(/unknown, already used or expired/)).closest('div');
      expect(alert).toHaveAttribute('role', 'alert');
      expect(screen.queryByText(/You were invited to a book/)).not.toBeInTheDocument();
      if (!allowRegistrations) {
        expect(screen.queryByRole('button', { name: 'Register' })).not.toBeInTheDocument();
        const card = alert?.closest('.card') as HTMLElement;
        expect(within(card).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
        return;
      }
      expect(alert).toHaveTextContent(/joins no one's book/);
      await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
      await userEvent.type(screen.getByLabelText('Password'), 'a long enough passphrase');
      await userEvent.click(screen.getByRole('button', { name: 'Register' }));
      await waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0]).not.toHaveProperty('inviteToken');
      // The navbar's Register opens the plain sign-up page, which says nothing of invitations.
      await userEvent.click(screen.getByRole('link', { name: 'Register' }));
      await waitFor(() =>
        expect(screen.queryByText(/unknown, already used or expired/)).not.toBeInTheDocument(),
      );
    },
  );

  test('an invitation that dies between the check and the sign-up says so, and the next try sends no token', async () => {
    const sent: { inviteToken?: string }[] = [];
    mockApi({
      settings: openSettings,
      routes: {
        'GET /api/invites/tok-4': () => ({ status: 204, body: null }),
        'POST /api/auth/sign-up/email': (init) => {
          sent.push(JSON.parse(String(init?.body)));
          return sent.length === 1
            ? { status: 404, body: { message: 'Invitation not found', code: 'invite-not-found' } }
            : { status: 400, body: { message: 'stop here' } };
        },
      },
    });
    const { router } = renderApp('/register?invite=tok-4');
    expect(await screen.findByText(/You were invited to a book/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'a long enough passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(/unknown, already used or expired/)).toBeInTheDocument();
    expect(screen.queryByText(/You were invited to a book/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[0]?.inviteToken).toBe('tok-4');
    expect(sent[1]).not.toHaveProperty('inviteToken');
    // The navbar's Register leads to the plain sign-up page: the invitation's words stay behind.
    await userEvent.click(screen.getByRole('link', { name: 'Register' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() =>
      expect(screen.queryByText(/unknown, already used or expired/)).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Register' })).toBeInTheDocument();
  });

  test('signed in, the sign-up link of an invitation opens the invitation, which offers to join', async () => {
    bookApi(
      { items: [ownBook] },
      { 'GET /api/invites/tok-5': () => ({ status: 204, body: null }) },
    );
    const { router } = renderApp('/register?invite=tok-5');
    await waitFor(() => expect(router.state.location.pathname).toBe('/invite/tok-5'));
    expect(await screen.findByRole('button', { name: 'Join the book' })).toBeInTheDocument();
  });

  test('signed out, the invitation leads to sign-up with its token, even while registrations are closed', async () => {
    const sent: unknown[] = [];
    mockApi({
      settings: { ...openSettings, allowRegistrations: false },
      routes: {
        'GET /api/invites/tok-2': () => ({ status: 204, body: null }),
        'POST /api/auth/sign-up/email': (init) => {
          sent.push(JSON.parse(String(init?.body)));
          return { status: 400, body: { message: 'stop here' } };
        },
      },
    });
    const { router } = renderApp('/invite/tok-2');
    expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login?next=%2Finvite%2Ftok-2',
    );
    await userEvent.click(screen.getByRole('link', { name: 'Create an account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'));
    expect(await screen.findByText(/You were invited to a book/)).toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText('Email'), 'new@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'a long enough passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ email: 'new@example.com', inviteToken: 'tok-2' });
  });
});
