import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { ApiError } from '../lib/api-client.ts';
import {
  apiClient,
  clientListAnswer,
  mockApi,
  openSettings,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../test-utils.tsx';

stubLiveSocketInEachTest();

describe('navbar', () => {
  test('signed out: Login and Register while registrations are allowed', async () => {
    mockApi({ session: null });
    renderApp('/login');
    const nav = await screen.findByRole('navigation');
    expect(await within(nav).findByRole('link', { name: 'Register' })).toBeVisible();
    expect(within(nav).getByRole('link', { name: 'Login' })).toBeVisible();
    expect(within(nav).getByRole('link', { name: 'Client Panel' })).toHaveAttribute('href', '/');
    expect(within(nav).queryByRole('link', { name: 'Settings' })).toBeNull();
  });

  test('signed out with registrations closed: no Register link', async () => {
    mockApi({ session: null, settings: () => ({ ...openSettings, allowRegistrations: false }) });
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Register' })).toBeNull());
  });

  test('signed in: Dashboard, the e-mail, Settings and Logout', async () => {
    mockApi({
      session: signedIn,
      routes: { 'GET /api/clients': () => clientListAnswer() },
    });
    renderApp('/dashboard');
    const nav = await screen.findByRole('navigation');
    expect(await within(nav).findByText('op@example.com')).toBeVisible();
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    expect(within(nav).getByRole('link', { name: 'Settings' })).toBeVisible();
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeVisible();
    expect(within(nav).queryByRole('link', { name: 'Login' })).toBeNull();
  });

  test('logout updates the navbar at once and says "Logged Out !!"', async () => {
    mockApi({
      session: signedIn,
      routes: {
        'GET /api/clients': () => clientListAnswer(),
        'POST /api/auth/sign-out': () => ({ status: 200, body: { success: true } }),
      },
    });
    const { router } = renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Logged Out !!');
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByText('op@example.com')).toBeNull();
    expect(screen.getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('logout ends the session only once the requests already sent have their answers', async () => {
    // The dashboard's list is still on its way when Logout is pressed.
    let answerTheList = () => {};
    const listAnswered = new Promise<void>((resolve) => {
      answerTheList = resolve;
    });
    const { calls } = mockApi({
      session: signedIn,
      routes: {
        'GET /api/clients': async () => {
          await listAnswered;
          return clientListAnswer();
        },
        'POST /api/auth/sign-out': () => ({ status: 200, body: { success: true } }),
      },
    });
    renderApp('/dashboard');
    await waitFor(() => expect(calls).toContain('GET /api/clients'));
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).not.toContain('POST /api/auth/sign-out');
    answerTheList();
    expect(await screen.findByText('Logged Out !!')).toBeVisible();
    expect(calls).toContain('POST /api/auth/sign-out');
  });
});

describe('the navbar at phone width', () => {
  test('"Menu" folds the links away and out again, and says whether they show', async () => {
    mockApi({ session: null });
    renderApp('/login');
    const menu = await screen.findByRole('button', { name: 'Menu' });
    const links = document.getElementById(menu.getAttribute('aria-controls') ?? '');
    expect(links).toContainElement(screen.getByRole('link', { name: 'Login' }));
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(links).not.toHaveClass('show');
    await userEvent.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(links).toHaveClass('show');
    await userEvent.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(links).not.toHaveClass('show');
  });
});

describe('who is signed in', () => {
  test('the next operator to sign in never sees the clients of the one who signed out', async () => {
    const asha = { ...apiClient('a1', 'Asha', 'Verma', '100.00'), phoneDisplay: '+91 98470 12345' };
    const other = { user: { id: 'u2', email: 'other@example.com', role: 'operator' } };
    let session: typeof signedIn | typeof other | null = signedIn;
    mockApi({
      session: () => session,
      routes: {
        // The second operator's list is still on its way: only a cache could show one now.
        'GET /api/clients': () =>
          session === other ? new Promise(() => {}) : clientListAnswer(asha),
        'POST /api/auth/sign-out': () => {
          session = null;
          return { status: 200, body: { success: true } };
        },
        'POST /api/auth/sign-in/email': () => {
          session = other;
          return { status: 200, body: other };
        },
      },
    });
    renderApp('/dashboard');
    expect(await screen.findAllByText(/Asha/)).not.toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await userEvent.type(await screen.findByLabelText('Email'), 'other@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'their passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      await within(await screen.findByRole('navigation')).findByText('other@example.com'),
    ).toBeVisible();
    expect(await screen.findByRole('link', { name: 'New' })).toBeVisible();
    expect(screen.queryAllByText(/Asha/)).toHaveLength(0);
  });
});

describe('guards', () => {
  test.each([
    '/',
    '/dashboard',
    '/clients',
    '/client/add',
    '/client/x',
    '/client/edit/x',
    '/settings',
  ])('a signed-out visitor of %s is sent to /login', async (path) => {
    mockApi({ session: null });
    const { router } = renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
  });

  test('a signed-in operator opening /login goes to the dashboard', async () => {
    mockApi({
      session: signedIn,
      routes: { 'GET /api/clients': () => clientListAnswer() },
    });
    const { router } = renderApp('/login');
    expect(await screen.findByText('No users found')).toBeVisible();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  test('/register goes to /login while registrations are closed', async () => {
    mockApi({ session: null, settings: () => ({ ...openSettings, allowRegistrations: false }) });
    const { router } = renderApp('/register');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
  });

  test('an unknown path shows "Page not found"', async () => {
    mockApi({ session: null });
    renderApp('/nothing/here');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
  });
});

describe('login and register forms', () => {
  beforeEach(() => {
    mockApi({
      session: null,
      routes: {
        'POST /api/auth/sign-in/email': () => ({
          status: 401,
          body: { message: 'Invalid email or password', code: 'invalid-credentials' },
        }),
        'POST /api/auth/sign-up/email': () => ({
          status: 400,
          body: { message: 'Common', fieldErrors: { password: 'This password is too common' } },
        }),
      },
    });
  });

  test('login checks fields before sending and shows a refusal in red', async () => {
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required')).toBeVisible();
    expect(screen.getByText('Password is required')).toBeVisible();
    expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).includes('sign-in'))).toBe(
      false,
    );
    await userEvent.type(screen.getByLabelText('Email'), 'op@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever-it-is');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    const refusal = await screen.findByText('Invalid email or password');
    expect(refusal).toHaveClass('alert-danger');
    expect(refusal.closest('[role="alert"]')).not.toBeNull();
  });

  test('the first field at fault takes the focus, and a message goes once its field is put right', async () => {
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Email is required')).toBeVisible();
    expect(screen.getByLabelText('Email')).toHaveFocus();
    await userEvent.type(screen.getByLabelText('Email'), 'op@example.com');
    expect(screen.queryByText('Email is required')).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByText('Password is required')).toBeVisible();
  });

  test('register shows the password rules, checks them, and puts server messages under fields', async () => {
    renderApp('/register');
    expect(await screen.findByText(/8 to 128 characters/)).toBeVisible();
    await userEvent.type(screen.getByLabelText('Email'), 'bad');
    await userEvent.type(screen.getByLabelText('Password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Enter a valid email address')).toBeVisible();
    expect(screen.getByText('Password must be at least 8 characters')).toBeVisible();
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'new@example.com');
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'password123');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('This password is too common')).toBeVisible();
    expect(screen.getByLabelText('Email')).toHaveValue('new@example.com');
  });
});

