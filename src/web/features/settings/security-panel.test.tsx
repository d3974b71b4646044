import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { REQUIRE_OWN_FIRST_MESSAGE } from '../../../shared/two-factor-schema.ts';
import {
  type Handler,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const SWITCH = 'Require two-factor sign-in for every operator';

/** The administrator's settings page, with the policy as the server holds it. */
function answers(
  requireTwoFactor: boolean,
  put: Handler = (init) => ({
    status: 200,
    body: JSON.parse(String(init?.body)),
  }),
  ownTwoFactor = true,
) {
  const sent: unknown[] = [];
  const api = mockApi({
    session: signedIn,
    routes: {
      'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor } }),
      'PUT /api/settings/security': (init) => {
        sent.push(JSON.parse(String(init?.body)));
        return put(init);
      },
      'GET /api/operators': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/two-factor': () => ({
        status: 200,
        body: { enabled: ownTwoFactor, backupCodesLeft: ownTwoFactor ? 10 : 0 },
      }),
    },
  });
  return { ...api, sent };
}

async function securityCard() {
  const heading = await screen.findByRole('heading', { name: 'Security' });
  return heading.closest('.card') as HTMLElement;
}

describe("the administrator's security settings", () => {
  test('the switch shows the policy the server holds, and requiring two-factor sign-in saves it at once', async () => {
    const { sent } = answers(false);
    renderApp('/settings');
    const card = await securityCard();
    const toggle = await within(card).findByRole('switch', { name: SWITCH });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/still signs in with their password/);

    await userEvent.click(toggle);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Two-factor sign-in is now required of every operator',
    );
    expect(sent).toEqual([{ requireTwoFactor: true }]);
    expect(toggle).toBeChecked();
    expect(toggle).toBeEnabled();
  });

  test('turned on already, it shows on, and turning it off saves that', async () => {
    const { sent } = answers(true);
    renderApp('/settings');
    const toggle = await within(await securityCard()).findByRole('switch', { name: SWITCH });
    await waitFor(() => expect(toggle).toBeChecked());
    await userEvent.click(toggle);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Two-factor sign-in is no longer required',
    );
    expect(sent).toEqual([{ requireTwoFactor: false }]);
    expect(toggle).not.toBeChecked();
  });

  test("refused while the administrator's own two-factor sign-in is off: the reason shows beside the switch, which stays off", async () => {
    answers(
      false,
      () => ({
        status: 409,
        body: { message: REQUIRE_OWN_FIRST_MESSAGE, code: 'two-factor-require-own-first' },
      }),
      false,
    );
    renderApp('/settings');
    const card = await securityCard();
    const toggle = await within(card).findByRole('switch', { name: SWITCH });
    await userEvent.click(toggle);

    const refusal = await within(card).findByRole('alert');
    expect(refusal).toHaveTextContent(REQUIRE_OWN_FIRST_MESSAGE);
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(new RegExp(`${REQUIRE_OWN_FIRST_MESSAGE}$`));
    // Said beside the switch, not as a passing message.
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  test('an operator has no security settings to see or change', async () => {
    const { calls } = mockApi({
      session: () => ({ user: { ...signedIn.user, role: 'operator' } }),
      routes: {
        'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
        'GET /api/account/two-factor': () => ({
          status: 200,
          body: { enabled: false, backupCodesLeft: 0 },
        }),
      },
    });
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Account' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Security' })).toBeNull();
    expect(screen.queryByRole('switch', { name: SWITCH })).toBeNull();
    expect(calls).not.toContain('GET /api/settings/security');
  });
});
