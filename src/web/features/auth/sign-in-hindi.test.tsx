import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import hindiErrors from '../../../shared/locales/hi/errors.json' with { type: 'json' };
import hindiValidation from '../../../shared/locales/hi/validation.json' with { type: 'json' };
import { changeLanguage, i18n } from '../../i18n/language.ts';
import {
  clientListAnswer,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

/**
 * The Hindi text of a refusal's code, from the errors catalogue (src/shared/locales/hi, filled
 * by the server side of issue 22). Until the catalogue has the code, a stand-in loaded here, so
 * that what the page does with a code is tested either way.
 */
function hindiRefusal(code: string): string {
  const id = `errors.${code}`;
  const text = (hindiErrors as Record<string, string>)[id];
  if (text !== undefined) return text;
  const standIn = 'ईमेल या पासवर्ड गलत है';
  i18n.load('hi', { [id]: standIn });
  return standIn;
}

const tooShort = (hindiValidation as Record<string, string>)['validation.password.too-short'];

describe('the sign-in pages in Hindi', () => {
  test('login: its words in Hindi, a wrong password refused in Hindi by its code, then signed in', async () => {
    let refuse = true;
    mockApi({
      session: () => (refuse ? null : signedIn),
      routes: {
        'POST /api/auth/sign-in/email': () => {
          if (!refuse) return { status: 200, body: signedIn };
          refuse = false;
          return {
            status: 401,
            body: { message: 'Invalid email or password', code: 'invalid-credentials' },
          };
        },
        'GET /api/clients': () => clientListAnswer(),
      },
    });
    await changeLanguage('hi');
    const refusal = hindiRefusal('invalid-credentials');
    renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'लॉग इन', level: 1 })).toBeVisible();
    // The title follows in an effect after the commit that shows the heading.
    await waitFor(() => expect(document.title).toMatch(/^लॉग इन · /));
    expect(screen.getByRole('form', { name: 'लॉग इन' })).toBeVisible();
    await userEvent.type(screen.getByLabelText('ईमेल'), 'op@example.com');
    await userEvent.type(screen.getByLabelText('पासवर्ड'), 'not my password');
    await userEvent.click(screen.getByRole('button', { name: 'लॉग इन करें' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.queryByText('Invalid email or password')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'लॉग इन करें' }));
    expect(await screen.findByRole('status')).toHaveTextContent('लॉग इन हो गया');
    expect(screen.queryByText('Logged in Success !!')).toBeNull();
  });

  test('the code page: its words in Hindi', async () => {
    mockApi();
    await changeLanguage('hi');
    renderApp('/login/code');
    expect(await screen.findByRole('heading', { name: 'दो-चरणीय लॉग इन' })).toBeVisible();
    expect(screen.getByLabelText('सत्यापन कोड')).toHaveAccessibleDescription('या अपना कोई बैकअप कोड');
    expect(screen.getByRole('button', { name: 'पुष्टि करें' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'लॉग इन पर वापस जाएँ' })).toHaveAttribute(
      'href',
      '/login',
    );
  });

  test('register: the password rules in Hindi, with their lengths', async () => {
    mockApi();
    await changeLanguage('hi');
    renderApp('/register');
    expect(await screen.findByRole('heading', { name: 'रजिस्टर करें', level: 1 })).toBeVisible();
    expect(screen.getByLabelText('पासवर्ड')).toHaveAccessibleDescription(
      '8 से 128 अक्षर, कोई भी अक्षर चलेंगे; पर बहुत आम पासवर्ड नहीं, और पैनल के नाम या आपके ईमेल पते से बना पासवर्ड भी नहीं।',
    );
  });

  test.each(['hi', 'en'] as const)(
    'register: the account is made in the language the pages are read in (%s)',
    async (language) => {
      const sent: unknown[] = [];
      let user: unknown = null;
      mockApi({
        session: () => user,
        routes: {
          'POST /api/auth/sign-up/email': (init) => {
            sent.push(JSON.parse(String(init?.body)));
            user = { user: { ...signedIn.user, language } };
            return { status: 200, body: user };
          },
          'GET /api/clients': () => clientListAnswer(),
        },
      });
      await changeLanguage(language);
      renderApp('/register');
      const title = language === 'hi' ? 'रजिस्टर करें' : 'Register';
      const form = await screen.findByRole('form', { name: title });
      await userEvent.type(
        within(form).getByLabelText(language === 'hi' ? 'ईमेल' : 'Email'),
        'new@example.com',
      );
      await userEvent.type(
        within(form).getByLabelText(language === 'hi' ? 'पासवर्ड' : 'Password'),
        'a long enough passphrase',
      );
      await userEvent.click(within(form).getByRole('button', { name: title }));
      await waitFor(() => expect(sent).toHaveLength(1));
      expect(sent[0]).toEqual({
        email: 'new@example.com',
        password: 'a long enough passphrase',
        language,
      });
    },
  );

  // The field messages' Hindi is the validation catalogue's (the server side of issue 22 fills
  // it): this runs once it has the message.
  test.runIf(tooShort !== undefined)(
    'register: a password too short is said in Hindi under its field, and nothing is sent',
    async () => {
      const { calls } = mockApi();
      await changeLanguage('hi');
      renderApp('/register');
      await userEvent.type(await screen.findByLabelText('ईमेल'), 'new@example.com');
      await userEvent.type(screen.getByLabelText('पासवर्ड'), 'short');
      await userEvent.click(screen.getByRole('button', { name: 'रजिस्टर करें' }));
      const field = screen.getByLabelText('पासवर्ड');
      await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
      expect(field).toHaveAccessibleDescription(expect.stringContaining(tooShort ?? ''));
      expect(calls).not.toContain('POST /api/auth/sign-up/email');
    },
  );
});