describe('settings service', () => {
  test('the settings page saves, says "Settings saved", and mirrors localStorage as JSON', async () => {
    let saved = openSettings;
    mockApi({
      session: signedIn,
      settings: () => saved,
      routes: {
        'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
        'PUT /api/settings': (init) => {
          saved = JSON.parse(String(init?.body));
          return { status: 200, body: saved };
        },
        'GET /api/operators': () => ({
          status: 200,
          body: { items: [{ ...signedIn.user, deactivatedAt: null, twoFactorEnabled: false }] },
        }),
        'GET /api/account/two-factor': () => ({
          status: 200,
          body: { enabled: false, backupCodesLeft: 0 },
        }),
      },
    });
    renderApp('/settings');
    const checkbox = await screen.findByLabelText('Disable Balance On Add');
    expect(checkbox).toBeChecked();
    await userEvent.click(checkbox);
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Settings saved');
    expect(saved.disableBalanceOnAdd).toBe(false);
    expect(JSON.parse(window.localStorage.getItem('settings') ?? '{}')).toEqual(saved);
  });
});

describe('failures are shown, never a blank screen', () => {
  function Boom(): never {
    throw new Error('the page broke while drawing');
  }

  test('a page that throws shows "Something went wrong" with a way back, under a working navbar', async () => {
    mockApi({ session: signedIn });
    // React logs the caught error; the test expects it.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderApp('/boom', [{ path: 'boom', element: <Boom /> }]);
      expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeVisible();
      expect(screen.getByText('the page broke while drawing')).toBeVisible();
      expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
        'href',
        '/dashboard',
      );
      expect(screen.getByRole('button', { name: 'Reload the page' })).toBeVisible();
      expect(
        within(await screen.findByRole('navigation')).getByRole('button', { name: 'Logout' }),
      ).toBeVisible();
    } finally {
      consoleError.mockRestore();
    }
  });

  test('a page that throws a 404 from the API shows "Page not found", not a crash, and logs nothing', async () => {
    mockApi({ session: signedIn });
    function Gone(): never {
      throw new ApiError(404, 'Client not found');
    }
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderApp('/gone', [{ path: 'gone', element: <Gone /> }]);
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
      expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
      expect(consoleError).not.toHaveBeenCalledWith(
        'The page crashed:',
        expect.anything(),
        expect.anything(),
      );
    } finally {
      consoleError.mockRestore();
    }
  });

  test('a crash is logged to the console with its error', async () => {
    mockApi({ session: signedIn });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderApp('/boom', [{ path: 'boom', element: <Boom /> }]);
      expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeVisible();
      expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
      expect(consoleError).toHaveBeenCalledWith(
        'The page crashed:',
        expect.objectContaining({ message: 'the page broke while drawing' }),
        expect.any(String),
      );
    } finally {
      consoleError.mockRestore();
    }
  });

  test('the next page shows again after one that threw', async () => {
    mockApi({
      session: signedIn,
      routes: { 'GET /api/clients': () => clientListAnswer() },
    });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderApp('/boom', [{ path: 'boom', element: <Boom /> }]);
      expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeVisible();
      const nav = await screen.findByRole('navigation');
      await userEvent.click(within(nav).getByRole('link', { name: 'Dashboard' }));
      expect(await screen.findByText('No users found')).toBeVisible();
      expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
    } finally {
      consoleError.mockRestore();
    }
  });

  test('an answer of the wrong shape is refused and said so, not shown half-read', async () => {
    mockApi({
      session: signedIn,
      routes: {
        'GET /api/clients': () => ({
          status: 200,
          body: { items: [{ id: 'x', balance: 12.5 }], total: 1, totalOwed: '12.50' },
        }),
      },
    });
    renderApp('/dashboard');
    expect(await screen.findByText(/does not understand/, {}, { timeout: 4000 })).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('who may change the panel', () => {
  test('an operator sees the settings but cannot change them', async () => {
    mockApi({ session: () => ({ user: { ...signedIn.user, role: 'operator' } }) });
    renderApp('/settings');
    const checkbox = await screen.findByLabelText('Disable Balance On Add');
    expect(checkbox).toBeChecked();
    expect(checkbox).toBeDisabled();
    expect(screen.getByText(/Only an administrator can change them/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Operators' })).toBeNull();
    expect(within(await screen.findByRole('navigation')).queryByText('Administrator')).toBeNull();
  });

  test('the administrator makes another operator an administrator', async () => {
    let others = [
      {
        id: 'u1',
        email: 'op@example.com',
        role: 'admin',
        deactivatedAt: null,
        twoFactorEnabled: false,
      },
      {
        id: 'u2',
        email: 'helper@example.com',
        role: 'operator',
        deactivatedAt: null,
        twoFactorEnabled: false,
      },
    ];
    const { calls } = mockApi({
      session: signedIn,
      routes: {
        'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
        'GET /api/operators': () => ({ status: 200, body: { items: others } }),
        'GET /api/account/two-factor': () => ({
          status: 200,
          body: { enabled: false, backupCodesLeft: 0 },
        }),
        'PUT /api/operators/u2/role': (init) => {
          const { role } = JSON.parse(String(init?.body));
          others = others.map((o) => (o.id === 'u2' ? { ...o, role } : o));
          return { status: 200, body: others[1] };
        },
      },
    });
    renderApp('/settings');
    expect(
      await within(await screen.findByRole('navigation')).findByText('Administrator'),
    ).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Operators' });
    expect(within(table).getByText('op@example.com (you)')).toBeVisible();
    await userEvent.click(
      within(table).getByRole('button', { name: 'Make helper@example.com an administrator' }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'helper@example.com is now an administrator',
    );
    expect(calls).toContain('PUT /api/operators/u2/role');
    expect(
      await within(table).findByRole('button', {
        name: 'Remove administrator role from helper@example.com',
      }),
    ).toBeVisible();
  });
});

test('while the database is unavailable the page says so and offers to try again', async () => {
  mockApi({
    routes: {
      'GET /api/auth/get-session': () => ({
        status: 503,
        body: {
          message: 'The database is unavailable, try again shortly',
          code: 'database-unavailable',
        },
      }),
    },
  });
  renderApp('/dashboard');
  const message = await screen.findByText(
    'Could not load your session: The database is unavailable, try again shortly',
    {},
    { timeout: 8000 },
  );
  const alert = message.closest('[role="alert"]') as HTMLElement;
  expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
}, 15_000);
