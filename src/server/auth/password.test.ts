import { describe, expect, test } from 'vitest';
import { contextWordsFor, isCommonPassword, passwordProblem } from './password.ts';

const asha = { email: 'Asha.Verma+panel@acme-traders.co.in' };

describe('context-specific words in passwords', () => {
  test.each([
    'client panel',
    'ClientPanel2024!',
    'client-panel-1234',
    'CLIENT_PANEL',
    'clientspanel99',
    'Ｃｌｉｅｎｔ Ｐａｎｅｌ 123',
    'administrator1',
    'operator@2024',
  ])('the panel\'s name or a role with a little added is refused: "%s"', (password) => {
    expect(passwordProblem(password)).toBe('context');
  });

  test.each([
    'Asha.Verma+panel@acme-traders.co.in',
    'asha.verma+panel',
    'ashaverma2024',
    'Verma@123456',
    'asha1234asha',
    'acmetraders!!',
    'acme-traders-2024',
  ])('the operator\'s own e-mail address or a part of it is refused: "%s"', (password) => {
    expect(passwordProblem(password, asha)).toBe('context');
  });

  test('another person may use what is context for Asha', () => {
    expect(passwordProblem('ashaverma2024', { email: 'ravi@example.com' })).toBeNull();
  });

  test.each([
    'correct horse battery staple',
    'the operator of the night shift',
    'my client panel keeps the ledger honest',
    'asha sings verma never dances',
  ])('a passphrase that merely contains such a word keeps enough of its own: "%s"', (password) => {
    expect(passwordProblem(password, asha)).toBeNull();
  });

  test('what remains after the words may not be a common password either', () => {
    // "verma" taken out leaves "password1", long enough but on the common list.
    expect(passwordProblem('verma password1', asha)).toBe('context');
  });

  test("a password without any of the words is none of this rule's business", () => {
    // Folded, it reads "password1", but no context word was taken out of it.
    expect(passwordProblem('p-a-s-s-w-o-r-d-1', asha)).toBeNull();
  });

  test('the common-password rule comes first and keeps its own message', () => {
    expect(passwordProblem('password123', asha)).toBe('common');
    expect(isCommonPassword('Password123')).toBe(true);
    expect(isCommonPassword('correct horse battery staple')).toBe(false);
  });

  test('the words of an address: whole, local part, its words and the domain names but the last', () => {
    expect(contextWordsFor(asha)).toEqual([
      'ashavermapanelacmetraderscoin',
      'ashavermapanel',
      'administrator',
      'clientspanel',
      'clientpanel',
      'acmetraders',
      'operator',
      'traders',
      'admin',
      'verma',
      'panel',
      'asha',
      'acme',
    ]);
    // Pieces shorter than three characters ("li", "co") would refuse too much.
    expect(contextWordsFor({ email: 'li@co.in' })).not.toContain('li');
  });
});
